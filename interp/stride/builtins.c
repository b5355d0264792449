/*
** stride/builtins.c: the stride core exposed to lyt code (builtins glue).
**
** Every builtin converts its arguments with the helpers of eval/builtin.h,
** calls one core function, and wraps the result; the algebra itself and
** all its error messages live in the core (base/inttuple.c ... stride/swizzle.c).
** Names and argument order are CuTe's (size(L, i...) is size<i...>(L),
** take(L, b, e) is take<b,e>(L), ...). Layout-like operands may be
** composed layouts (sw o offset o L): queries read the inner layout and
** the algebra acts on it, keeping the swizzle and offset, as CuTe does.
*/
#include "interp/eval/state.h"
#include "interp/stride/values.h"

#include <string.h>

#define CX(c) lytI_cx(c)

/* ------------------------------------------------------------------ */
/* argument helpers                                                    */
/* ------------------------------------------------------------------ */

/* A layout operand, or the inner layout of a composed one. */
typedef struct lay_arg {
  lytS_layout l;
  const lytS_composed *comp;  /* NULL for a plain layout */
} lay_arg;

static lay_arg get_lay(lytI_call *c, int i) {
  lay_arg a = { { NULL, NULL }, NULL };
  if (c->argv[i].kind == LYT_VCOMPOSED) {
    a.comp = c->argv[i].u.comp;
    a.l = a.comp->inner;
  } else {
    a.l = lytI_getlayout(c, i);
  }
  return a;
}

/* Wrap a result layout back into the operand's swizzle, if it had one. */
static lyt_value ret_lay(lytI_call *c, const lay_arg *a, lytS_layout r) {
  if (!a->comp) return lytI_layout(CX(c), r);
  lyt_value v;
  v.kind = LYT_VCOMPOSED;
  v.u.comp = lytS_composed_with(CX(c), a->comp, r);
  return v;
}

static lyt_value ret_tup(lytI_call *c, const lytS_tup *t) { return lytI_tup2val(CX(c), t); }

static int is_layoutish(const lyt_value *v) {
  return v->kind == LYT_VLAYOUT || v->kind == LYT_VCOMPOSED;
}

/* Trailing integer arguments from position `from` (size<I...> paths). */
static int32_t get_path(lytI_call *c, int from, int64_t *path) {
  int32_t n = 0;
  int total = c->nextra > c->argc ? c->nextra : c->argc;
  for (int i = from; i < total && n < 16; i++) {
    if (c->argv[i].kind == LYT_VNIL) continue;
    if (c->argv[i].kind != LYT_VINT)
      lytI_argerr(c, i, "%s: a mode index must be an integer, got %s", c->self->name,
                  lytI_kindname(c->argv[i].kind));
    path[n++] = lytI_getint(c, i);
  }
  return n;
}

/* A shape operand: every extent a positive integer (a zero would divide
** by zero in every index map); a failure points at the argument. */
static lytS_tup *get_shape(lytI_call *c, int i) {
  lytS_tup *t = lytI_gettup(c, i);
  c->L->errloc = c->argloc[i];
  lytS_check_shape(CX(c), t, c->self->name);
  c->L->errloc = c->loc;
  return t;
}

/* An IntTuple operand or the shape of a layout-like operand. */
static lytS_tup *tup_or_shape(lytI_call *c, int i) {
  if (is_layoutish(&c->argv[i])) return get_lay(c, i).l.shape;
  if (c->argv[i].kind != LYT_VINT && c->argv[i].kind != LYT_VTUP)
    lytI_argerr(c, i, "%s: expected a layout or an integer tuple, got %s", c->self->name,
                lytI_kindname(c->argv[i].kind));
  return lytI_gettup(c, i);
}

/* A tiler: a layout (1-D), an int n (n:1), a shape tuple (by mode), `_`,
** or a tiler value. */
static lytS_tiler *get_tiler(lytI_call *c, int i) {
  lyt_value *v = &c->argv[i];
  if (v->kind == LYT_VLAYOUT) return lytS_tiler_of_layout(CX(c), *v->u.lay);
  if (v->kind == LYT_VINT || v->kind == LYT_VUNDER || v->kind == LYT_VTUP) {
    const char *why = NULL;
    lytS_tup *t = lytI_val2tup(CX(c), v, &why);
    if (t) return lytS_tiler_of_shape(CX(c), t);
  }
  if (v->kind == LYT_VTILER || v->kind == LYT_VTUP)  /* name the bad mode, not the whole */
    for (int32_t k = 0; k < v->u.tup.n; k++) {
      int ek = v->u.tup.e[k].kind;
      if (ek != LYT_VLAYOUT && ek != LYT_VINT && ek != LYT_VUNDER && ek != LYT_VTUP &&
          ek != LYT_VTILER)
        lytI_argerr(c, i, "%s: mode %d of the tiler must be a layout, an integer, a shape "
                    "or _, got %s", c->self->name, k, lytI_kindname(ek));
    }
  return lytI_gettiler(c, i);
}



/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */

static lytS_tup *sub_tup(lytI_call *c) {
  int64_t path[16];
  int32_t n = get_path(c, 1, path);
  return lytS_get_tup(CX(c), tup_or_shape(c, 0), path, n);
}

static lyt_value b_size(lytI_call *c) { return lytI_int(lytS_size(CX(c), sub_tup(c))); }
static lyt_value b_rank(lytI_call *c) { return lytI_int(lytS_rank(sub_tup(c))); }
static lyt_value b_depth(lytI_call *c) { return lytI_int(lytS_depth(sub_tup(c))); }

static lyt_value b_cosize(lytI_call *c) {
  return lytI_int(lytS_cosize(CX(c), get_lay(c, 0).l));
}

static lytS_layout sub_layout(lytI_call *c) {
  int64_t path[16];
  int32_t n = get_path(c, 1, path);
  return lytS_get(CX(c), get_lay(c, 0).l, path, n);
}

static lyt_value b_shape(lytI_call *c) { return ret_tup(c, sub_layout(c).shape); }

