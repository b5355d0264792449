/*
** value.c: building, converting, copying, comparing and printing
** interpreter values, and the argument helpers builtins use.
*/
#include <stdio.h>
#include <string.h>

#include "interp/axe/axe.h"
#include "interp/nested/nested.h"
#include "backends/kernel.h"
#include "interp/axisinfo/axisinfo.h"
#include "interp/linear/linear.h"
#include "interp/state.h"

lyt_value lytI_int(int64_t i) { lyt_value v = { .kind = LYT_VINT }; v.u.i = i; return v; }
lyt_value lytI_bool(int b) { lyt_value v = { .kind = LYT_VBOOL }; v.u.i = b != 0; return v; }
lyt_value lytI_nil(void) { lyt_value v = { .kind = LYT_VNIL }; return v; }
lyt_value lytI_under(void) { lyt_value v = { .kind = LYT_VUNDER }; return v; }
lyt_value lytI_layout(lytS_layout l) { lyt_value v = { .kind = LYT_VLAYOUT }; v.u.lay = l; return v; }

lyt_value lytI_str(lytI_call *c, const char *s) {
  size_t n = strlen(s);
  char *p = lytS_alloc(lytI_cx(c), n + 1);
  memcpy(p, s, n + 1);
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = p;
  v.u.str.len = (int64_t)n;
  return v;
}

lyt_value lytI_tuple(lytI_call *c, int32_t n) {
  lyt_value v = { .kind = LYT_VTUP };
  v.u.tup.n = n;
  v.u.tup.e = lytS_alloc(lytI_cx(c), sizeof(lyt_value) * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) v.u.tup.e[i] = lytI_nil();
  return v;
}

lyt_value lytI_ints_val(lytI_call *c, const int64_t *v, int32_t n) {
  lyt_value t = lytI_tuple(c, n);
  for (int32_t i = 0; i < n; i++) t.u.tup.e[i] = lytI_int(v[i]);
  return t;
}

lyt_value lytI_record(lytI_call *c, int32_t n, const char *const *names) {
  lyt_value v = { .kind = LYT_VRECORD };
  size_t k = (size_t)(n ? n : 1);
  v.u.rec.n = n;
  v.u.rec.name = lytS_alloc(lytI_cx(c), sizeof *v.u.rec.name * k);
  v.u.rec.e = lytS_alloc(lytI_cx(c), sizeof *v.u.rec.e * k);
  for (int32_t i = 0; i < n; i++) {
    v.u.rec.name[i] = lytI_intern(c->L, names[i], strlen(names[i]));
    if (!v.u.rec.name[i]) lytS_fail(lytI_cx(c), LYT_ERRMEM, "out of memory");
    v.u.rec.e[i] = lytI_nil();
  }
  return v;
}

const char *lytI_kindname(lyt_vkind k) {
  static const char *const names[] = {
    "nil", "bool", "integer", "string", "wildcard '_'", "tuple", "tiler", "layout",
    "swizzle", "composed layout", "basis element", "function", "builtin function",
    "record", "linear layout", "index", "axis stride", "iters", "axe layout",
    "nested layout", "kernel", "C function",
  };
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "value";
}

const char *lytI_article(lyt_vkind k) {
  return strchr("aeiou", lytI_kindname(k)[0]) ? "an" : "a";
}

/* ---------------------------------------------------------------------
** Errors and the core context
** ------------------------------------------------------------------- */

lytS_ctx *lytI_cx(lytI_call *c) { return &c->L->cx; }

void lytI_argerr(lytI_call *c, int i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->L->errloc = (i >= 0 && i < c->argc && c->argloc) ? c->argloc[i] : c->loc;
  lytS_vfail(&c->L->cx, LYT_ERRRUN, fmt, ap);
}

void lytI_callerr(lytI_call *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->L->errloc = c->loc;
  lytS_vfail(&c->L->cx, LYT_ERRRUN, fmt, ap);
}

/* ---------------------------------------------------------------------
** Values <-> core tuples
** ------------------------------------------------------------------- */

lytS_tup *lytI_val2tup(lytS_ctx *cx, const lyt_value *v, const char **why) {
  lytS_tup *t = lytS_alloc(cx, sizeof *t);
  memset(t, 0, sizeof *t);
  switch (v->kind) {
    case LYT_VINT: t->kind = LYTS_INT; t->v = v->u.i; return t;
    case LYT_VUNDER: t->kind = LYTS_UNDER; return t;
    case LYT_VBASIS: *t = *v->u.basis; return t;
    case LYT_VTUP:
      t->kind = LYTS_TUP;
      t->n = v->u.tup.n;
      t->e = lytS_alloc(cx, sizeof *t->e * (size_t)(t->n ? t->n : 1));
      for (int32_t i = 0; i < t->n; i++)
        if (!(t->e[i] = lytI_val2tup(cx, &v->u.tup.e[i], why))) return NULL;
      return t;
    default:
      *why = lytI_kindname(v->kind);
      return NULL;
  }
}

