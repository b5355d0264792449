/*
** eval/eval.c: the evaluator. Code (eval/code.h, compiled by
** eval/compile.c) runs in one loop over activation records kept in the
** scratch arena: calling a lyt function pushes one and jumps, returning
** pops it, so recursion does not grow the C stack (a builtin that calls
** back into lyt, such as picture(f), runs a loop of its own).
**
** Each top-level statement runs with a fresh scratch arena mark; when it
** ends, everything it allocated is released, after the values bound to
** global names have been copied into the persistent arena. Errors leave
** through lytI_error (a longjmp to the protected entry in eval/api.c), which
** is safe because every allocation belongs to an arena.
**
** `(x)` is grouping, except where CuTe notation is being written: around
** a literal (`(3)`, `((2,3))`), on either side of `:` and inside a tuple
** literal, it is the rank-1 tuple CuTe prints as `(3)` (OP_WRAP1).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/image.h"
#include "lang/parse.h"
#include "parser.h"
#include "interp/eval/code.h"
#include "interp/eval/kind.h"
#include "interp/eval/state.h"

void lytI_error(lyt_state *L, lyt_loc loc, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  L->errloc = loc;
  lytS_vfail(&L->cx, code, fmt, ap);
}

static void *scratch(lyt_state *L, size_t n) {
  return lytS_alloc(&L->cx, n);
}

/* step's errors, out of the way of the instructions that pass */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static void step_fails(lyt_state *L, const lytP_node *n) {
  lytS_check_stack(&L->cx);  /* a located error, not a host's stack overflow */
  if (atomic_load_explicit(&L->interrupted, memory_order_relaxed)) {
    atomic_store_explicit(&L->interrupted, 0, memory_order_relaxed);
    lytI_error(L, n->loc, LYT_ERRLIMIT, "interrupted");
  }
  if (L->steps > L->cfg.max_steps)
    lytI_error(L, n->loc, LYT_ERRLIMIT,
               "evaluation step limit reached (%lld steps in one statement)",
               (long long)L->cfg.max_steps);
}

/* Every evaluation counts against max_steps, may be interrupted, and is
** where an error from a core that knows no location points. */
static inline void step(lyt_state *L, const lytP_node *n) {
  L->errloc = n->loc;
  if (lytS_stack_deep(&L->cx) | atomic_load_explicit(&L->interrupted, memory_order_relaxed) |
      (++L->steps > L->cfg.max_steps))
    step_fails(L, n);
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
  if (!v && L->frame && L->frame->fn->inner)
    lytI_error(L, n->loc, LYT_ERRRUN, "unknown name '%s' (a function made inside another sees "
               "its own parameters and locals and its module's globals, not the locals around "
               "it: pass what it needs as an argument)", n->str);
  if (!v) lytI_error(L, n->loc, LYT_ERRRUN, "unknown name '%s'", n->str);
  return *v;
}

/* ---------------------------------------------------------------------
** Literals
** ------------------------------------------------------------------- */

static lyt_value literal(const lytP_node *n) {
  switch (n->kind) {
    case N_INT: return lytI_int(n->ival);
    case N_BOOL: return lytI_bool((int)n->ival);
    case N_UNDER: return lytI_under();
    case N_STR: {
      lyt_value v = { .kind = LYT_VSTR };
      v.u.str.s = n->str;
      v.u.str.len = n->len;
      return v;
    }
    default: return lytI_nil();
  }
}

/* A tuple of integers, `_` and such tuples as written (OP_INTTUPLE). */
static lyt_value int_tuple(lyt_state *L, const lytP_node *n) {
  lytS_check_stack(&L->cx);
  lyt_value t = { .kind = LYT_VTUP };
  t.u.tup.n = n->n;
  t.u.tup.e = scratch(L, sizeof(lyt_value) * (size_t)(n->n ? n->n : 1));
  int32_t i = 0;
  for (const lytP_node *e = n->list; e; e = e->next)
    t.u.tup.e[i++] = e->kind == N_TUPLE ? int_tuple(L, e) : literal(e);
  return t;
}