static lyt_value b_stride(lytI_call *c) {
  if (c->argv[0].kind == LYT_VCOMPOSED)
    lytI_argerr(c, 0, "stride: a composed layout (swizzle o offset o layout) has no stride");
  return ret_tup(c, sub_layout(c).stride);
}

static lyt_value b_get(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, sub_layout(c));
}

static lyt_value b_select(lytI_call *c) {
  int64_t idx[16];
  int32_t n = get_path(c, 1, idx);
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_select(CX(c), a.l, idx, n));
}

static lyt_value b_take(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_take(CX(c), a.l, lytI_getint(c, 1), lytI_getint(c, 2)));
}

static lyt_value b_group(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_group(CX(c), a.l, lytI_getint(c, 1), lytI_getint(c, 2)));
}

static lyt_value b_flatten(lytI_call *c) {
  if (!is_layoutish(&c->argv[0])) return ret_tup(c, lytS_flatten(CX(c), lytI_gettup(c, 0)));
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_lflatten(CX(c), a.l));
}

static lytS_layout opt_mode(lytI_call *c, int i) {
  if (lytI_isnil(c, i)) return lytS_int_layout(CX(c), 1, 0);
  return lytI_getlayout(c, i);
}

static lyt_value b_append(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_append(CX(c), a.l, opt_mode(c, 1)));
}

static lyt_value b_prepend(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_prepend(CX(c), a.l, opt_mode(c, 1)));
}

static lyt_value b_replace(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_replace(CX(c), a.l, lytI_getint(c, 1), lytI_getlayout(c, 2)));
}

/* ------------------------------------------------------------------ */
/* construction                                                        */
/* ------------------------------------------------------------------ */

static int nargs(lytI_call *c) {
  int n = c->nextra > 0 ? c->nextra : c->argc;
  while (n > 0 && c->argv[n - 1].kind == LYT_VNIL) n--;
  return n;
}

static lyt_value make_concat(lytI_call *c, int n) {
  lytS_layout *ls = lytS_alloc(CX(c), sizeof *ls * (size_t)n);
  for (int i = 0; i < n; i++) ls[i] = lytI_getlayout(c, i);
  return lytI_layout(CX(c), lytS_concat(CX(c), ls, n));
}

static int is_str(const lyt_value *v, const char *s) {
  return v->kind == LYT_VSTR && (size_t)v->u.str.len == strlen(s) &&
         memcmp(v->u.str.s, s, (size_t)v->u.str.len) == 0;
}

static lyt_value b_make_layout(lytI_call *c) {
  int n = nargs(c);
  if (n >= 1 && c->argv[0].kind == LYT_VLAYOUT) return make_concat(c, n);
  if (n > 2) lytI_argerr(c, 2, "make_layout takes a shape and a stride, or layouts");
  lytS_tup *shape = get_shape(c, 0);
  if (n == 1 || is_str(&c->argv[1], "LayoutLeft"))
    return lytI_layout(CX(c), lytS_make_left(CX(c), shape));
  if (is_str(&c->argv[1], "LayoutRight"))
    return lytI_layout(CX(c), lytS_make_right(CX(c), shape));
  if (c->argv[1].kind == LYT_VSTR)
    lytI_argerr(c, 1, "make_layout: expected LayoutLeft, LayoutRight or a stride, got \"%.*s\"",
                (int)c->argv[1].u.str.len, c->argv[1].u.str.s);
  return lytI_layout(CX(c), lytS_make_layout(CX(c), shape, lytI_gettup(c, 1)));
}

/* make_shape(2, 4), make_stride(4, 1), make_coord(i, j): CuTe's tuples as
** written in C++, each element an int or a nested tuple. */
static lyt_value b_make_tuple(lytI_call *c) {
  int n = nargs(c);
  lyt_value t = lytI_tuple(c, n);
  for (int i = 0; i < n; i++) {
    lytI_gettup(c, i);  /* an int, `_` or a tuple of them, or an error at it */
    t.u.tup.e[i] = c->argv[i];
  }
  return t;
}

static lyt_value b_make_ordered(lytI_call *c) {
  return lytI_layout(CX(c), lytS_make_ordered(CX(c), get_shape(c, 0), lytI_gettup(c, 1)));
}

static lyt_value b_make_like(lytI_call *c) {
  return lytI_layout(CX(c), lytS_make_like(CX(c), lytI_getlayout(c, 0)));
}

static lyt_value b_make_identity(lytI_call *c) {
  return lytI_layout(CX(c), lytS_make_identity(CX(c), get_shape(c, 0)));
}

/* ------------------------------------------------------------------ */
/* coordinates                                                         */
/* ------------------------------------------------------------------ */

static lytS_tup *opt_stride(lytI_call *c, int i, const lytS_tup *shape) {
  if (lytI_isnil(c, i)) return NULL;
  lytS_tup *d = lytI_gettup(c, i);
  if (!lytS_congruent(shape, d))
    lytI_argerr(c, i, "%s: stride %s is not congruent with shape %s", c->self->name,
                lytS_tup_str(CX(c), d),
                lytS_tup_str(CX(c), shape));
  return d;
}

static lyt_value b_crd2idx(lytI_call *c) {
  lytS_tup *crd = lytI_gettup(c, 0), *shape = get_shape(c, 1);
  lytS_tup *d = opt_stride(c, 2, shape);
  if (!d) return lytI_int(lytS_crd2idx_colex(CX(c), crd, shape));
  return ret_tup(c, lytS_crd2idx(CX(c), crd, shape, d));
}

static lyt_value b_idx2crd(lytI_call *c) {
  lytS_tup *i = lytI_gettup(c, 0), *shape = get_shape(c, 1);
  return ret_tup(c, lytS_idx2crd(CX(c), i, shape, opt_stride(c, 2, shape)));
}

static lyt_value b_slice(lytI_call *c) {
  lay_arg a = get_lay(c, 1);
  return ret_lay(c, &a, lytS_slice(CX(c), lytI_gettup(c, 0), a.l));
}