lyt_value lytI_tup2val(lytS_ctx *cx, const lytS_tup *t) {
  lyt_value v;
  switch (t->kind) {
    case LYTS_INT: return lytI_int(t->v);
    case LYTS_UNDER: return lytI_under();
    case LYTS_BASIS: v.kind = LYT_VBASIS; v.u.basis = t; return v;
    default:
      v.kind = LYT_VTUP;
      v.u.tup.n = t->n;
      v.u.tup.e = lytS_alloc(cx, sizeof(lyt_value) * (size_t)(t->n ? t->n : 1));
      for (int32_t i = 0; i < t->n; i++) v.u.tup.e[i] = lytI_tup2val(cx, t->e[i]);
      return v;
  }
}

/* ---------------------------------------------------------------------
** Argument conversion
** ------------------------------------------------------------------- */

int lytI_isnil(lytI_call *c, int i) {
  return i >= c->argc || c->argv[i].kind == LYT_VNIL;
}

static const char *pname(lytI_call *c, int i) {
  return c->self && !c->self->variadic && c->self->params[i] ? c->self->params[i] : "argument";
}

int64_t lytI_getint(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VINT)
    lytI_argerr(c, i, "%s: '%s' must be an integer, got %s", c->self ? c->self->name : "call",
                pname(c, i), i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.i;
}

int64_t lytI_getposint_opt(lytI_call *c, int i) {
  if (lytI_isnil(c, i)) return 0;
  int64_t v = lytI_getint(c, i);
  if (v < 1) lytI_argerr(c, i, "%s: %s must be positive, got %lld", c->self->name,
                         c->self->params[i], (long long)v);
  return v;
}

lytS_tup *lytI_gettup(lytI_call *c, int i) {
  const char *why = NULL;
  lytS_tup *t = i < c->argc ? lytI_val2tup(lytI_cx(c), &c->argv[i], &why) : NULL;
  if (!t)
    lytI_argerr(c, i, "%s: '%s' must be an integer or a tuple of integers, got %s",
                c->self ? c->self->name : "call", pname(c, i), why ? why : "nothing");
  return t;
}

int32_t lytI_getints(lytI_call *c, int i, int64_t *out, int32_t min, int32_t max) {
  const lyt_value *v = i < c->argc ? &c->argv[i] : NULL;
  if (v && v->kind == LYT_VINT && min <= 1 && max >= 1) { out[0] = v->u.i; return 1; }
  if (!v || (v->kind != LYT_VTUP && v->kind != LYT_VTILER) || v->u.tup.n < min || v->u.tup.n > max)
    lytI_argerr(c, i, "%s: '%s' must be an integer or a flat tuple of %d to %d integers",
                c->self ? c->self->name : "call", pname(c, i), (int)min, (int)max);
  for (int32_t k = 0; k < v->u.tup.n; k++) {
    if (v->u.tup.e[k].kind != LYT_VINT)
      lytI_argerr(c, i, "%s: '%s' must hold integers, not %s", c->self ? c->self->name : "call",
                  pname(c, i), lytI_kindname(v->u.tup.e[k].kind));
    out[k] = v->u.tup.e[k].u.i;
  }
  return v->u.tup.n;
}

lytS_layout lytI_getlayout(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VLAYOUT)
    lytI_argerr(c, i, "%s: '%s' must be a layout, got %s", c->self ? c->self->name : "call",
                pname(c, i), i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.lay;
}

static lytS_layout unit_layout(lytS_ctx *cx, lytS_tup *n) {
  lytS_tup *one = lytS_alloc(cx, sizeof *one);
  memset(one, 0, sizeof *one);
  one->kind = LYTS_INT;
  one->v = 1;
  lytS_layout l = { n, one };
  return l;
}