/* Such a tuple, or an integer, straight as the algebra's tuple: the sides
** of OP_INTLAYOUT, made without the values int_tuple would make. */
static lytS_tup *int_tup(lyt_state *L, const lytP_node *n) {
  if (n->kind == N_INT) return lytS_int(&L->cx, n->ival);
  if (n->kind == N_UNDER) return lytS_under(&L->cx);
  if (n->tup) return (lytS_tup *)n->tup;  /* made as the text was read: tuples are immutable */
  lytS_check_stack(&L->cx);
  lytS_tup *t = lytS_newtup(&L->cx, n->n);
  int32_t i = 0;
  for (const lytP_node *e = n->list; e; e = e->next)  /* most are integers: no call for them */
    t->e[i++] = e->kind == N_INT ? lytS_int(&L->cx, e->ival) : int_tup(L, e);
  return t;
}

/* Both sides of OP_INTLAYOUT made in one walk, which checks what
** make_layout would: 1 when every extent is a positive integer with an
** integer stride beside it, nested alike. 0 when not (or not known: the
** parser made one side already), and make_layout then says why. */
static int int_sides(lyt_state *L, const lytP_node *a, const lytP_node *b, lytS_tup **s,
                     lytS_tup **d) {
  if (a->kind != N_TUPLE || b->kind != N_TUPLE || a->n != b->n || a->tup || b->tup) {
    *s = int_tup(L, a), *d = int_tup(L, b);
    return a->kind == N_INT && a->ival > 0 && b->kind == N_INT;
  }
  lytS_check_stack(&L->cx);
  lytS_tup *ts = lytS_newtup(&L->cx, a->n), *td = lytS_newtup(&L->cx, b->n);
  int ok = 1, i = 0;
  for (const lytP_node *x = a->list, *y = b->list; x; x = x->next, y = y->next, i++) {
    if (x->kind == N_INT && y->kind == N_INT) {  /* most are: no call for them */
      ts->e[i] = lytS_int(&L->cx, x->ival), td->e[i] = lytS_int(&L->cx, y->ival);
      ok &= x->ival > 0;
    } else {
      ok &= int_sides(L, x, y, &ts->e[i], &td->e[i]);
    }
  }
  *s = ts, *d = td;
  return ok;
}

/* The top n values of the stack as a tuple (or tiler) of kind. */
static lyt_value tuple_of(lyt_state *L, const lyt_value *e, int32_t n, int kind) {
  lyt_value t = { .kind = (lyt_vkind)kind };
  t.u.tup.n = n;
  t.u.tup.e = scratch(L, sizeof(lyt_value) * (size_t)(n ? n : 1));
  memcpy(t.u.tup.e, e, sizeof(lyt_value) * (size_t)n);
  return t;
}

static lyt_value record_of(lyt_state *L, const lytP_node *n, const lyt_value *e) {
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
    r.u.rec.e[i] = e[i];
  }
  return r;
}

static lytS_tup *to_tup(lyt_state *L, const lytP_node *n, lyt_value v, const char *what) {
  const char *why = NULL;
  lytS_tup *t = lytI_val2tup(&L->cx, &v, &why);
  if (!t)
    lytI_error(L, n->loc, LYT_ERRRUN, "%s of a layout must be an integer or a tuple of integers (%s)",
               what, why);
  return t;
}