static lyt_value b_dice(lytI_call *c) {
  lay_arg a = get_lay(c, 1);
  return ret_lay(c, &a, lytS_dice(CX(c), lytI_gettup(c, 0), a.l));
}

static lyt_value b_slice_and_offset(lytI_call *c) {
  int64_t off;
  lytS_layout l = lytS_slice_and_offset(CX(c), lytI_gettup(c, 0), lytI_getlayout(c, 1), &off);
  lyt_value r = lytI_tuple(c, 2);
  r.u.tup.e[0] = lytI_layout(CX(c), l);
  r.u.tup.e[1] = lytI_int(off);
  return r;
}

/* The coordinate of L(args...): one argument as is, several as a tuple. */
static lytS_tup *call_coord(lytI_call *c, int n) {
  for (int i = 1; i < n; i++) {
    int k = c->argv[i].kind;
    if (k != LYT_VINT && k != LYT_VTUP && k != LYT_VUNDER)
      lytI_argerr(c, i, "a layout coordinate must be an integer, a tuple or _, got %s",
                  lytI_kindname(k));
  }
  if (n == 2) return lytI_gettup(c, 1);
  lytS_tup *t = lytS_newtup(CX(c), n - 1);
  for (int i = 1; i < n; i++) t->e[i - 1] = lytI_gettup(c, i);
  return t;
}

static lyt_value apply_composed(lytI_call *c, const lytS_composed *cp, const lytS_tup *crd) {
  if (lytS_has_under(crd)) {  /* CuTe folds the slice offset into the middle offset */
    int64_t off;
    lytS_layout l = lytS_slice_and_offset(CX(c), crd, cp->inner, &off);
    lytS_composed *r = lytS_make_composed(CX(c), cp->sw, lytS_add(CX(c), cp->offset, off), l);
    return lytI_composed(r);
  }
  lytS_check_coord(CX(c), crd, cp->inner.shape);
  return lytI_int(lytS_composed_eval(CX(c), cp, crd));
}

/* L(args...): argv[0] is the layout, composed layout or swizzle being
** called, argv[1..] the coordinate. A `_` slices; out-of-range is an error. */
lyt_value lytI_apply_layout(lytI_call *c) {
  int n = nargs(c);
  lyt_value *f = &c->argv[0];
  if (n < 2) lytI_callerr(c, "a layout call needs a coordinate");
  if (f->kind == LYT_VSWIZZLE) {
    if (n != 2) lytI_callerr(c, "a swizzle takes one integer");
    return lytI_int(lytS_swizzle_apply(CX(c), *f->u.sw, lytI_getint(c, 1)));
  }
  lytS_tup *crd = call_coord(c, n);
  if (f->kind == LYT_VCOMPOSED) return apply_composed(c, f->u.comp, crd);
  lytS_layout l = lytI_getlayout(c, 0);
  if (lytS_has_under(crd)) return lytI_layout(CX(c), lytS_slice(CX(c), crd, l));
  lytS_check_coord(CX(c), crd, l.shape);
  return ret_tup(c, lytS_eval(CX(c), l, crd));
}

/* ------------------------------------------------------------------ */
/* coalesce / filter                                                   */
/* ------------------------------------------------------------------ */

typedef lytS_layout (*prof_fn)(lytS_ctx *, lytS_layout, const lytS_tup *);
typedef lytS_layout (*plain_fn)(lytS_ctx *, lytS_layout);

static lyt_value with_profile(lytI_call *c, plain_fn f, prof_fn pf) {
  lay_arg a = get_lay(c, 0);
  if (lytI_isnil(c, 1)) return ret_lay(c, &a, f(CX(c), a.l));
  return ret_lay(c, &a, pf(CX(c), a.l, lytI_gettup(c, 1)));
}

static lyt_value b_coalesce(lytI_call *c) {
  return with_profile(c, lytS_coalesce, lytS_coalesce_prof);
}
static lyt_value b_filter(lytI_call *c) { return with_profile(c, lytS_filter, lytS_filter_prof); }
static lyt_value b_filter_zeros(lytI_call *c) {
  return with_profile(c, lytS_filter_zeros, lytS_filter_zeros_prof);
}

/* ------------------------------------------------------------------ */
/* composition, complement, inverses                                   */
/* ------------------------------------------------------------------ */

static lyt_value compose_swizzle(lytI_call *c) {
  lytS_swizzle sw = *c->argv[0].u.sw;
  lytS_layout l = lytI_getlayout(c, 1);
  if (lytS_swizzle_is_identity(sw)) return lytI_layout(CX(c), l);
  return lytI_composed(lytS_make_composed(CX(c), sw, 0, l));
}

static lyt_value swizzled(lytS_swizzle sw, lytI_call *c, lytS_layout l) {
  if (lytS_swizzle_is_identity(sw)) return lytI_layout(CX(c), l);
  return lytI_composed(lytS_make_composed(CX(c), sw, 0, l));
}

/* L o Sw and L o (Sw o 0 o B), CuTe's (the offset must be 0 there too) */
static lyt_value compose_right_swizzle(lytI_call *c) {
  if (c->argv[0].kind != LYT_VLAYOUT)
    lytI_argerr(c, 0, "composition with a swizzle on the right takes a plain layout on the left");
  lytS_layout l = *c->argv[0].u.lay;
  lytS_swizzle r;
  if (c->argv[1].kind == LYT_VSWIZZLE) {
    lytS_compose_swizzle(CX(c), l, *c->argv[1].u.sw, &r);
    return swizzled(r, c, l);
  }
  const lytS_composed *b = c->argv[1].u.comp;
  if (b->offset != 0)
    lytI_argerr(c, 1, "composition: a swizzled layout on the right must have offset 0 (CuTe "
                "requires it); this one has %lld", (long long)b->offset);
  lytS_layout m = lytS_compose_swizzled(CX(c), l, b->sw, b->inner, &r);
  return swizzled(r, c, m);
}

