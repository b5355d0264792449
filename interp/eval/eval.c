/*
** eval/eval.c: the tree-walking evaluator.
**
** Each top-level statement runs with a fresh scratch arena mark; when it
** ends, everything it allocated is released, after the values bound to
** global names have been copied into the persistent arena. Errors leave
** through lytI_error (a longjmp to the protected entry in eval/api.c), which
** is safe because every allocation belongs to an arena.
**
** `(x)` is grouping, except where CuTe notation is being written: around
** a literal (`(3)`, `((2,3))`), on either side of `:` and inside a tuple
** literal, it is the rank-1 tuple CuTe prints as `(3)`. eval_shape() is
** that second reading.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"
#include "parser.h"
#include "interp/eval/kind.h"
#include "interp/eval/state.h"

static lyt_value eval(lyt_state *L, const lytP_node *n);
void lytI_exec(lyt_state *L, const lytP_node *s);

void lytI_error(lyt_state *L, lyt_loc loc, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  L->errloc = loc;
  lytS_vfail(&L->cx, code, fmt, ap);
}

static void *scratch(lyt_state *L, size_t n) {
  return lytS_alloc(&L->cx, n);
}

static void step(lyt_state *L, const lytP_node *n) {
  if (lytS_stack_deep(&L->cx)) {  /* a located error, not a host's stack overflow */
    L->errloc = n->loc;
    lytS_check_stack(&L->cx);
  }
  if (atomic_load_explicit(&L->interrupted, memory_order_relaxed)) {
    atomic_store_explicit(&L->interrupted, 0, memory_order_relaxed);
    lytI_error(L, n->loc, LYT_ERRLIMIT, "interrupted");
  }
  if (++L->steps > L->cfg.max_steps)
    lytI_error(L, n->loc, LYT_ERRLIMIT,
               "evaluation step limit reached (%lld steps in one statement)",
               (long long)L->cfg.max_steps);
}

/* ---------------------------------------------------------------------
** Names
** ------------------------------------------------------------------- */

static lyt_value *find_local(lyt_state *L, const char *name) {
  lytI_frame *f = L->frame;
  if (!f) return NULL;
  for (int32_t i = f->n - 1; i >= 0; i--)
    if (f->local[i].name == name) return &f->local[i].v;
  return NULL;
}

static void set_local(lyt_state *L, const char *name, lyt_value v) {
  lytI_frame *f = L->frame;
  lyt_value *old = find_local(L, name);
  if (old) { *old = v; return; }
  if (f->n == f->cap) {
    int32_t ncap = f->cap ? f->cap * 2 : 8;
    lytI_slot *ns = scratch(L, sizeof *ns * (size_t)ncap);
    if (f->n) memcpy(ns, f->local, sizeof *ns * (size_t)f->n);
    f->local = ns;
    f->cap = ncap;
  }
  f->local[f->n].name = name;
  f->local[f->n++].v = v;
}

static void bind(lyt_state *L, const char *name, lyt_value v) {
  if (L->frame) { set_local(L, name, v); return; }
  lytI_tset(L, L->mod, name, lytI_copy_to(L, &L->perm, v));
}

/* A function's locals, its module's globals, the builtins. */
static lyt_value lookup(lyt_state *L, const lytP_node *n) {
  lyt_value *v = find_local(L, n->str);
  if (!v) v = lytI_tget(L->mod, n->str);
  if (!v) v = lytI_tget(&L->builtins, n->str);
  if (!v) lytI_error(L, n->loc, LYT_ERRRUN, "unknown name '%s'", n->str);
  return *v;
}

/* ---------------------------------------------------------------------
** Literals
** ------------------------------------------------------------------- */

static lyt_value eval_shape(lyt_state *L, const lytP_node *n);

static lyt_value tuple_of(lyt_state *L, const lytP_node *n, int kind) {
  lyt_value t;
  t.kind = kind;
  t.u.tup.n = n->n;
  t.u.tup.e = scratch(L, sizeof(lyt_value) * (size_t)(n->n ? n->n : 1));
  int32_t i = 0;
  for (const lytP_node *e = n->list; e; e = e->next)
    t.u.tup.e[i++] = kind == LYT_VTUP ? eval_shape(L, e) : eval(L, e);
  return t;
}

/* `(3)`, `(_)`, `((4))`, `((2,3))`: CuTe text, so a rank-1 tuple wherever
** it is written. `(x)` and `(1+2)` stay grouping. */
static int literal_paren(const lytP_node *n) {
  const lytP_node *a = n->a;
  return a->kind == N_INT || a->kind == N_UNDER || a->kind == N_TUPLE ||
         (a->kind == N_PAREN && literal_paren(a));
}

