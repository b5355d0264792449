/*
** stride/values.c: layouts, swizzles, composed layouts, tilers and basis
** elements as interpreter values (see stride/values.h).
*/
#include <string.h>

#include "interp/eval/state.h"
#include "interp/stride/values.h"

lyt_value lytI_layout(lytS_ctx *cx, lytS_layout l) {
  lytS_layout *p = lytS_alloc(cx, sizeof l);
  *p = l;
  return (lyt_value){ .kind = LYT_VLAYOUT, .u.lay = p };  /* (eval/value.c says why) */
}

lyt_value lytI_swizzle(lytS_ctx *cx, lytS_swizzle sw) {
  lyt_value v = { .kind = LYT_VSWIZZLE };
  v.u.sw = lytS_dup(cx, &sw, sizeof sw);
  return v;
}

lyt_value lytI_composed(const lytS_composed *cp) {
  lyt_value v = { .kind = LYT_VCOMPOSED };
  v.u.comp = cp;
  return v;
}

lytS_layout lytI_getlayout(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VLAYOUT)
    lytI_argerr(c, i, "%s: '%s' must be a layout, got %s", c->self ? c->self->name : "call",
                lytI_param_name(c, i), i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return *c->argv[i].u.lay;
}


/* A tiler element: a layout, n (n:1), `_`, or a nested tiler or shape. */
static int to_tiler(lytS_ctx *cx, const lyt_value *v, lytS_tiler *t, int top) {
  memset(t, 0, sizeof *t);
  switch (v->kind) {
    case LYT_VLAYOUT: t->kind = LYT_TILE_LAYOUT; t->lay = *v->u.lay; return 1;
    case LYT_VUNDER: t->kind = top ? LYT_TILE_NEST : LYT_TILE_UNDER; return !top;
    case LYT_VINT:
      t->kind = LYT_TILE_LAYOUT;
      t->lay = (lytS_layout){ lytS_int(cx, v->u.i), lytS_int(cx, 1) };
      t->from_int = 1;
      return 1;
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
                c->self ? c->self->name : "call", lytI_param_name(c, i),
                i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return t;
}


void lytI_layout_literal(lyt_state *L, const lytS_tup *shape, const lytS_tup *stride,
                         int checked, lyt_value *out) {
  lytS_tup *s = (lytS_tup *)shape, *d = (lytS_tup *)stride;
  lytS_layout l = checked ? (lytS_layout){ s, d } : lytS_make_layout(&L->cx, s, d);
  /* lytI_layout's value, written here: *out = lytI_layout(...) made it on
  ** the stack and copied it, the stall state.h speaks of */
  lytS_layout *p = lytS_alloc(&L->cx, sizeof l);
  *p = l;
  *out = (lyt_value){ .kind = LYT_VLAYOUT, .u.lay = p };
}

lyt_value lytI_layout_mode(lyt_state *L, const lyt_value *v, int64_t k, lyt_loc kloc, lyt_loc at) {
  if (k < 0 || k >= lytS_lrank(*v->u.lay))
    lytI_error(L, kloc, LYT_ERRRUN, "mode %lld out of range for a layout of rank %d",
               (long long)k, (int)lytS_lrank(*v->u.lay));
  L->errloc = at;
  return lytI_layout(&L->cx, lytS_lmode(&L->cx, *v->u.lay, (int32_t)k));
}

/* ---------------------------------------------------------------------
** Kind operations
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

static lytS_layout copy_pair(lytS_ctx *cx, lytS_layout l) {
  lytS_layout r = { copy_tup(cx, l.shape), copy_tup(cx, l.stride) };
  return r;
}

lyt_value lytI_copy_layout(lytS_ctx *cx, lyt_value v) { return lytI_layout(cx, copy_pair(cx, *v.u.lay)); }
lyt_value lytI_copy_swizzle(lytS_ctx *cx, lyt_value v) { return lytI_swizzle(cx, *v.u.sw); }

lyt_value lytI_copy_composed(lytS_ctx *cx, lyt_value v) {
  lytS_composed *c = lytS_alloc(cx, sizeof *c);
  *c = *v.u.comp;
  c->inner = copy_pair(cx, c->inner);
  v.u.comp = c;
  return v;
}

lyt_value lytI_copy_basis(lytS_ctx *cx, lyt_value v) { v.u.basis = copy_tup(cx, v.u.basis); return v; }

static int pair_equal(lytS_layout a, lytS_layout b) {
  return lytS_tup_eq(a.shape, b.shape) && lytS_tup_eq(a.stride, b.stride);
}

static int swizzle_equal(const lytS_swizzle *a, const lytS_swizzle *b) {
  return a->b == b->b && a->m == b->m && a->s == b->s;
}

int lytI_equal_layout(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return pair_equal(*a->u.lay, *b->u.lay); }
int lytI_equal_swizzle(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return swizzle_equal(a->u.sw, b->u.sw); }

int lytI_equal_composed(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  return swizzle_equal(&a->u.comp->sw, &b->u.comp->sw) && a->u.comp->offset == b->u.comp->offset &&
         pair_equal(a->u.comp->inner, b->u.comp->inner);
}

int lytI_equal_basis(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return lytS_tup_eq(a->u.basis, b->u.basis); }

void lytI_print_layout(lytS_buf *b, const lyt_value *v) { lytS_print_layout(b, *v->u.lay); }
void lytI_print_swizzle(lytS_buf *b, const lyt_value *v) { lytS_print_swizzle(b, *v->u.sw); }
void lytI_print_composed(lytS_buf *b, const lyt_value *v) { lytS_print_composed(b, v->u.comp); }
void lytI_print_basis(lytS_buf *b, const lyt_value *v) { lytS_print_tup(b, v->u.basis); }