static lyt_value b_composition(lytI_call *c) {
  if (c->argv[0].kind == LYT_VSWIZZLE) return compose_swizzle(c);
  if (c->argv[1].kind == LYT_VSWIZZLE || c->argv[1].kind == LYT_VCOMPOSED)
    return compose_right_swizzle(c);
  lay_arg a = get_lay(c, 0);
  if (c->argv[1].kind == LYT_VLAYOUT)
    return ret_lay(c, &a, lytS_compose(CX(c), a.l, *c->argv[1].u.lay));
  return ret_lay(c, &a, lytS_compose_tiler(CX(c), a.l, get_tiler(c, 1)));
}

static lyt_value b_complement(lytI_call *c) {
  lytS_layout l = get_lay(c, 0).l;
  if (lytI_isnil(c, 1)) return lytI_layout(CX(c), lytS_complement1(CX(c), l));
  return lytI_layout(CX(c), lytS_complement_covering(CX(c), l, tup_or_shape(c, 1)));
}

/* The inverse of Sw o 0 o L is inverse(L) o Sw, as CuTe composes it (the
** swizzle is its own inverse); with an offset CuTe's answer is a layout o
** offset o swizzle, a form lyt's composed layouts do not take. */
static lyt_value inverse(lytI_call *c, lytS_layout (*inv)(lytS_ctx *, lytS_layout)) {
  if (c->argv[0].kind != LYT_VCOMPOSED) return lytI_layout(CX(c), inv(CX(c), lytI_getlayout(c, 0)));
  const lytS_composed *comp = c->argv[0].u.comp;
  if (comp->offset != 0)
    lytI_argerr(c, 0, "%s: CuTe's inverse of a swizzled layout with an offset (%lld) is a "
                "layout o offset o swizzle, which lyt does not represent", c->self->name,
                (long long)comp->offset);
  lytS_layout l = inv(CX(c), comp->inner);
  lytS_swizzle r;
  lytS_compose_swizzle(CX(c), l, comp->sw, &r);
  return swizzled(r, c, l);
}

static lyt_value b_right_inverse(lytI_call *c) { return inverse(c, lytS_right_inverse); }
static lyt_value b_left_inverse(lytI_call *c) { return inverse(c, lytS_left_inverse); }

/* ------------------------------------------------------------------ */
/* divide / product                                                    */
/* ------------------------------------------------------------------ */

static lyt_value divide(lytI_call *c, int kind) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_divide(CX(c), kind, a.l, get_tiler(c, 1)));
}

static lyt_value product(lytI_call *c, int kind) {
  lay_arg a = get_lay(c, 0);
  return ret_lay(c, &a, lytS_product(CX(c), kind, a.l, get_tiler(c, 1)));
}

static lyt_value b_logical_divide(lytI_call *c) { return divide(c, LYT_DIV_LOGICAL); }
static lyt_value b_zipped_divide(lytI_call *c) { return divide(c, LYT_DIV_ZIPPED); }
static lyt_value b_tiled_divide(lytI_call *c) { return divide(c, LYT_DIV_TILED); }
static lyt_value b_flat_divide(lytI_call *c) { return divide(c, LYT_DIV_FLAT); }
static lyt_value b_logical_product(lytI_call *c) { return product(c, LYT_PROD_LOGICAL); }
static lyt_value b_zipped_product(lytI_call *c) { return product(c, LYT_PROD_ZIPPED); }
static lyt_value b_tiled_product(lytI_call *c) { return product(c, LYT_PROD_TILED); }
static lyt_value b_flat_product(lytI_call *c) { return product(c, LYT_PROD_FLAT); }
static lyt_value b_blocked_product(lytI_call *c) { return product(c, LYT_PROD_BLOCKED); }
static lyt_value b_raked_product(lytI_call *c) { return product(c, LYT_PROD_RAKED); }

/* order: nil or LayoutLeft (NULL), LayoutRight (reversed ranks), or a tuple. */
static lytS_tup *get_order(lytI_call *c, int i, const lytS_tup *shape) {
  if (lytI_isnil(c, i) || is_str(&c->argv[i], "LayoutLeft")) return NULL;
  if (!is_str(&c->argv[i], "LayoutRight")) return lytI_gettup(c, i);
  int32_t r = lytS_rank(shape);
  if (!lytS_istup(shape)) return lytS_int(CX(c), 0);
  lytS_tup *o = lytS_newtup(CX(c), r);
  for (int32_t k = 0; k < r; k++) o->e[k] = lytS_int(CX(c), r - 1 - k);
  return o;
}

static lyt_value b_tile_to_shape(lytI_call *c) {
  lay_arg a = get_lay(c, 0);
  lytS_tup *shape = is_layoutish(&c->argv[1]) ? tup_or_shape(c, 1) : get_shape(c, 1);
  lytS_tup *order = get_order(c, 2, shape);
  return ret_lay(c, &a, lytS_tile_to_shape(CX(c), a.l, shape, order));
}

static lyt_value b_max_common_layout(lytI_call *c) {
  return lytI_layout(CX(c), lytS_max_common_layout(CX(c), lytI_getlayout(c, 0),
                                            lytI_getlayout(c, 1)));
}

static lyt_value b_max_common_vector(lytI_call *c) {
  return lytI_int(lytS_max_common_vector(CX(c), lytI_getlayout(c, 0), lytI_getlayout(c, 1)));
}

static lyt_value b_nullspace(lytI_call *c) {
  return lytI_layout(CX(c), lytS_nullspace(CX(c), lytI_getlayout(c, 0)));
}

static lyt_value b_upcast(lytI_call *c) {
  return lytI_layout(CX(c), lytS_upcast(CX(c), lytI_getlayout(c, 0), lytI_getint(c, 1)));
}

static lyt_value b_downcast(lytI_call *c) {
  return lytI_layout(CX(c), lytS_downcast(CX(c), lytI_getlayout(c, 0), lytI_getint(c, 1)));
}

/* ------------------------------------------------------------------ */
/* swizzles                                                            */
/* ------------------------------------------------------------------ */