static lyt_value eval_record(lyt_state *L, const lytP_node *n) {
  lyt_value r = { .kind = LYT_VRECORD };
  size_t k = (size_t)(n->n ? n->n : 1);
  r.u.rec.n = n->n;
  r.u.rec.name = scratch(L, sizeof *r.u.rec.name * k);
  r.u.rec.e = scratch(L, sizeof *r.u.rec.e * k);
  int32_t i = 0;
  for (const lytP_node *f = n->list; f; f = f->next, i++) {
    for (int32_t j = 0; j < i; j++)
      if (r.u.rec.name[j] == f->str)
        lytI_error(L, f->loc, LYT_ERRRUN, "field '%s' appears twice in a record", f->str);
    r.u.rec.name[i] = f->str;
    r.u.rec.e[i] = f->a ? eval(L, f->a) : lytI_nil();
  }
  return r;
}

static lyt_value eval_shape(lyt_state *L, const lytP_node *n) {
  if (n->kind != N_PAREN) return eval(L, n);
  lyt_value t;
  t.kind = LYT_VTUP;
  t.u.tup.n = 1;
  t.u.tup.e = scratch(L, sizeof(lyt_value));
  t.u.tup.e[0] = eval_shape(L, n->a);
  return t;
}

static lytS_tup *to_tup(lyt_state *L, const lytP_node *n, lyt_value v, const char *what) {
  const char *why = NULL;
  lytS_tup *t = lytI_val2tup(&L->cx, &v, &why);
  if (!t)
    lytI_error(L, n->loc, LYT_ERRRUN, "%s of a layout must be an integer or a tuple of integers (%s)",
               what, why);
  return t;
}

static lyt_value eval_axis(lyt_state *L, const lytP_node *n) {
  lyt_value x = eval(L, n->a);
  if (x.kind != LYT_VINT)
    lytI_error(L, n->a->loc, LYT_ERRRUN, "'@%s' tags an integer stride, got %s", n->str,
               lytI_kindname(x.kind));
  lyt_value v = { .kind = LYT_VAXIS };
  v.u.ax.v = x.u.i;
  v.u.ax.axis = n->str;
  return v;
}

/* v@k: CuTe's scaled basis element (the strides of an identity layout).
** Printed innermost index first, v@i@j has the mode path (j, i). */
static lyt_value eval_basis(lyt_state *L, const lytP_node *n) {
  lyt_value x = eval(L, n->a);
  uint8_t path[LYT_BASIS_MAX];
  int np = 0;
  int64_t scale;
  if (x.kind == LYT_VINT) {
    scale = x.u.i;
  } else if (x.kind == LYT_VBASIS) {
    scale = x.u.basis->v;
    np = x.u.basis->npath;
    if (np >= LYT_BASIS_MAX)
      lytI_error(L, n->loc, LYT_ERRRUN, "a basis element nests at most %d indices", LYT_BASIS_MAX);
    memcpy(path + 1, x.u.basis->path, (size_t)np);
  } else {
    lytI_error(L, n->a->loc, LYT_ERRRUN, "'@%lld' scales a basis element by an integer, got %s",
               (long long)n->ival, lytI_kindname(x.kind));
  }
  if (n->ival > 255)
    lytI_error(L, n->loc, LYT_ERRRUN, "basis index %lld: at most 255", (long long)n->ival);
  path[0] = (uint8_t)n->ival;
  L->errloc = n->loc;
  lyt_value v = { .kind = LYT_VBASIS };
  v.u.basis = lytS_basis(&L->cx, scale, path, np + 1);
  return v;
}

static int has_axis(const lyt_value *v) {
  if (v->kind == LYT_VAXIS) return 1;
  if (v->kind != LYT_VTUP) return 0;
  for (int32_t i = 0; i < v->u.tup.n; i++)
    if (has_axis(&v->u.tup.e[i])) return 1;
  return 0;
}

static lyt_value eval_layout(lyt_state *L, const lytP_node *n) {
  lyt_value sv = eval_shape(L, n->a), dv = eval_shape(L, n->b);
  if (has_axis(&dv) || has_axis(&sv)) return lytI_iters(L, n->loc, &sv, &dv);
  lytS_tup *shape = to_tup(L, n->a, sv, "the shape");
  lytS_tup *stride = to_tup(L, n->b, dv, "the stride");
  L->errloc = n->loc;
  return lytI_layout_literal(L, shape, stride);
}

/* ---------------------------------------------------------------------
** Operators
** ------------------------------------------------------------------- */

static int64_t int_operand(lyt_state *L, const lytP_node *n, lyt_value v, const char *op) {
  if (v.kind != LYT_VINT)
    lytI_error(L, n->loc, LYT_ERRRUN, "operator %s needs integers, got %s", op,
               lytI_kindname(v.kind));
  return v.u.i;
}

static int64_t floordiv(lyt_state *L, const lytP_node *n, int64_t a, int64_t b, int mod) {
  if (b == 0) lytI_error(L, n->loc, LYT_ERRRUN, "division by zero");
  if (a == INT64_MIN && b == -1) lytI_error(L, n->loc, LYT_ERRRUN, "integer overflow in division");
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) { q--; r += b; }
  return mod ? r : q;
}