/* A tiler element: a layout, n (n:1), `_`, or a nested tiler or shape. */
static int to_tiler(lytS_ctx *cx, const lyt_value *v, lytS_tiler *t, int top) {
  memset(t, 0, sizeof *t);
  switch (v->kind) {
    case LYT_VLAYOUT: t->kind = LYT_TILE_LAYOUT; t->lay = v->u.lay; return 1;
    case LYT_VUNDER: t->kind = top ? LYT_TILE_NEST : LYT_TILE_UNDER; return !top;
    case LYT_VINT: {
      lytS_tup *n = lytS_alloc(cx, sizeof *n);
      memset(n, 0, sizeof *n);
      n->kind = LYTS_INT;
      n->v = v->u.i;
      t->kind = LYT_TILE_LAYOUT;
      t->lay = unit_layout(cx, n);
      t->from_int = 1;
      return 1;
    }
    case LYT_VTUP: case LYT_VTILER:
      t->kind = LYT_TILE_NEST;
      t->n = v->u.tup.n;
      t->e = lytS_alloc(cx, sizeof *t->e * (size_t)(t->n ? t->n : 1));
      for (int32_t i = 0; i < t->n; i++)
        if (!to_tiler(cx, &v->u.tup.e[i], &t->e[i], 0)) return 0;
      return 1;
    default:
      return 0;
  }
}

lytS_tiler *lytI_gettiler(lytI_call *c, int i) {
  lytS_tiler *t = lytS_alloc(lytI_cx(c), sizeof *t);
  if (i >= c->argc || !to_tiler(lytI_cx(c), &c->argv[i], t, 1))
    lytI_argerr(c, i, "%s: '%s' must be a layout, a tiler or a shape, got %s",
                c->self ? c->self->name : "call", pname(c, i),
                i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return t;
}

/* ---------------------------------------------------------------------
** Copying, equality, printing
** ------------------------------------------------------------------- */

static lytS_tup *copy_tup(lytS_ctx *cx, const lytS_tup *t) {
  lytS_tup *r = lytS_alloc(cx, sizeof *r);
  *r = *t;
  if (t->kind == LYTS_TUP) {
    r->e = lytS_alloc(cx, sizeof *r->e * (size_t)(t->n ? t->n : 1));
    for (int32_t i = 0; i < t->n; i++) r->e[i] = copy_tup(cx, t->e[i]);
  }
  return r;
}

static const struct lytG_ll *copy_ll(lytS_ctx *cx, const struct lytG_ll *src) {
  struct lytG_ll *ll = lytS_alloc(cx, sizeof *ll);
  *ll = *src;  /* flat struct; dim names are interned or static */
  return ll;
}

static lytS_layout copy_layout(lytS_ctx *cx, lytS_layout l) {
  lytS_layout r = { copy_tup(cx, l.shape), copy_tup(cx, l.stride) };
  return r;
}

lyt_value lytI_copy_to(lyt_state *L, lytA_arena *a, lyt_value v) {
  lytA_arena *was = L->cx.arena;
  L->cx.arena = a;
  v = lytI_copy(&L->cx, v);
  L->cx.arena = was;
  return v;
}

lyt_value lytI_copy(lytS_ctx *cx, lyt_value v) {
  switch (v.kind) {
    case LYT_VSTR: {
      char *s = lytS_alloc(cx, (size_t)v.u.str.len + 1);
      memcpy(s, v.u.str.s, (size_t)v.u.str.len + 1);
      v.u.str.s = s;
      return v;
    }
    case LYT_VTUP: case LYT_VTILER: {
      lyt_value *e = lytS_alloc(cx, sizeof *e * (size_t)(v.u.tup.n ? v.u.tup.n : 1));
      for (int32_t i = 0; i < v.u.tup.n; i++) e[i] = lytI_copy(cx, v.u.tup.e[i]);
      v.u.tup.e = e;
      return v;
    }
    case LYT_VLAYOUT: v.u.lay = copy_layout(cx, v.u.lay); return v;
    case LYT_VRECORD: {
      lyt_value *e = lytS_alloc(cx, sizeof *e * (size_t)(v.u.rec.n ? v.u.rec.n : 1));
      const char **nm = lytS_alloc(cx, sizeof *nm * (size_t)(v.u.rec.n ? v.u.rec.n : 1));
      for (int32_t i = 0; i < v.u.rec.n; i++) {
        e[i] = lytI_copy(cx, v.u.rec.e[i]);
        nm[i] = v.u.rec.name[i];  /* interned: lives as long as the state */
      }
      v.u.rec.e = e;
      v.u.rec.name = nm;
      return v;
    }
    case LYT_VITERS: case LYT_VAXE: {
      struct lytX_layout *x = lytS_alloc(cx, sizeof *x);
      *x = *v.u.axe;  /* flat struct; axis names are interned */
      v.u.axe = x;
      return v;
    }
    case LYT_VKERNEL: {
      struct lytK_kernel *x = lytS_alloc(cx, sizeof *x);
      *x = *v.u.kernel;  /* names interned; layouts copied below */
      x->load = copy_ll(cx, x->load);
      x->store = x->store ? copy_ll(cx, x->store) : NULL;
      x->smem = x->smem ? copy_ll(cx, x->smem) : NULL;
      x->grid = x->grid ? copy_ll(cx, x->grid) : NULL;
      v.u.kernel = x;
      return v;
    }
    case LYT_VNESTED: {
      struct lytN_layout *x = lytS_alloc(cx, sizeof *x);
      *x = *v.u.nested;
      v.u.nested = x;
      return v;
    }
    case LYT_VINDEX: {
      struct lytV_val *x = lytS_alloc(cx, sizeof *x);
      int64_t *vals = lytS_alloc(cx, sizeof *vals * (size_t)v.u.index->n);
      *x = *v.u.index;
      memcpy(vals, v.u.index->v, sizeof *vals * (size_t)v.u.index->n);
      x->v = vals;
      v.u.index = x;
      return v;
    }
    case LYT_VLINEAR: v.u.ll = copy_ll(cx, v.u.ll); return v;
    case LYT_VBASIS: v.u.basis = copy_tup(cx, v.u.basis); return v;
    case LYT_VCOMPOSED: {
      lytS_composed *c = lytS_alloc(cx, sizeof *c);
      *c = *v.u.comp;
      c->inner = copy_layout(cx, c->inner);
      v.u.comp = c;
      return v;
    }
    default: return v;  /* scalars, and functions in the code arena */
  }
}

static int tup_equal(const lytS_tup *a, const lytS_tup *b) {
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
    case LYTS_INT: return a->v == b->v;
    case LYTS_UNDER: return 1;
    case LYTS_BASIS:
      return a->v == b->v && a->npath == b->npath && memcmp(a->path, b->path, a->npath) == 0;
    default:
      if (a->n != b->n) return 0;
      for (int32_t i = 0; i < a->n; i++)
        if (!tup_equal(a->e[i], b->e[i])) return 0;
      return 1;
  }
}