static lyt_value b_swizzle(lytI_call *c) {
  int64_t b = lytI_getint(c, 0), m = lytI_getint(c, 1);
  int64_t s = lytI_isnil(c, 2) ? b : lytI_getint(c, 2);
  return lytI_swizzle(CX(c), lytS_make_swizzle(CX(c), b, m, s));
}

static lyt_value b_make_composed(lytI_call *c) {
  if (c->argv[0].kind != LYT_VSWIZZLE)
    lytI_argerr(c, 0, "make_composed_layout: 'sw' must be a swizzle, got %s",
                lytI_kindname(c->argv[0].kind));
  lytS_composed *cp = lytS_make_composed(CX(c), *c->argv[0].u.sw, lytI_getint(c, 1),
                                         lytI_getlayout(c, 2));
  return lytI_composed(cp);
}

/* ------------------------------------------------------------------ */
/* IntTuple utilities                                                  */
/* ------------------------------------------------------------------ */

static lyt_value b_shape_div(lytI_call *c) {
  return ret_tup(c, lytS_shape_div(CX(c), get_shape(c, 0), get_shape(c, 1)));
}

static lyt_value b_ceil_div(lytI_call *c) {
  if (c->argv[1].kind == LYT_VLAYOUT)  /* CuTe: shape(complement(tiler, shape(target))) */
    return ret_tup(c, lytS_complement(CX(c), *c->argv[1].u.lay, tup_or_shape(c, 0)).shape);
  return ret_tup(c, lytS_ceil_div(CX(c), get_shape(c, 0), get_shape(c, 1)));
}

/* compact_col_major(shape, current=1), compact_row_major: CuTe's strides */
static lyt_value compact_major(lytI_call *c, int right) {
  lytS_tup *shape = get_shape(c, 0);
  lytS_tup *cur = lytI_isnil(c, 1) ? lytS_int(CX(c), 1) : lytI_gettup(c, 1);
  return ret_tup(c, lytS_compact_major(CX(c), shape, cur, right, c->self->name));
}
static lyt_value b_compact_col_major(lytI_call *c) { return compact_major(c, 0); }
static lyt_value b_compact_row_major(lytI_call *c) { return compact_major(c, 1); }

/* Layout::get_hier_coord and its two flattenings; CuTe's note: only valid
** for compact layouts (idx2crd divides by the strides). */
static lytS_tup *hier_coord(lytI_call *c) {
  lytS_layout l = lytI_getlayout(c, 0);
  return lytS_idx2crd(CX(c), lytI_gettup(c, 1), l.shape, l.stride);
}
static lyt_value b_get_hier_coord(lytI_call *c) { return ret_tup(c, hier_coord(c)); }
static lyt_value b_get_1d_coord(lytI_call *c) {
  return lytI_int(lytS_crd2idx_colex(CX(c), hier_coord(c), lytI_getlayout(c, 0).shape));
}
static lyt_value b_get_flat_coord(lytI_call *c) {
  lytS_tup *h = hier_coord(c), *shape = lytI_getlayout(c, 0).shape;
  /* CuTe's repeat<rank>(1) is the integer 1 at rank 1: one 1-D coordinate */
  if (!lytS_istup(shape) || shape->n == 1) return lytI_int(lytS_crd2idx_colex(CX(c), h, shape));
  lytS_tup *t = lytS_newtup(CX(c), shape->n);
  for (int32_t i = 0; i < shape->n; i++)
    t->e[i] = lytS_int(CX(c), lytS_crd2idx_colex(CX(c), h->e[i], shape->e[i]));
  return ret_tup(c, t);
}

/* domain_distribute(shape, n): the gcd of each leaf with what is left of
** n, over the leaves' compact column-major strides, coalesced. */
static lyt_value b_domain_distribute(lytI_call *c) {
  lytS_tup *shape = is_layoutish(&c->argv[0]) ? lytI_getlayout(c, 0).shape : get_shape(c, 0);
  int64_t b = lytI_getint(c, 1);
  if (b <= 0) lytI_argerr(c, 1, "domain_distribute: %lld is not a positive size", (long long)b);
  lytS_flat f = lytS_flat_of(CX(c), lytS_make_left(CX(c), lytS_flatten(CX(c), shape)));
  for (int32_t i = 0; i < f.n; i++) {
    int64_t g = lytS_gcd(f.s[i], b);
    b /= g;
    f.s[i] = g;
  }
  return lytI_layout(CX(c), lytS_coalesce(CX(c), lytS_flat_layout(CX(c), &f)));
}

/* CuTe's lex, colex and elementwise orders on IntTuples. */
enum { LEX, COLEX, ELEM };

static int tup_less(lytI_call *c, int order, const lytS_tup *a, const lytS_tup *b) {
  if (lytS_isint(a) && lytS_isint(b)) return a->v < b->v;
  if (!lytS_istup(a) || !lytS_istup(b))
    lytS_fail(CX(c), LYT_ERRRUN, "%s: cannot compare %s with %s (an integer with a tuple, or "
              "a wildcard)", c->self->name, lytS_tup_str(CX(c), a), lytS_tup_str(CX(c), b));
  for (int32_t i = 0;; i++) {
    if (order == ELEM) {
      if (i == a->n) return 1;
      if (i == b->n) return 0;
      if (!tup_less(c, order, a->e[i], b->e[i])) return 0;
      continue;
    }
    if (i == b->n) return 0;
    if (i == a->n) return 1;
    const lytS_tup *x = order == LEX ? a->e[i] : a->e[a->n - 1 - i];
    const lytS_tup *y = order == LEX ? b->e[i] : b->e[b->n - 1 - i];
    if (tup_less(c, order, x, y)) return 1;
    if (!lytS_tup_eq(x, y)) return 0;
  }
}

/* less, leq = !less(b, a), gtr = less(b, a), geq = !less(a, b), as CuTe. */
static lyt_value compare(lytI_call *c, int order, int kind) {
  lytS_tup *a = lytI_gettup(c, 0), *b = lytI_gettup(c, 1);
  int swap = kind == 1 || kind == 2, negate = kind == 1 || kind == 3;
  int r = swap ? tup_less(c, order, b, a) : tup_less(c, order, a, b);
  return lytI_bool(negate ? !r : r);
}
#define CMP(name, order, kind) \
  static lyt_value b_##name(lytI_call *c) { return compare(c, order, kind); }