static lyt_value concat(lyt_state *L, lyt_value a, lyt_value b) {
  char *s = scratch(L, (size_t)(a.u.str.len + b.u.str.len + 1));
  memcpy(s, a.u.str.s, (size_t)a.u.str.len);
  memcpy(s + a.u.str.len, b.u.str.s, (size_t)b.u.str.len);
  s[a.u.str.len + b.u.str.len] = 0;
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = s;
  v.u.str.len = a.u.str.len + b.u.str.len;
  return v;
}

static lyt_value join(lyt_state *L, lyt_value a, lyt_value b) {
  lyt_value t = { .kind = LYT_VTUP };
  t.u.tup.n = a.u.tup.n + b.u.tup.n;
  t.u.tup.e = scratch(L, sizeof(lyt_value) * (size_t)(t.u.tup.n ? t.u.tup.n : 1));
  memcpy(t.u.tup.e, a.u.tup.e, sizeof(lyt_value) * (size_t)a.u.tup.n);
  memcpy(t.u.tup.e + a.u.tup.n, b.u.tup.e, sizeof(lyt_value) * (size_t)b.u.tup.n);
  return t;
}

/* ^ & | << >>: C's meaning on 64-bit two's complement integers; >> of a
** negative rounds down (Python's); shifts by less than 0 or more than 63,
** and << past 64 bits, are errors. */
static lyt_value bitwise(lyt_state *L, const lytP_node *n, lyt_value a, lyt_value b) {
  const char *op = lytP_tokname(n->op);
  int64_t x = int_operand(L, n->a, a, op), y = int_operand(L, n->b, b, op);
  if (n->op == TK_CARET) return lytI_int(x ^ y);
  if (n->op == TK_AMP) return lytI_int(x & y);
  if (n->op == TK_PIPE) return lytI_int(x | y);
  if (y < 0 || y > 63)
    lytI_error(L, n->b->loc, LYT_ERRRUN, "shift by %lld: the amount must be 0 to 63", (long long)y);
  if (n->op == TK_SHR) return lytI_int(x >= 0 ? x >> y : ~(~x >> y));
  int64_t r = (int64_t)((uint64_t)x << y);
  if ((r >= 0 ? r >> y : ~(~r >> y)) != x)
    lytI_error(L, n->loc, LYT_ERRRUN, "integer overflow in %lld << %lld", (long long)x, (long long)y);
  return lytI_int(r);
}

static lyt_value arith(lyt_state *L, const lytP_node *n, lyt_value a, lyt_value b) {
  const char *op = lytP_tokname(n->op);
  if (n->op == TK_PLUS && a.kind == LYT_VSTR && b.kind == LYT_VSTR) return concat(L, a, b);
  if (n->op == TK_PLUS && a.kind == LYT_VTUP && b.kind == LYT_VTUP) return join(L, a, b);
  if (a.kind == LYT_VINDEX || b.kind == LYT_VINDEX) {
    static const char ops[] = { [TK_PLUS] = '+', [TK_MINUS] = '-', [TK_STAR] = '*',
                                [TK_SLASH] = '/', [TK_PERCENT] = '%' };
    return lytI_index_arith(L, ops[n->op], n->loc, &a, &b);
  }
  int64_t x = int_operand(L, n->a, a, op), y = int_operand(L, n->b, b, op);
  L->errloc = n->loc;
  switch (n->op) {
    case TK_PLUS: return lytI_int(lytS_add(&L->cx, x, y));
    case TK_MINUS: return lytI_int(lytS_sub(&L->cx, x, y));
    case TK_STAR: return lytI_int(lytS_mul(&L->cx, x, y));
    case TK_SLASH: return lytI_int(floordiv(L, n, x, y, 0));
    default: return lytI_int(floordiv(L, n, x, y, 1));
  }
}

static lyt_value compare(lyt_state *L, const lytP_node *n, lyt_value a, lyt_value b) {
  if (n->op == TK_EQ) return lytI_bool(lytI_equal(&L->cx, &a, &b));
  if (n->op == TK_NE) return lytI_bool(!lytI_equal(&L->cx, &a, &b));
  const char *op = lytP_tokname(n->op);
  int64_t x = int_operand(L, n->a, a, op), y = int_operand(L, n->b, b, op);
  switch (n->op) {
    case TK_LT: return lytI_bool(x < y);
    case TK_LE: return lytI_bool(x <= y);
    case TK_GT: return lytI_bool(x > y);
    default: return lytI_bool(x >= y);
  }
}