static lyt_value eval_axis(lyt_state *L, const lytP_node *n, lyt_value x) {
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
static lyt_value eval_basis(lyt_state *L, const lytP_node *n, lyt_value x) {
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

static lyt_value eval_layout(lyt_state *L, const lytP_node *n, lyt_value sv, lyt_value dv) {
  if (has_axis(&dv) || has_axis(&sv)) return lytI_iters(L, n->loc, &sv, &dv);
  lytS_tup *shape = to_tup(L, n->a, sv, "the shape");
  lytS_tup *stride = to_tup(L, n->b, dv, "the stride");
  L->errloc = n->loc;
  lyt_value v;
  lytI_layout_literal(L, shape, stride, 0, &v);
  return v;
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

static lyt_value eval_binop(lyt_state *L, const lytP_node *n, lyt_value a, lyt_value b) {
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

static lyt_value eval_unop(lyt_state *L, const lytP_node *n, lyt_value a) {
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
static lyt_value name_value(const char *name) {
  lyt_value s = { .kind = LYT_VSTR };
  s.u.str.s = name;
  s.u.str.len = (int32_t)strlen(name);
  return s;
}

static lyt_value record_field(lyt_state *L, const lytP_node *n, lyt_value r, lyt_value key) {
  if (key.kind == LYT_VINT) {
    if (key.u.i < 0 || key.u.i >= r.u.rec.n)
      lytI_error(L, n->b->loc, LYT_ERRRUN, "index %lld out of range for a record of %d fields",
                 (long long)key.u.i, (int)r.u.rec.n);
    return name_value(r.u.rec.name[key.u.i]);
  }
  if (key.kind != LYT_VSTR)
    lytI_error(L, n->b->loc, LYT_ERRRUN, "a record is indexed by a field name string or a "
               "position, got %s", lytI_kindname(key.kind));
  return field_of(L, n->b->loc, r, lytI_intern(L, key.u.str.s, (size_t)key.u.str.len));
}

static lyt_value eval_dot(lyt_state *L, const lytP_node *n, lyt_value r) {
  if (r.kind != LYT_VRECORD)
    lytI_error(L, n->loc, LYT_ERRRUN, "'.%s' needs a record, got %s %s", n->str,
               lytI_article(r.kind), lytI_kindname(r.kind));
  return field_of(L, n->loc, r, n->str);
}

static lyt_value eval_index(lyt_state *L, const lytP_node *n, lyt_value t, lyt_value i) {
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
  const char **kw;   /* keyword name or NULL; kw itself NULL when none has one */
  int nkw;           /* how many have one */
  int host;          /* from the C API, which has no names: all by position */
} args;

/* The arguments of a call, their values v[] where they are on the stack:
** nothing above them is pushed until the call returns (a lyt function,
** called or calling back, runs on a stack of its own). */
static args call_args(lyt_state *L, const lytP_node *call, lyt_value *v) {
  args a;
  size_t k = (size_t)(call->n ? call->n : 1);
  a.host = 0;
  a.n = call->n;
  a.v = v;
  a.loc = scratch(L, sizeof *a.loc * k);
  a.kw = NULL;
  a.nkw = 0;
  int i = 0;
  for (const lytP_node *e = call->list; e; e = e->next, i++) {
    a.loc[i] = e->str ? e->loc : e->a->loc;
    if (e->str) {
      if (!a.kw) {
        a.kw = scratch(L, sizeof *a.kw * k);
        memset(a.kw, 0, sizeof *a.kw * k);
      }
      a.kw[i] = e->str;
      a.nkw++;
    } else if (a.nkw) {
      lytI_error(L, a.loc[i], LYT_ERRRUN, "positional argument after a keyword argument");
    }
  }
  return a;
}

static int param_index(const char *const *names, int np, const char *kw) {
  for (int i = 0; i < np; i++)
    if (strcmp(names[i], kw) == 0) return i;
  return -1;
}

/* match's general case: names to look up, and the errors of a call. */
static void match_named(lyt_state *L, const char *fname, const char *const *names, int np,
                        int npos, const args *a, lyt_value *slot, lyt_loc *sloc, char *given,
                        lyt_loc at) {
  for (int i = 0; i < np; i++) {
    slot[i] = lytI_nil();
    sloc[i] = at;
    given[i] = 0;
  }
  for (int i = 0; i < a->n; i++) {
    int k = i;
    const char *kw = a->kw ? a->kw[i] : NULL;
    if (kw) {
      k = param_index(names, np, kw);
      if (k < 0)
        lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() has no parameter named '%s'", fname, kw);
      if (given[k])
        lytI_error(L, a->loc[i], LYT_ERRRUN, "%s() got two values for '%s'", fname, kw);
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

/* Arguments into parameter slots: positional ones first (at most npos),
** then by name. Inline for the call that gives them all by position, as
** most calls do. */
static inline void match(lyt_state *L, const char *fname, const char *const *names, int np,
                         int npos, const args *a, lyt_value *slot, lyt_loc *sloc, char *given,
                         lyt_loc at) {
  if (a->nkw || a->n > npos) {
    match_named(L, fname, names, np, npos, a, slot, sloc, given, at);
    return;
  }
  for (int i = 0; i < np; i++) {
    int g = i < a->n;
    slot[i] = g ? a->v[i] : lytI_nil();
    sloc[i] = g ? a->loc[i] : at;
    given[i] = (char)g;
  }
}

static lyt_value call_builtin(lyt_state *L, const lytI_builtin *b, const args *a, lyt_loc at) {
  lytI_call c;
  memset(&c, 0, sizeof c);
  c.L = L;
  c.loc = at;
  c.self = b;
  if (b->npos == LYTI_VARIADIC) {
    for (int i = 0; a->nkw && i < a->n; i++)
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
    int npos = b->npos && !a->host ? b->npos : np;
    c.argc = np;
    c.nextra = a->n;
    if (!a->nkw && a->n == np && np <= npos) {  /* each parameter by position: as they are */
      c.argv = a->v;
      c.argloc = a->loc;
    } else {
      lyt_value *slot = scratch(L, sizeof *slot * (size_t)(np + 1));
      lyt_loc *sloc = scratch(L, sizeof *sloc * (size_t)(np + 1));
      char given[LYT_MAX_PARAMS + 1];
      match(L, b->name, b->params, np, npos, a, slot, sloc, given, at);
      for (int i = 0; i < b->nreq; i++)
        if (!given[i])
          lytI_error(L, at, LYT_ERRRUN, "%s() missing argument '%s'", b->name, b->params[i]);
      c.argv = slot;
      c.argloc = sloc;
    }
  }
  L->errloc = at;
  return b->fn(&c);
}

/* ---------------------------------------------------------------------
** Activation records
** ------------------------------------------------------------------- */

/* One piece of code running: a call of a lyt function, or top-level code. */
typedef struct act {
  struct act *up;           /* the code that called it; NULL: run() returns to C */
  const lytC_code *code;
  int32_t pc, sp;
  lyt_value *stk;           /* its operand stack */
  lytA_mark *marks;         /* its loops' scratch marks (top-level code) */
  lytI_frame *frame;        /* the call it runs (what errors report); NULL: top level */
  lytI_table *mod;          /* the caller's module, given back on return */
  const lyt_value *slot;    /* the call's arguments by parameter, and which were given */
  const char *given;
} act;

/* The activation, its operand stack and its loops' marks in one block. */
static act *new_act(lyt_state *L, const lytC_code *c, lytI_frame *fr, act *up) {
  size_t stk = sizeof(lyt_value) * (size_t)c->maxstack;
  act *a = scratch(L, sizeof *a + stk + sizeof(lytA_mark) * (size_t)c->nloops);
  *a = (act){ .up = up, .code = c, .frame = fr };
  a->stk = (lyt_value *)(a + 1);
  a->marks = (lytA_mark *)((char *)a->stk + stk);
  return a;
}

/* A call of lyt function f: its frame and activation (in the scratch
** arena, not on the C stack: an error reports the chain of call sites
** after the longjmp). The parameters are bound by the code's prologue. */
static act *enter(lyt_state *L, const lytI_func *f, const args *x, lyt_loc at, act *up) {
  if (L->depth >= L->cfg.max_depth)
    lytI_error(L, at, LYT_ERRLIMIT, "call depth limit reached (%d nested calls)", L->cfg.max_depth);
  int np = f->nparams;
  lyt_value *slot = scratch(L, sizeof *slot * (size_t)(np + 1));
  lyt_loc *sloc = scratch(L, sizeof *sloc * (size_t)(np + 1));
  char *given = scratch(L, (size_t)np + 1);
  match(L, f->name, f->pnames, np, np, x, slot, sloc, given, at);
  int k = 0;
  for (const lytP_node *p = f->params; p; p = p->next, k++)
    if (!given[k] && !p->a)
      lytI_error(L, at, LYT_ERRRUN, "%s() missing argument '%s'", f->name, p->str);
  /* compiled at its first call: a library defines hundreds of functions
  ** and a script calls a few */
  if (!f->code)
    ((lytI_func *)f)->code = lytC_function(&L->cx, &L->code, lytP_body(f->def), &L->errloc);
  lytI_frame *fr = scratch(L, sizeof *fr);
  memset(fr, 0, sizeof *fr);
  fr->up = L->frame;
  fr->fn = f;
  fr->at = at;
  act *a = new_act(L, f->code, fr, up);
  a->mod = L->mod;
  a->slot = slot;
  a->given = given;
  L->frame = fr;
  L->mod = f->mod;
  L->depth++;
  return a;
}

static void leave(lyt_state *L, const act *a) {
  if (!a->frame) return;
  L->frame = a->frame->up;
  L->mod = a->mod;
  L->depth--;
}

static lyt_value run(lyt_state *L, act *a);

/* A lyt function called from C (a builtin, the host): a loop of its own. */
static lyt_value call_user(lyt_state *L, const lytI_func *f, const args *x, lyt_loc at) {
  if (lytS_stack_deep(&L->cx)) {
    L->errloc = at;
    lytS_check_stack(&L->cx);
  }
  return run(L, enter(L, f, x, at, NULL));
}

/* Calling a value: functions here, any other kind through its row. */
/* f by address: a value passed whole is copied with loads that read back
** what was just written piecewise (stride/layout.h). */
static lyt_value apply(lyt_state *L, const lyt_value *f, const args *a, lyt_loc at,
                       lyt_loc fnloc) {
  if (f->kind == LYT_VBUILTIN) return call_builtin(L, f->u.bi, a, at);
  if (f->kind == LYT_VFUNC) return call_user(L, f->u.fn, a, at);
  if (f->kind == LYT_VCFUNC) return lytI_call_cfunc(L, f->u.cf, a->n, a->v, a->kw, a->loc, at);
  const lytI_kind *k = &lytI_kinds[f->kind];
  if (!k->apply)
    lytI_error(L, fnloc, LYT_ERRRUN, "cannot call %s %s", lytI_article(f->kind), k->name);
  for (int i = 0; !k->apply_kw && a->nkw && i < a->n; i++)
    if (a->kw[i]) lytI_error(L, a->loc[i], LYT_ERRRUN, "a layout takes no keyword arguments");
  lyt_value *argv = scratch(L, sizeof *argv * (size_t)(a->n + 1));
  argv[0] = *f;
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
  a.kw = NULL;
  a.nkw = 0;
  return apply(L, &f, &a, loc, loc);
}

/* The value of expression n (lyt_eval): code of its own, run now. */
lyt_value lytI_eval_expr(lyt_state *L, const lytP_node *n) {
  const lytC_code *c = lytC_statement(&L->cx, &L->scratch, n, 1, &L->errloc);
  return run(L, new_act(L, c, NULL, NULL));
}

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

/* ---------------------------------------------------------------------
** Statements
** ------------------------------------------------------------------- */

static void write(lyt_state *L, const char *s, size_t n) {
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, s, n);
}

static void exec_print(lyt_state *L, const lyt_value *v, int32_t n) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  for (int32_t i = 0; i < n; i++) {
    if (i) lytS_buf_putc(&b, ' ');
    if (v[i].kind == LYT_VSTR) lytS_buf_add(&b, v[i].u.str.s, (size_t)v[i].u.str.len);
    else lytI_print_value(&b, &v[i]);
  }
  lytS_buf_putc(&b, '\n');
  write(L, b.p, b.n);
}

static void echo(lyt_state *L, lyt_value v) {
  if (!L->echo || L->frame || v.kind == LYT_VNIL) return;
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_print_value(&b, &v);
  lytS_buf_putc(&b, '\n');
  write(L, b.p, b.n);
}

/* The function a definition or a function expression makes: made once per
** node (and module), so a loop or a call that runs the definition again
** costs nothing and its functions compare equal. */
static lyt_value func_value(lyt_state *L, const lytP_node *s) {
  lyt_value v = { .kind = LYT_VFUNC };
  const lytI_func *made = s->fn;
  if (made && made->mod == L->mod) {
    v.u.fn = made;
    return v;
  }
  const char *name = s->str ? s->str : "fn";
  for (const lytP_node *p = s->list; p; p = p->next)  /* names are interned */
    for (const lytP_node *q = s->list; q != p; q = q->next)
      if (q->str == p->str)
        lytI_error(L, p->loc, LYT_ERRRUN, "%s(): parameter '%s' appears twice", name, p->str);
  lytI_func *f = lytA_alloc(&L->code, sizeof *f);
  const char **names = lytA_alloc(&L->code, sizeof *names * (size_t)(s->n + 1));
  if (!f || !names) lytI_code_fail(L, s->loc);
  int32_t i = 0;
  for (const lytP_node *p = s->list; p; p = p->next) names[i++] = p->str;
  *f = (lytI_func){ name, L->mod, s, s->list, s->n, names, made ? made->code : NULL, s->loc,
                    L->frame != NULL };
  if (!made) ((lytP_node *)s)->fn = f;
  v.u.fn = f;
  return v;
}

/* for NAME in EXPR: the elements of a tuple or tiler, or the field names
** of a record (in_dims(L), out_dims(L)), bound to NAME in the current
** scope (a global at the top level, a local in a function). */
static void check_iterable(lyt_state *L, const lytP_node *s, const lyt_value *t) {
  if (t->kind != LYT_VTUP && t->kind != LYT_VTILER && t->kind != LYT_VRECORD)
    lytI_error(L, s->a->loc, LYT_ERRRUN, "for: cannot loop over %s %s (a tuple, tiler or record)",
               lytI_article(t->kind), lytI_kindname(t->kind));
}

/* Element i of what a for loops over; 0 past the end. */
static int element(const lyt_value *t, int64_t i, lyt_value *x) {
  if (t->kind == LYT_VRECORD) {
    if (i >= t->u.rec.n) return 0;
    *x = name_value(t->u.rec.name[i]);
    return 1;
  }
  if (i >= t->u.tup.n) return 0;
  *x = t->u.tup.e[i];
  return 1;
}

/* ---------------------------------------------------------------------
** The loop
** ------------------------------------------------------------------- */

#define PUSH(x) (a->stk[a->sp] = (x), a->sp++)
#define POP() (a->stk[--a->sp])
#define TOP (a->stk[a->sp - 1])

/* Runs activation a, and the calls it makes, until a returns. A pass of a
** top-level loop gives back the scratch memory it used (what it bound is
** copied out): a long loop costs what one pass does. */
static lyt_value run(lyt_state *L, act *a) {
  for (;;) {
    const lytC_ins *I = &a->code->v[a->pc++];
    const lytP_node *n = I->n;
    lyt_value v;
    switch ((lytC_op)I->op) {
      case OP_CONST: step(L, n); PUSH(literal(n)); break;
      case OP_NIL: PUSH(lytI_nil()); break;
      case OP_NAME: step(L, n); PUSH(lookup(L, n)); break;
      case OP_WRAP1: TOP = tuple_of(L, &TOP, 1, LYT_VTUP); break;
      case OP_INTTUPLE: step(L, n); PUSH(int_tuple(L, n)); break;
      case OP_INTLAYOUT: {
        step(L, n);  /* errloc: the layout, where its checks point */
        lytS_tup *shape, *stride;
        int checked = int_sides(L, n->a, n->b, &shape, &stride);
        lytI_layout_literal(L, shape, stride, checked, &a->stk[a->sp++]);
        break;
      }
      case OP_TUPLE:
        step(L, n);
        a->sp -= I->a;
        PUSH(tuple_of(L, a->stk + a->sp, I->a, I->b));
        break;
      case OP_LAYOUT:
        step(L, n);
        a->sp -= 2;
        PUSH(eval_layout(L, n, a->stk[a->sp], a->stk[a->sp + 1]));
        break;
      case OP_BINOP:
        step(L, n);
        a->sp -= 2;
        PUSH(eval_binop(L, n, a->stk[a->sp], a->stk[a->sp + 1]));
        break;
      case OP_UNOP: step(L, n); TOP = eval_unop(L, n, TOP); break;
      case OP_AND: case OP_OR:
        v = POP();
        if (truth(L, n, v) == (I->op == OP_OR)) {
          PUSH(v);
          a->pc = I->a;
        }
        break;
      case OP_TOBOOL: TOP = lytI_bool(truth(L, n, TOP)); break;
      case OP_JF:
        v = POP();
        if (!truth(L, n, v)) a->pc = I->a;
        break;
      case OP_JMP: a->pc = I->a; break;
      case OP_CALL: {
        step(L, n);
        a->sp -= I->a + 1;
        const lyt_value *f = &a->stk[a->sp];  /* the result takes its place */
        args x = call_args(L, n, a->stk + a->sp + 1);
        if (f->kind == LYT_VFUNC) a = enter(L, f->u.fn, &x, n->loc, a);
        else PUSH(apply(L, f, &x, n->loc, n->a->loc));
        break;
      }
      case OP_INDEX:
        step(L, n);
        a->sp -= 2;
        PUSH(eval_index(L, n, a->stk[a->sp], a->stk[a->sp + 1]));
        break;
      case OP_RECORD:
        step(L, n);
        a->sp -= I->a;
        PUSH(record_of(L, n, a->stk + a->sp));
        break;
      case OP_DOT: step(L, n); TOP = eval_dot(L, n, TOP); break;
      case OP_AXIS: step(L, n); TOP = eval_axis(L, n, TOP); break;
      case OP_BASIS: step(L, n); TOP = eval_basis(L, n, TOP); break;
      case OP_ATTR: step(L, n); PUSH(eval_attr(L, n)); break;
      case OP_BIND: v = POP(); bind(L, n->str, v); break;
      case OP_PRINT: a->sp -= I->a; exec_print(L, a->stk + a->sp, I->a); break;
      case OP_SHOW: v = POP(); lytI_show(L, &v, n->a->loc); break;
      case OP_FNDEF: bind(L, n->str, func_value(L, n)); break;
      case OP_FUNC: PUSH(func_value(L, n)); break;
      case OP_IMPORT: lytI_do_import(L, n); break;
      case OP_ALIAS: exec_alias(L, n); break;
      case OP_EXPR: echo(L, POP()); break;
      case OP_RETURN:
        if (!I->a && !a->frame) lytI_error(L, n->loc, LYT_ERRRUN, "'return' outside a function");
        v = POP();
        goto ret;
      case OP_RETNIL:
        v = lytI_nil();
      ret:
        leave(L, a);
        if (!a->up) return v;
        a = a->up;
        PUSH(v);
        break;
      case OP_ITER: check_iterable(L, n, &TOP); PUSH(lytI_int(0)); break;
      case OP_NEXT:
        if (!element(&a->stk[a->sp - 2], TOP.u.i, &v)) {
          a->sp -= 2;
          a->pc = I->a;
          break;
        }
        step(L, n);
        TOP.u.i++;
        bind(L, n->str, v);
        break;
      case OP_MARK: if (!a->frame) a->marks[I->a] = lytA_getmark(&L->scratch); break;
      case OP_RELEASE: if (!a->frame) lytA_release(&L->scratch, a->marks[I->a]); break;
      case OP_POP: a->sp -= I->a; break;
      case OP_PARAM:
        if (!a->given[I->a]) break;
        set_local(L, n->str, a->slot[I->a]);
        a->pc = I->b;
        break;
      case OP_SETPARAM: v = POP(); set_local(L, n->str, v); break;
      case OP_BADLOOP:
        lytI_error(L, n->loc, LYT_ERRRUN, "'%s' outside a loop", n->kind == N_BREAK ? "break" : "continue");
    }
  }
}

void lytI_exec(lyt_state *L, const lytP_node *s, const lytC_code *code) {
  if (!code) code = lytC_statement(&L->cx, &L->scratch, s, 0, &L->errloc);
  run(L, new_act(L, code, NULL, NULL));
}