CMP(lex_less, LEX, 0) CMP(lex_leq, LEX, 1) CMP(lex_gtr, LEX, 2) CMP(lex_geq, LEX, 3)
CMP(colex_less, COLEX, 0) CMP(colex_leq, COLEX, 1) CMP(colex_gtr, COLEX, 2) CMP(colex_geq, COLEX, 3)
CMP(elem_less, ELEM, 0) CMP(elem_leq, ELEM, 1) CMP(elem_gtr, ELEM, 2) CMP(elem_geq, ELEM, 3)

static lyt_value b_product_each(lytI_call *c) {
  lytS_tup *t = tup_or_shape(c, 0);
  lytS_tup *r = lytS_product_each(CX(c), t);
  if (!lytS_istup(t)) {  /* CuTe's product_each(3) is the rank-1 tuple (3) */
    lytS_tup *one = lytS_newtup(CX(c), 1);
    one->e[0] = r;
    r = one;
  }
  return ret_tup(c, r);
}

static lyt_value b_prefix_product(lytI_call *c) {
  return ret_tup(c, lytS_prefix_product(CX(c), lytI_gettup(c, 0)));
}

static lyt_value b_inner_product(lytI_call *c) {
  return lytI_int(lytS_inner_product(CX(c), lytI_gettup(c, 0), lytI_gettup(c, 1)));
}

static lyt_value b_congruent(lytI_call *c) {
  return lytI_bool(lytS_congruent(tup_or_shape(c, 0), tup_or_shape(c, 1)));
}

static lyt_value b_weakly_congruent(lytI_call *c) {
  return lytI_bool(lytS_weakly_congruent(tup_or_shape(c, 0), tup_or_shape(c, 1)));
}

static lyt_value b_compatible(lytI_call *c) {
  return lytI_bool(lytS_compatible(CX(c), tup_or_shape(c, 0), tup_or_shape(c, 1)));
}

/* ------------------------------------------------------------------ */
/* the table                                                           */
/* ------------------------------------------------------------------ */

#define P(...) { __VA_ARGS__, NULL }
#define V LYTI_VARIADIC