static lyt_value eval_binop(lyt_state *L, const lytP_node *n) {
  lyt_value a = eval(L, n->a), b = eval(L, n->b);
  if (n->op == TK_ARROW) return lytI_linear_literal(L, n->loc, &a, n->a->loc, &b, n->b->loc);
  if (n->op == TK_STAR && (a.kind == LYT_VLINEAR || b.kind == LYT_VLINEAR))
    return lytI_linear_mul(L, n->loc, &a, &b);
  switch (n->op) {
    case TK_EQ: case TK_NE: case TK_LT: case TK_LE: case TK_GT: case TK_GE:
      return compare(L, n, a, b);
    case TK_CARET: case TK_AMP: case TK_PIPE: case TK_SHL: case TK_SHR:
      return bitwise(L, n, a, b);
    default:
      return arith(L, n, a, b);
  }
}

static int truth(lyt_state *L, const lytP_node *n, lyt_value v) {
  if (v.kind != LYT_VBOOL)
    lytI_error(L, n->loc, LYT_ERRRUN, "condition must be true or false, got %s",
               lytI_kindname(v.kind));
  return (int)v.u.i;
}

static lyt_value eval_unop(lyt_state *L, const lytP_node *n) {
  lyt_value a = eval(L, n->a);
  if (n->op == TK_NOT) return lytI_bool(!truth(L, n->a, a));
  if (n->op == TK_TILDE) return lytI_int(~int_operand(L, n->a, a, "'~'"));
  int64_t x = int_operand(L, n->a, a, "'-'");
  if (x == INT64_MIN) lytI_error(L, n->loc, LYT_ERRRUN, "integer overflow in -(%lld)", (long long)x);
  return lytI_int(-x);
}

static lyt_value field_of(lyt_state *L, lyt_loc at, lyt_value r, const char *name) {
  for (int32_t i = 0; i < r.u.rec.n; i++)
    if (r.u.rec.name[i] == name) return r.u.rec.e[i];
  lytI_error(L, at, LYT_ERRRUN, "the record has no field '%s'", name);
}

/* R["name"]: the field's value; R[i]: the i-th field's name, as `for x in
** R` visits them (in_dims(L)[0] is "register"). */
static lyt_value record_field(lyt_state *L, const lytP_node *n, lyt_value r, lyt_value key) {
  if (key.kind == LYT_VINT) {
    if (key.u.i < 0 || key.u.i >= r.u.rec.n)
      lytI_error(L, n->b->loc, LYT_ERRRUN, "index %lld out of range for a record of %d fields",
                 (long long)key.u.i, (int)r.u.rec.n);
    lyt_value s = { .kind = LYT_VSTR };
    s.u.str.s = r.u.rec.name[key.u.i];
    s.u.str.len = (int32_t)strlen(s.u.str.s);
    return s;
  }
  if (key.kind != LYT_VSTR)
    lytI_error(L, n->b->loc, LYT_ERRRUN, "a record is indexed by a field name string or a "
               "position, got %s", lytI_kindname(key.kind));
  return field_of(L, n->b->loc, r, lytI_intern(L, key.u.str.s, (size_t)key.u.str.len));
}

static lyt_value eval_dot(lyt_state *L, const lytP_node *n) {
  lyt_value r = eval(L, n->a);
  if (r.kind != LYT_VRECORD)
    lytI_error(L, n->loc, LYT_ERRRUN, "'.%s' needs a record, got %s %s", n->str,
               lytI_article(r.kind), lytI_kindname(r.kind));
  return field_of(L, n->loc, r, n->str);
}

static lyt_value eval_index(lyt_state *L, const lytP_node *n) {
  lyt_value t = eval(L, n->a), i = eval(L, n->b);
  if (t.kind == LYT_VRECORD) return record_field(L, n, t, i);
  int64_t k = int_operand(L, n->b, i, "'[]'");
  if (t.kind == LYT_VLAYOUT) return lytI_layout_mode(L, &t, k, n->b->loc, n->loc);
  if (t.kind != LYT_VTUP && t.kind != LYT_VTILER)
    lytI_error(L, n->a->loc, LYT_ERRRUN, "cannot index %s %s", lytI_article(t.kind),
               lytI_kindname(t.kind));
  if (k < 0 || k >= t.u.tup.n)
    lytI_error(L, n->b->loc, LYT_ERRRUN, "index %lld out of range for a tuple of rank %d",
               (long long)k, (int)t.u.tup.n);
  return t.u.tup.e[k];
}

/* ---------------------------------------------------------------------
** Calls
** ------------------------------------------------------------------- */

typedef struct args {
  int n;
  lyt_value *v;
  lyt_loc *loc;
  const char **kw;   /* keyword name or NULL */
  int host;          /* from the C API, which has no names: all by position */
} args;

static args eval_args(lyt_state *L, const lytP_node *call) {
  args a;
  size_t k = (size_t)(call->n ? call->n : 1);
  a.host = 0;
  a.n = call->n;
  a.v = scratch(L, sizeof *a.v * k);
  a.loc = scratch(L, sizeof *a.loc * k);
  a.kw = scratch(L, sizeof *a.kw * k);
  int i = 0;
  for (const lytP_node *e = call->list; e; e = e->next, i++) {
    a.v[i] = eval(L, e->a);
    a.loc[i] = e->str ? e->loc : e->a->loc;
    a.kw[i] = e->str;
    if (!e->str && i > 0 && a.kw[i - 1])
      lytI_error(L, a.loc[i], LYT_ERRRUN, "positional argument after a keyword argument");
  }
  return a;
}