static int layout_equal(lytS_layout a, lytS_layout b) {
  return tup_equal(a.shape, b.shape) && tup_equal(a.stride, b.stride);
}

int lytI_equal(const lyt_value *a, const lyt_value *b) {
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
    case LYT_VNIL: case LYT_VUNDER: return 1;
    case LYT_VBOOL: case LYT_VINT: return a->u.i == b->u.i;
    case LYT_VSTR:
      return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, (size_t)a->u.str.len) == 0;
    case LYT_VTUP: case LYT_VTILER:
      if (a->u.tup.n != b->u.tup.n) return 0;
      for (int32_t i = 0; i < a->u.tup.n; i++)
        if (!lytI_equal(&a->u.tup.e[i], &b->u.tup.e[i])) return 0;
      return 1;
    case LYT_VLAYOUT: return layout_equal(a->u.lay, b->u.lay);
    case LYT_VSWIZZLE: return memcmp(&a->u.sw, &b->u.sw, sizeof a->u.sw) == 0;
    case LYT_VBASIS: return tup_equal(a->u.basis, b->u.basis);
    case LYT_VCOMPOSED:
      return memcmp(&a->u.comp->sw, &b->u.comp->sw, sizeof a->u.comp->sw) == 0 &&
             a->u.comp->offset == b->u.comp->offset &&
             layout_equal(a->u.comp->inner, b->u.comp->inner);
    case LYT_VFUNC: return a->u.fn == b->u.fn;
    case LYT_VRECORD:
      if (a->u.rec.n != b->u.rec.n) return 0;
      for (int32_t i = 0; i < a->u.rec.n; i++)
        if (a->u.rec.name[i] != b->u.rec.name[i] || !lytI_equal(&a->u.rec.e[i], &b->u.rec.e[i]))
          return 0;
      return 1;
    case LYT_VLINEAR: return lytG_equal(a->u.ll, b->u.ll);
    case LYT_VAXIS: return a->u.ax.v == b->u.ax.v && a->u.ax.axis == b->u.ax.axis;
    case LYT_VITERS: case LYT_VAXE: return lytX_equal(a->u.axe, b->u.axe);
    case LYT_VNESTED: return memcmp(a->u.nested, b->u.nested, sizeof *a->u.nested) == 0;
    case LYT_VKERNEL: return lytK_equal(a->u.kernel, b->u.kernel);
    case LYT_VINDEX:
      return a->u.index->rank == b->u.index->rank && a->u.index->n == b->u.index->n &&
             memcmp(a->u.index->shape, b->u.index->shape, sizeof a->u.index->shape) == 0 &&
             memcmp(a->u.index->v, b->u.index->v, sizeof(int64_t) * (size_t)a->u.index->n) == 0;
    case LYT_VBUILTIN: return a->u.bi == b->u.bi;
    case LYT_VCFUNC: return a->u.cf == b->u.cf;
  }
  return 0;
}