const lytI_builtin lytI_stride_lib[] = {
  { "size", b_size, 1, V, P("x"), "size(x, i...): number of elements of (mode i... of) x",
    "size((4,(2,3)):(2,(1,8)), 1)" },
  { "cosize", b_cosize, 1, 0, P("L"), "cosize(L): sum (s-1)|d| + 1 over L's leaves",
    "cosize((4,2):(2,1))" },
  { "rank", b_rank, 1, V, P("x"), "rank(x, i...): number of modes",
    "rank((4,(2,3)):(2,(1,8)))" },
  { "depth", b_depth, 1, V, P("x"), "depth(x, i...): nesting depth (an int is 0)",
    "depth((4,(2,3)):(2,(1,8)))" },
  { "shape", b_shape, 1, V, P("L"), "shape(L, i...): shape of (mode i... of) L",
    "shape((4,(2,3)):(2,(1,8)))" },
  { "stride", b_stride, 1, V, P("L"), "stride(L, i...): stride of (mode i... of) L",
    "stride((4,(2,3)):(2,(1,8)), 1)" },
  { "get", b_get, 1, V, P("L"), "get(L, i...): the sub-layout at mode path i...",
    "get((4,(2,3)):(2,(1,8)), 1, 0)" },
  { "select", b_select, 1, V, P("L"), "select(L, i...): the chosen modes of L",
    "select((4,(2,3)):(2,(1,8)), 1, 0)" },
  { "take", b_take, 3, 0, P("L", "b", "e"), "take(L, b, e): modes [b,e) of L",
    "take((4,2,3):(1,4,8), 1, 3)" },
  { "group", b_group, 3, 0, P("L", "b", "e"), "group(L, b, e): wrap modes [b,e) into one",
    "group((4,2,3):(1,4,8), 1, 3)" },
  { "flatten", b_flatten, 1, 0, P("x"), "flatten(x): remove all nesting",
    "flatten((4,(2,3)):(2,(1,8)))" },
  { "append", b_append, 1, 0, P("L", "X"), "append(L, X=1:0): add X as a last mode",
    "append((4,2):(1,4), 3:8)" },
  { "prepend", b_prepend, 1, 0, P("L", "X"), "prepend(L, X=1:0): add X as a first mode",
    "prepend((4,2):(1,4), 3:8)" },
  { "replace", b_replace, 3, 0, P("L", "i", "X"), "replace(L, i, X): mode i becomes X",
    "replace((4,2):(1,4), 1, 3:8)" },
  { "make_layout", b_make_layout, 1, V, P("shape"),
    "make_layout(shape[, stride|LayoutLeft|LayoutRight]) or make_layout(L0, L1, ...): a layout of a shape (compact, column-major unless LayoutRight) or the concatenation of layouts as modes",
    "make_layout((4,2), LayoutRight)" },
  { "make_shape", b_make_tuple, 0, V, P("x"), "make_shape(a, b, ...): the tuple (a, b, ...), as CuTe C++ writes a shape",
    "make_shape(4, (2, 3))" },
  { "make_stride", b_make_tuple, 0, V, P("x"), "make_stride(a, b, ...): the tuple (a, b, ...), as CuTe C++ writes a stride",
    "make_stride(1, (4, 8))" },
  { "make_coord", b_make_tuple, 0, V, P("x"), "make_coord(a, b, ...): the tuple (a, b, ...), as CuTe C++ writes a coordinate",
    "make_coord(1, 2)" },
  { "make_ordered_layout", b_make_ordered, 2, 0, P("shape", "order"),
    "make_ordered_layout(shape, order): compact strides ranked by order",
    "make_ordered_layout((2,2,2,2), (0,2,3,1))" },
  { "make_layout_like", b_make_like, 1, 0, P("L"),
    "make_layout_like(L): compact layout ordered like L's strides",
    "make_layout_like((2,3,4):(12,1,3))" },
  { "make_identity_layout", b_make_identity, 1, 0, P("shape"),
    "make_identity_layout(shape): coordinate -> coordinate, basis strides",
    "make_identity_layout((2,3))" },
  { "crd2idx", b_crd2idx, 2, 0, P("c", "shape", "stride"),
    "crd2idx(c, shape[, stride]): coordinate to index (CuTe's extension rule)",
    "crd2idx((1,5), (3,(2,3)))" },
  { "idx2crd", b_idx2crd, 2, 0, P("i", "shape", "stride"),
    "idx2crd(i, shape[, stride]): index to natural coordinate",
    "idx2crd(16, (3,(2,3)))" },
  { "slice", b_slice, 2, 0, P("c", "L"), "slice(c, L): keep the modes where c is _",
    "slice((_,1), (3,4):(1,3))" },
  { "dice", b_dice, 2, 0, P("c", "L"), "dice(c, L): keep the modes where c is an integer",
    "dice((0,_,1), (2,3,4):(1,2,6))" },
  { "slice_and_offset", b_slice_and_offset, 2, 0, P("c", "L"),
    "slice_and_offset(c, L): (slice(c, L), L(c with _ as 0))",
    "slice_and_offset((1,_,2), (2,3,4):(1,2,6))" },
  { "coalesce", b_coalesce, 1, 0, P("L", "profile"), "coalesce(L[, profile]): merge modes",
    "coalesce((2,(1,6)):(1,(6,2)))" },
  { "filter", b_filter, 1, 0, P("L", "profile"),
    "filter(L[, profile]): drop stride-0 and size-1 modes, coalesce",
    "filter((2,3,4):(1,0,2))" },
  { "filter_zeros", b_filter_zeros, 1, 0, P("L", "profile"),
    "filter_zeros(L[, profile]): extent 1 where the stride is 0",
    "filter_zeros((2,3):(1,0))" },
  { "composition", b_composition, 2, 0, P("A", "B"),
    "composition(A, B): A o B as CuTe computes it, refused where that is not exact",
    "composition((6,2):(8,2), (4,3):(3,1))" },
  { "complement", b_complement, 1, 0, P("A", "cotarget"),
    "complement(A[, cotarget]): the ordered layout of what A misses",
    "complement(4:2, 24)" },
  { "right_inverse", b_right_inverse, 1, 0, P("L"), "right_inverse(L): L(R(i)) == i",
    "right_inverse((2,4,6):(4,1,8))" },
  { "left_inverse", b_left_inverse, 1, 0, P("L"), "left_inverse(L): R(L(i)) == i",
    "left_inverse(4:2)" },
  { "logical_divide", b_logical_divide, 2, 0, P("A", "B"), "logical_divide(A, B): A split by the tiler B into (tile, rest of A) per mode",
    "logical_divide((4,2,3):(2,1,8), 4:2)" },
  { "zipped_divide", b_zipped_divide, 2, 0, P("A", "B"), "zipped_divide(A, B): logical_divide with the tiles gathered into mode 0 and the rests into mode 1",
    "zipped_divide((9,(4,8)):(59,(13,1)), [3:3,(2,4):(1,8)])" },
  { "tiled_divide", b_tiled_divide, 2, 0, P("A", "B"), "tiled_divide(A, B): zipped_divide with the rest modes flattened: (tile, rest0, rest1, ...)",
    "tiled_divide((9,(4,8)):(59,(13,1)), [3:3,(2,4):(1,8)])" },
  { "flat_divide", b_flat_divide, 2, 0, P("A", "B"), "flat_divide(A, B): zipped_divide with tile and rest modes all flattened",
    "flat_divide((9,(4,8)):(59,(13,1)), [3:3,(2,4):(1,8)])" },
  { "logical_product", b_logical_product, 2, 0, P("A", "B"), "logical_product(A, B): A repeated in the layout B: (A, complement(A) o B)",
    "logical_product((2,2):(4,1), 6:1)" },
  { "zipped_product", b_zipped_product, 2, 0, P("A", "B"), "zipped_product(A, B): the product with A's modes in mode 0 and B's in mode 1",
    "zipped_product((2,5):(5,1), (3,4):(1,3))" },
  { "tiled_product", b_tiled_product, 2, 0, P("A", "B"), "tiled_product(A, B): zipped_product with B's modes flattened: (A, B0, B1, ...)",
    "tiled_product((2,5):(5,1), (3,4):(1,3))" },
  { "flat_product", b_flat_product, 2, 0, P("A", "B"), "flat_product(A, B): zipped_product with all modes flattened",
    "flat_product((2,5):(5,1), (3,4):(1,3))" },
  { "blocked_product", b_blocked_product, 2, 0, P("A", "B"), "blocked_product(A, B): A as a block repeated over B, mode by mode (A's elements contiguous)",
    "blocked_product((2,5):(5,1), (3,4):(1,3))" },
  { "raked_product", b_raked_product, 2, 0, P("A", "B"), "raked_product(A, B): A interleaved across B, mode by mode (B's elements contiguous)",
    "raked_product((2,5):(5,1), (3,4):(1,3))" },
  { "tile_to_shape", b_tile_to_shape, 2, 0, P("block", "shape", "order"),
    "tile_to_shape(block, shape[, order]): repeat block to fill shape",
    "tile_to_shape((2,2):(2,1), (4,6))" },
  { "max_common_layout", b_max_common_layout, 2, 0, P("a", "b"),
    "max_common_layout(a, b): the largest common contiguous sub-layout",
    "max_common_layout((4,8):(1,4), (4,8):(1,4))" },
  { "max_common_vector", b_max_common_vector, 2, 0, P("a", "b"),
    "max_common_vector(a, b): its size",
    "max_common_vector((4,8):(1,4), (4,8):(1,4))" },
  { "nullspace", b_nullspace, 1, 0, P("L"), "nullspace(L): the coordinates L maps to 0",
    "nullspace((2,3,4):(0,1,0))" },
  { "upcast", b_upcast, 2, 0, P("L", "n"), "upcast(L, n): n elements become one",
    "upcast((8,4):(1,8), 2)" },
  { "downcast", b_downcast, 2, 0, P("L", "n"), "downcast(L, n): one element becomes n",
    "downcast((8,4):(1,8), 2)" },
  { "swizzle", b_swizzle, 2, 0, P("B", "M", "S"), "swizzle(B, M[, S=B]): Swizzle<B,M,S>",
    "composition(swizzle(3,4,3), (8,64):(64,1))" },
  { "make_composed_layout", b_make_composed, 3, 0, P("sw", "offset", "L"),
    "make_composed_layout(sw, offset, L): sw o offset o L",
    "make_composed_layout(swizzle(3,4,3), 32, (8,64):(64,1))" },
  { "shape_div", b_shape_div, 2, 0, P("a", "b"), "shape_div(a, b): CuTe's shape division",
    "shape_div((4,5,6), 40)" },
  { "ceil_div", b_ceil_div, 2, 0, P("a", "b"), "ceil_div(a, b): folding ceiling division",
    "ceil_div((12,32), (4,8):(1,4))" },
  { "compact_col_major", b_compact_col_major, 1, 0, P("shape", "current"),
    "compact_col_major(shape[, current]): column-major strides from current (1), CuTe's",
    "compact_col_major((2,(3,4)), (1,(2,100)))" },
  { "compact_row_major", b_compact_row_major, 1, 0, P("shape", "current"),
    "compact_row_major(shape[, current]): row-major strides from current (1), CuTe's",
    "compact_row_major((2,3,4), 5)" },
  { "get_hier_coord", b_get_hier_coord, 2, 0, P("L", "i"),
    "get_hier_coord(L, i): the natural coordinate whose offset is i (compact L)",
    "get_hier_coord((2,(3,4)):(12,(1,3)), 13)" },
  { "get_flat_coord", b_get_flat_coord, 2, 0, P("L", "i"),
    "get_flat_coord(L, i): get_hier_coord with each mode's coordinate made 1-D",
    "get_flat_coord((2,(3,4)):(12,(1,3)), 13)" },
  { "get_1d_coord", b_get_1d_coord, 2, 0, P("L", "i"),
    "get_1d_coord(L, i): the index whose offset is i (compact L)",
    "get_1d_coord((2,(3,4)):(12,(1,3)), 13)" },
  { "domain_distribute", b_domain_distribute, 2, 0, P("shape", "n"),
    "domain_distribute(shape, n): n elements of shape, spread over its leaves (CuTe's)",
    "domain_distribute((15,14), 6)" },
  { "lex_less", b_lex_less, 2, 0, P("a", "b"), "lex_less(a, b): a before b, first mode most significant", "lex_less((1,2), (1,3))" },
  { "lex_leq", b_lex_leq, 2, 0, P("a", "b"), "lex_leq(a, b): not lex_less(b, a)", "lex_leq((1,2), (1,2))" },
  { "lex_gtr", b_lex_gtr, 2, 0, P("a", "b"), "lex_gtr(a, b): lex_less(b, a)", "lex_gtr((2,0), (1,9))" },
  { "lex_geq", b_lex_geq, 2, 0, P("a", "b"), "lex_geq(a, b): not lex_less(a, b)", "lex_geq((1,2), (1,3))" },
  { "colex_less", b_colex_less, 2, 0, P("a", "b"), "colex_less(a, b): a before b, last mode most significant", "colex_less((2,1), (1,2))" },
  { "colex_leq", b_colex_leq, 2, 0, P("a", "b"), "colex_leq(a, b): not colex_less(b, a)", "colex_leq((1,2), (1,2))" },
  { "colex_gtr", b_colex_gtr, 2, 0, P("a", "b"), "colex_gtr(a, b): colex_less(b, a)", "colex_gtr((0,2), (9,1))" },
  { "colex_geq", b_colex_geq, 2, 0, P("a", "b"), "colex_geq(a, b): not colex_less(a, b)", "colex_geq((2,1), (1,2))" },
  { "elem_less", b_elem_less, 2, 0, P("a", "b"), "elem_less(a, b): every mode of a below b's", "elem_less((1,2), (2,3))" },
  { "elem_leq", b_elem_leq, 2, 0, P("a", "b"), "elem_leq(a, b): not elem_less(b, a)", "elem_leq((1,2), (1,2))" },
  { "elem_gtr", b_elem_gtr, 2, 0, P("a", "b"), "elem_gtr(a, b): elem_less(b, a)", "elem_gtr((3,4), (1,2))" },
  { "elem_geq", b_elem_geq, 2, 0, P("a", "b"), "elem_geq(a, b): not elem_less(a, b)", "elem_geq((1,2), (2,3))" },
  { "product_each", b_product_each, 1, 0, P("t"), "product_each(t): size of each mode",
    "product_each((4,(2,3)))" },
  { "prefix_product", b_prefix_product, 1, 0, P("t"), "prefix_product(t): exclusive",
    "prefix_product((3,(2,2),4))" },
  { "inner_product", b_inner_product, 2, 0, P("a", "b"), "inner_product(a, b): the sum of products of congruent integer tuples",
    "inner_product((2,3), (4,5))" },
  { "congruent", b_congruent, 2, 0, P("a", "b"), "congruent(a, b): same profile",
    "congruent((4,(2,3)), (2,(1,8)))" },
  { "weakly_congruent", b_weakly_congruent, 2, 0, P("a", "b"), "weakly_congruent(a, b): a's profile is b's with whole sub-tuples possibly replaced by integers",
    "weakly_congruent(4, (2,(1,8)))" },
  { "compatible", b_compatible, 2, 0, P("a", "b"), "compatible(a, b): a's coordinates fit b",
    "compatible(24, (4,6))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL }
};