static int param_index(const char *const *names, int np, const char *kw) {
  for (int i = 0; i < np; i++)
    if (strcmp(names[i], kw) == 0) return i;
  return -1;
}

/* Match arguments to parameter slots: positionals first, then keywords. */
/* Arguments into parameter slots: positional ones first (at most npos),
** then by name. */
static void match(lyt_state *L, const char *fname, const char *const *names, int np, int npos,
                  const args *a, lyt_value *slot, lyt_loc *sloc, char *given, lyt_loc at) {
  for (int i = 0; i < np; i++) {
    slot[i] = lytI_nil();
    sloc[i] = at;
    given[i] = 0;
  }
  for (int i = 0; i < a->n; i++) {
    int k = i;
    if (a->kw[i]) {
      k = param_index(names, np, a->kw[i]);
      if (k < 0)
        lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() has no parameter named '%s'", fname, a->kw[i]);
      if (given[k])
        lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() got two values for '%s'", fname, a->kw[i]);
    } else if (i >= np) {
      lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() takes at most %d argument%s, got %d",
                 fname, np, np == 1 ? "" : "s", a->n);
    } else if (i >= npos) {
      lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() takes %d positional argument%s; give '%s' "
                 "by name: %s=...", fname, npos, npos == 1 ? "" : "s", names[i], names[i]);
    }
    slot[k] = a->v[i];
    sloc[k] = a->loc[i];
    given[k] = 1;
  }
}

static lyt_value call_builtin(lyt_state *L, const lytI_builtin *b, const args *a, lyt_loc at) {
  lytI_call c;
  memset(&c, 0, sizeof c);
  c.L = L;
  c.loc = at;
  c.self = b;
  if (b->npos == LYTI_VARIADIC) {
    for (int i = 0; i < a->n; i++)
      if (a->kw[i])
        lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() takes no keyword arguments", b->name);
    if (a->n < b->nreq)
      lytI_error(L, at, LYT_ERRRUN, "%s() needs at least %d argument%s, got %d", b->name,
                 b->nreq, b->nreq == 1 ? "" : "s", a->n);
    c.argc = c.nextra = a->n;
    c.argv = a->v;
    c.argloc = a->loc;
  } else {
    int np = 0;
    while (b->params[np]) np++;
    lyt_value *slot = scratch(L, sizeof *slot * (size_t)(np + 1));
    lyt_loc *sloc = scratch(L, sizeof *sloc * (size_t)(np + 1));
    char given[LYT_MAX_PARAMS + 1];
    match(L, b->name, b->params, np, b->npos && !a->host ? b->npos : np, a, slot, sloc, given, at);
    for (int i = 0; i < b->nreq; i++)
      if (!given[i])
        lytI_error(L, at, LYT_ERRRUN, "%s() missing argument '%s'", b->name, b->params[i]);
    c.argc = np;
    c.nextra = a->n;
    c.argv = slot;
    c.argloc = sloc;
  }
  L->errloc = at;
  return b->fn(&c);
}

static const char **param_names(lyt_state *L, const lytI_func *f) {
  const char **names = scratch(L, sizeof *names * (size_t)(f->nparams + 1));
  int i = 0;
  for (const lytP_node *p = f->params; p; p = p->next) names[i++] = p->str;
  return names;
}

/* The statements of a block, until a `return`, `break` or `continue`. */
static void run_block(lyt_state *L, const lytP_node *b) {
  for (const lytP_node *s = b->list; s && !(L->frame && L->frame->returned) && !L->loopctl; s = s->next)
    lytI_exec(L, s);
}

static lyt_value run_body(lyt_state *L, const lytP_node *body) {
  if (body->kind != N_BLOCK) return eval(L, body);
  run_block(L, body);
  return L->frame->returned ? L->frame->ret : lytI_nil();
}