static void print_string(lytS_buf *b, const lyt_value *v) {
  lytS_buf_add(b, "\"", 1);
  for (int64_t i = 0; i < v->u.str.len; i++) {
    char ch = v->u.str.s[i];
    if (ch == '"' || ch == '\\') lytS_buf_add(b, "\\", 1);
    if (ch == '\n') lytS_buf_add(b, "\\n", 2);
    else if (ch == '\t') lytS_buf_add(b, "\\t", 2);
    else lytS_buf_add(b, &ch, 1);
  }
  lytS_buf_add(b, "\"", 1);
}

/* An Axe layout prints as the call that makes it. */
static void print_axe(lytS_buf *b, const lytX_layout *L) {
  lytS_buf_puts(b, "axe(");
  lytX_print_shard(b, L);
  if (L->nr) { lytS_buf_puts(b, ", replica="); lytX_print_replica(b, L); }
  if (L->no) { lytS_buf_puts(b, ", offset="); lytX_print_offset(b, L); }
  lytS_buf_puts(b, ")");
}

/* {a: 1, b: 2}; a field without a value prints its name alone. */
static void print_record(lytS_buf *b, const lyt_value *v) {
  lytS_buf_puts(b, "{");
  for (int32_t i = 0; i < v->u.rec.n; i++) {
    lytS_buf_printf(b, "%s%s", i ? ", " : "", v->u.rec.name[i]);
    if (v->u.rec.e[i].kind == LYT_VNIL) continue;
    lytS_buf_puts(b, ": ");
    lytI_print_value(b, &v->u.rec.e[i]);
  }
  lytS_buf_puts(b, "}");
}

static void print_seq(lytS_buf *b, const lyt_value *v, const char *open, const char *close) {
  lytS_buf_puts(b, open);
  for (int32_t i = 0; i < v->u.tup.n; i++) {
    if (i) lytS_buf_add(b, ",", 1);
    lytI_print_value(b, &v->u.tup.e[i]);
  }
  lytS_buf_puts(b, close);
}

void lytI_print_value(lytS_buf *b, const lyt_value *v) {
  switch (v->kind) {
    case LYT_VNIL: lytS_buf_puts(b, "nil"); break;
    case LYT_VBOOL: lytS_buf_puts(b, v->u.i ? "true" : "false"); break;
    case LYT_VINT: lytS_buf_printf(b, "%lld", (long long)v->u.i); break;
    case LYT_VSTR: print_string(b, v); break;
    case LYT_VUNDER: lytS_buf_puts(b, "_"); break;
    case LYT_VTUP: print_seq(b, v, "(", ")"); break;
    case LYT_VTILER: print_seq(b, v, "[", "]"); break;
    case LYT_VLAYOUT: lytS_print_layout(b, v->u.lay); break;
    case LYT_VBASIS: lytS_print_tup(b, v->u.basis); break;
    case LYT_VSWIZZLE: lytS_print_swizzle(b, v->u.sw); break;
    case LYT_VCOMPOSED: lytS_print_composed(b, v->u.comp); break;
    case LYT_VFUNC: lytS_buf_printf(b, "<function %s>", v->u.fn->name); break;
    case LYT_VBUILTIN: lytS_buf_printf(b, "<builtin %s>", v->u.bi->name); break;
    case LYT_VCFUNC: lytS_buf_printf(b, "<C function %s>", v->u.cf->name); break;
    case LYT_VRECORD: print_record(b, v); break;
    case LYT_VLINEAR: lytG_print(b, v->u.ll); break;
    case LYT_VAXIS: lytS_buf_printf(b, "%lld@%s", (long long)v->u.ax.v, v->u.ax.axis); break;
    case LYT_VITERS: lytX_print_shard(b, v->u.axe); break;
    case LYT_VAXE: print_axe(b, v->u.axe); break;
    case LYT_VNESTED: lytN_print(b, v->u.nested); break;
    case LYT_VKERNEL: lytS_buf_printf(b, "<kernel %s>", v->u.kernel->name); break;
    case LYT_VINDEX:
      lytS_buf_puts(b, "index ");
      lytV_print_values(b, v->u.index);
      lytS_buf_puts(b, " ");
      lytV_print_info(b, &v->u.index->info);
      break;
  }
}