static lyt_value call_user(lyt_state *L, const lytI_func *f, const args *a, lyt_loc at) {
  if (L->depth >= L->cfg.max_depth)
    lytI_error(L, at, LYT_ERRLIMIT, "call depth limit reached (%d nested calls)", L->cfg.max_depth);
  int np = f->nparams;
  lyt_value *slot = scratch(L, sizeof *slot * (size_t)(np + 1));
  lyt_loc *sloc = scratch(L, sizeof *sloc * (size_t)(np + 1));
  char *given = scratch(L, (size_t)np + 1);
  match(L, f->name, param_names(L, f), np, np, a, slot, sloc, given, at);
  int k = 0;
  for (const lytP_node *p = f->params; p; p = p->next, k++)
    if (!given[k] && !p->a)
      lytI_error(L, at, LYT_ERRRUN, "%s() missing argument '%s'", f->name, p->str);
  /* In the scratch arena, not on the C stack: an error reports the chain
  ** of call sites after the longjmp has unwound the C frames. */
  lytI_frame *fr = scratch(L, sizeof *fr), *up = L->frame;
  memset(fr, 0, sizeof *fr);
  fr->up = up;
  fr->fn = f;
  fr->at = at;
  L->frame = fr;
  lytI_table *mod = L->mod;
  L->mod = f->mod;
  L->depth++;
  int loops = L->loops;  /* a loop's break does not reach into the functions it calls */
  L->loops = 0;
  int i = 0;
  for (const lytP_node *p = f->params; p; p = p->next, i++) {
    set_local(L, p->str, given[i] ? slot[i] : eval(L, p->a));
  }
  lyt_value r = run_body(L, f->body);
  L->depth--;
  L->frame = up;
  L->mod = mod;
  L->loops = loops;
  return r;
}

/* Calling a value: functions here, any other kind through its row. */
static lyt_value apply(lyt_state *L, lyt_value f, const args *a, lyt_loc at, lyt_loc fnloc) {
  if (f.kind == LYT_VBUILTIN) return call_builtin(L, f.u.bi, a, at);
  if (f.kind == LYT_VFUNC) return call_user(L, f.u.fn, a, at);
  if (f.kind == LYT_VCFUNC) return lytI_call_cfunc(L, f.u.cf, a->n, a->v, a->kw, a->loc, at);
  const lytI_kind *k = &lytI_kinds[f.kind];
  if (!k->apply)
    lytI_error(L, fnloc, LYT_ERRRUN, "cannot call %s %s", lytI_article(f.kind), k->name);
  for (int i = 0; !k->apply_kw && i < a->n; i++)
    if (a->kw[i]) lytI_error(L, a->loc[i], LYT_ERRRUN, "a layout takes no keyword arguments");
  lyt_value *argv = scratch(L, sizeof *argv * (size_t)(a->n + 1));
  argv[0] = f;
  memcpy(argv + 1, a->v, sizeof *argv * (size_t)a->n);
  lyt_loc *locs = scratch(L, sizeof *locs * (size_t)(a->n + 1));
  locs[0] = fnloc;
  memcpy(locs + 1, a->loc, sizeof *locs * (size_t)a->n);
  lytI_call c;
  memset(&c, 0, sizeof c);
  c.L = L; c.loc = at; c.argc = c.nextra = a->n + 1; c.argv = argv; c.argloc = locs;
  c.kw = a->kw;
  L->errloc = at;
  return k->apply(&c);
}

lyt_value lytI_call_value(lyt_state *L, lyt_value f, int argc, lyt_value *argv,
                          const lyt_loc *argloc, lyt_loc loc) {
  args a;
  a.host = argloc == NULL;
  a.n = argc;
  a.v = argv;
  a.loc = (lyt_loc *)argloc;
  if (!a.loc) {  /* a call from the host: no source text to point at */
    a.loc = scratch(L, sizeof *a.loc * (size_t)(argc + 1));
    memset(a.loc, 0, sizeof *a.loc * (size_t)(argc + 1));
  }
  a.kw = scratch(L, sizeof *a.kw * (size_t)(argc + 1));
  memset(a.kw, 0, sizeof *a.kw * (size_t)(argc + 1));
  return apply(L, f, &a, loc, loc);
}

lyt_value lytI_eval_expr(lyt_state *L, const lytP_node *n) { return eval(L, n); }

lyt_value lytI_call_builtin(lyt_state *L, const char *name, int argc, lyt_value *argv,
                            const lyt_loc *argloc, lyt_loc loc) {
  for (size_t k = 0; lytI_libs[k]; k++)
    for (const lytI_builtin *b = lytI_libs[k]; b->name; b++)
      if (strcmp(b->name, name) == 0) {
        lyt_value f = { .kind = LYT_VBUILTIN };
        f.u.bi = b;
        return lytI_call_value(L, f, argc, argv, argloc, loc);
      }
  lytS_fail(&L->cx, LYT_ERRRUN, "no builtin '%s'", name);
}

/* An attribute written in the script: from_triton of it with the alias
** definitions so far, or from_iree of an IREE attribute. */
static lyt_value eval_attr(lyt_state *L, const lytP_node *n) {
  int iree = strncmp(n->str, "#iree", 5) == 0, k = 0;
  if (n->str[0] != '#' && strncmp(n->str, "tensor<", 7) != 0 && strncmp(n->str, "!ttg.", 5) != 0) {
    lyt_value arg = { .kind = LYT_VSTR };  /* CuTe C++ (Layout<...>{}, Sw<...> o ...) */
    arg.u.str.s = n->str;
    arg.u.str.len = n->len;
    return lytI_call_builtin(L, "from_cute", 1, &arg, &n->loc, n->loc);
  }
  lyt_value arg[2] = { { .kind = LYT_VSTR }, lytI_nil() };
  arg[0].u.str.s = n->str;
  arg[0].u.str.len = n->len;
  for (const struct lytI_alias *a = L->aliases; a; a = a->next) k++;
  if (k && !iree) {  /* aliases={name: text, ...} */
    arg[1].kind = LYT_VRECORD;
    arg[1].u.rec.n = k;
    arg[1].u.rec.name = scratch(L, sizeof *arg[1].u.rec.name * (size_t)k);
    arg[1].u.rec.e = scratch(L, sizeof *arg[1].u.rec.e * (size_t)k);
    k = 0;
    for (const struct lytI_alias *a = L->aliases; a; a = a->next, k++) {
      arg[1].u.rec.name[k] = a->name;
      arg[1].u.rec.e[k] = (lyt_value){ .kind = LYT_VSTR };
      arg[1].u.rec.e[k].u.str.s = a->text;
      arg[1].u.rec.e[k].u.str.len = (int32_t)strlen(a->text);
    }
  }
  lyt_loc locs[2] = { n->loc, n->loc };
  return lytI_call_builtin(L, iree ? "from_iree" : "from_triton", iree ? 1 : 2, arg, locs, n->loc);
}

/* "#name = #ttg.<...>": checked now, then read before every later attribute. */
static void exec_alias(lyt_state *L, const lytP_node *s) {
  if (strncmp(s->a->str, "#iree", 5) == 0)
    lytI_error(L, s->a->loc, LYT_ERRRUN, "an alias of an IREE attribute is not read here; "
               "bind it to a name instead (%s = %.*s)", s->str, (int)s->a->len, s->a->str);
  /* a memory space (#smem = #ttg.shared_memory) is no layout to check */
  if (strcmp(s->a->str, "#ttg.shared_memory") != 0 && strcmp(s->a->str, "#ttng.tensor_memory") != 0)
    eval_attr(L, s->a);
  struct lytI_alias **p = &L->aliases;
  while (*p && (*p)->name != s->str) p = &(*p)->next;
  if (!*p) {
    if (!(*p = lytA_alloc(&L->code, sizeof **p))) lytI_code_fail(L, s->loc);
    (*p)->name = s->str;
    (*p)->next = NULL;
  }
  (*p)->text = s->a->str;  /* redefined: its place in the order stays */
}

static lyt_value eval_call(lyt_state *L, const lytP_node *n) {
  lyt_value f = eval(L, n->a);
  args a = eval_args(L, n);
  return apply(L, f, &a, n->loc, n->a->loc);
}

/* ---------------------------------------------------------------------
** Expressions
** ------------------------------------------------------------------- */

static lyt_value eval(lyt_state *L, const lytP_node *n) {
  step(L, n);
  switch (n->kind) {
    case N_INT: return lytI_int(n->ival);
    case N_BOOL: return lytI_bool((int)n->ival);
    case N_NIL: return lytI_nil();
    case N_UNDER: return lytI_under();
    case N_STR: {
      lyt_value v = { .kind = LYT_VSTR };
      v.u.str.s = n->str;
      v.u.str.len = n->len;
      return v;
    }
    case N_NAME: return lookup(L, n);
    case N_PAREN: return literal_paren(n) ? eval_shape(L, n) : eval(L, n->a);
    case N_TUPLE: return tuple_of(L, n, LYT_VTUP);
    case N_TILER: return tuple_of(L, n, LYT_VTILER);
    case N_LAYOUT: return eval_layout(L, n);
    case N_BINOP: return eval_binop(L, n);
    case N_UNOP: return eval_unop(L, n);
    case N_AND: return lytI_bool(truth(L, n->a, eval(L, n->a)) && truth(L, n->b, eval(L, n->b)));
    case N_OR: return lytI_bool(truth(L, n->a, eval(L, n->a)) || truth(L, n->b, eval(L, n->b)));
    case N_IF: return truth(L, n->c, eval(L, n->c)) ? eval(L, n->a) : eval(L, n->b);
    case N_CALL: return eval_call(L, n);
    case N_INDEX: return eval_index(L, n);
    case N_RECORD: return eval_record(L, n);
    case N_DOT: return eval_dot(L, n);
    case N_AXIS: return eval_axis(L, n);
    case N_BASIS: return eval_basis(L, n);
    case N_ATTR: return eval_attr(L, n);
    default: lytI_error(L, n->loc, LYT_ERRRUN, "internal error: not an expression");
  }
}

/* ---------------------------------------------------------------------
** Statements
** ------------------------------------------------------------------- */

static void write(lyt_state *L, const char *s, size_t n) {
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, s, n);
}

static void exec_print(lyt_state *L, const lytP_node *s) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  for (const lytP_node *e = s->list; e; e = e->next) {
    lyt_value v = eval(L, e);
    if (e != s->list) lytS_buf_add(&b, " ", 1);
    if (v.kind == LYT_VSTR) lytS_buf_add(&b, v.u.str.s, (size_t)v.u.str.len);
    else lytI_print_value(&b, &v);
  }
  lytS_buf_add(&b, "\n", 1);
  write(L, b.p, b.n);
}

static void exec_fndef(lyt_state *L, const lytP_node *s) {
  for (const lytP_node *p = s->list; p; p = p->next)  /* names are interned */
    for (const lytP_node *q = s->list; q != p; q = q->next)
      if (q->str == p->str)
        lytI_error(L, p->loc, LYT_ERRRUN, "%s(): parameter '%s' appears twice", s->str, p->str);
  lytI_func *f = lytA_alloc(&L->code, sizeof *f);
  if (!f) lytI_code_fail(L, s->loc);
  f->name = s->str;
  f->mod = L->mod;
  f->params = s->list;
  f->nparams = s->n;
  f->body = s->a;
  f->loc = s->loc;
  lyt_value v = { .kind = LYT_VFUNC };
  v.u.fn = f;
  bind(L, s->str, v);
}

/* One pass of a loop's body; 0 when the loop ends there (a `break`, or a
** `return` of the function it is in). At the top level each pass gives
** back the scratch memory it used (what it bound is copied out): a long
** loop costs what one pass does. */
static int loop_pass(lyt_state *L, const lytP_node *body) {
  lytA_mark m = lytA_getmark(&L->scratch);
  run_block(L, body);
  if (!L->frame) lytA_release(&L->scratch, m);
  int go = L->loopctl != 1 && !(L->frame && L->frame->returned);
  L->loopctl = 0;
  return go;
}

/* for NAME in EXPR { ... }: the elements of a tuple or tiler, or the field
** names of a record (in_dims(L), out_dims(L)), bound to NAME in the
** current scope (a global at the top level, a local in a function). */
static void exec_for(lyt_state *L, const lytP_node *s) {
  lyt_value t = eval(L, s->a);
  int rec = t.kind == LYT_VRECORD;
  if (t.kind != LYT_VTUP && t.kind != LYT_VTILER && !rec)
    lytI_error(L, s->a->loc, LYT_ERRRUN, "for: cannot loop over %s %s (a tuple, tiler or record)",
               lytI_article(t.kind), lytI_kindname(t.kind));
  int32_t n = rec ? t.u.rec.n : t.u.tup.n;
  L->loops++;
  for (int32_t i = 0; i < n; i++) {
    lyt_value x = { .kind = LYT_VSTR };
    if (rec) x.u.str.s = t.u.rec.name[i], x.u.str.len = (int32_t)strlen(t.u.rec.name[i]);
    else x = t.u.tup.e[i];
    step(L, s);
    bind(L, s->str, x);
    if (!loop_pass(L, s->b)) break;
  }
  L->loops--;
}

static void exec_while(lyt_state *L, const lytP_node *s) {
  L->loops++;
  while (truth(L, s->a, eval(L, s->a)) && loop_pass(L, s->b)) {}
  L->loops--;
}

static void exec_if(lyt_state *L, const lytP_node *s) {
  if (truth(L, s->a, eval(L, s->a))) run_block(L, s->b);
  else if (s->c && s->c->kind == N_BLOCK) run_block(L, s->c);
  else if (s->c) lytI_exec(L, s->c);
}

void lytI_exec(lyt_state *L, const lytP_node *s) {
  switch (s->kind) {
    case N_FOR: exec_for(L, s); break;
    case N_WHILE: exec_while(L, s); break;
    case N_IFSTMT: exec_if(L, s); break;
    case N_BREAK: case N_CONTINUE:
      if (!L->loops)
        lytI_error(L, s->loc, LYT_ERRRUN, "'%s' outside a loop", s->kind == N_BREAK ? "break" : "continue");
      L->loopctl = s->kind == N_BREAK ? 1 : 2;
      break;
    case N_ASSIGN: bind(L, s->str, eval(L, s->a)); break;
    case N_PRINT: exec_print(L, s); break;
    case N_SHOW: { lyt_value v = eval(L, s->a); lytI_show(L, &v, s->a->loc); break; }
    case N_FNDEF: exec_fndef(L, s); break;
    case N_IMPORT: lytI_do_import(L, s); break;
    case N_ALIASDEF: exec_alias(L, s); break;
    case N_RETURN:
      if (!L->frame) lytI_error(L, s->loc, LYT_ERRRUN, "'return' outside a function");
      L->frame->ret = eval(L, s->a);
      L->frame->returned = 1;
      break;
    default: {
      lyt_value v = eval(L, s->a);
      if (L->echo && !L->frame && v.kind != LYT_VNIL) {
        lytS_buf b;
        lytS_buf_init(&b, &L->cx);
        lytI_print_value(&b, &v);
        lytS_buf_add(&b, "\n", 1);
        write(L, b.p, b.n);
      }
    }
  }
}
