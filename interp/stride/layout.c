/*
** stride/layout.c: CuTe layouts as values: construction, hierarchical access,
** evaluation, slicing and printing (stride core, lytS_).
**
** A layout is a pair of congruent IntTuples. The constructors follow CuTe
** C++ with static integers: LayoutLeft gives a size-1 leaf the stride 0,
** make_ordered_layout ranks leaves by a static order, identity layouts get
** basis strides. Access functions mirror get/select/take/group/append and
** fail (never assert) on a bad index. The flat view at the end is what the
** algebra files (coalesce, compose, tiling) work on.
*/
#include "interp/stride/layout.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* helpers                                                             */
/* ------------------------------------------------------------------ */

static lytS_layout mk(lytS_tup *s, lytS_tup *d) {
  lytS_layout l = { s, d };
  return l;
}

/* A tuple congruent with t whose leaves are vals[*k], vals[*k+1], ... */
static lytS_tup *refill(lytS_ctx *cx, const lytS_tup *t, const int64_t *vals, int32_t *k) {
  if (!lytS_istup(t)) return lytS_int(cx, vals[(*k)++]);
  lytS_tup *r = lytS_newtup(cx, t->n);
  for (int32_t i = 0; i < t->n; i++) r->e[i] = refill(cx, t->e[i], vals, k);
  return r;
}

static int64_t *leaf_values(lytS_ctx *cx, const lytS_tup *t, int32_t *n) {
  int32_t m = lytS_nleaves(t);
  lytS_tup **lv = lytS_alloc(cx, sizeof *lv * (size_t)(m ? m : 1));
  int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)(m ? m : 1));
  *n = 0;
  lytS_leaves(t, lv, n);
  for (int32_t i = 0; i < m; i++) v[i] = lv[i]->v;
  return v;
}

static int stride_congruent(const lytS_tup *s, const lytS_tup *d) {
  if (lytS_istup(s) != lytS_istup(d)) return 0;
  if (!lytS_istup(s)) return lytS_isint(d) || lytS_isbasis(d);
  if (s->n != d->n) return 0;
  for (int32_t i = 0; i < s->n; i++)
    if (!stride_congruent(s->e[i], d->e[i])) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* construction                                                        */
/* ------------------------------------------------------------------ */

/* Both of make_layout's checks in one walk: positive integer extents,
** strides congruent with them. */
static int well_formed(const lytS_tup *s, const lytS_tup *d) {
  if (!lytS_istup(s)) return lytS_isint(s) && s->v > 0 && (lytS_isint(d) || lytS_isbasis(d));
  if (!lytS_istup(d) || d->n != s->n) return 0;
  for (int32_t i = 0; i < s->n; i++)
    if (!well_formed(s->e[i], d->e[i])) return 0;
  return 1;
}

lytS_layout lytS_make_layout(lytS_ctx *cx, lytS_tup *shape, lytS_tup *stride) {
  if (well_formed(shape, stride)) return mk(shape, stride);
  /* the checks one at a time, for the message of the first that fails */
  lytS_check_shape(cx, shape, "make_layout");
  if (!stride_congruent(shape, stride))
    lytS_fail(cx, LYT_ERRRUN, "make_layout: stride %s is not congruent with shape %s",
              lytS_tup_str(cx, stride), lytS_tup_str(cx, shape));
  return mk(shape, stride);
}

lytS_layout lytS_int_layout(lytS_ctx *cx, int64_t s, int64_t d) {
  return mk(lytS_int(cx, s), lytS_int(cx, d));
}

/* Compact strides over the leaves in the order given by idx[], starting
** from run; a size-1 leaf gets stride 0, as CuTe does for a static 1. */
static lytS_layout compact_from(lytS_ctx *cx, lytS_tup *shape, const int32_t *idx, int64_t run) {
  int32_t n;
  int64_t *s = leaf_values(cx, shape, &n);
  int64_t *d = lytS_alloc(cx, sizeof *d * (size_t)(n ? n : 1));
  for (int32_t k = 0; k < n; k++) {
    int32_t i = idx[k];
    d[i] = s[i] == 1 ? 0 : run;
    run = lytS_mul(cx, run, s[i]);
  }
  int32_t k = 0;
  return mk(shape, refill(cx, shape, d, &k));
}

static lytS_layout compact(lytS_ctx *cx, lytS_tup *shape, const int32_t *idx) {
  return compact_from(cx, shape, idx, 1);
}

static int32_t *iota(lytS_ctx *cx, int32_t n, int reverse) {
  int32_t *idx = lytS_alloc(cx, sizeof *idx * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) idx[i] = reverse ? n - 1 - i : i;
  return idx;
}

lytS_layout lytS_make_left(lytS_ctx *cx, lytS_tup *shape) {
  lytS_check_shape(cx, shape, "make_layout");
  return compact(cx, shape, iota(cx, lytS_nleaves(shape), 0));
}

lytS_layout lytS_make_right(lytS_ctx *cx, lytS_tup *shape) {
  lytS_check_shape(cx, shape, "make_layout");
  return compact(cx, shape, iota(cx, lytS_nleaves(shape), 1));
}

/* CuTe's compact_major: a tuple current applies mode by mode (it must be
** congruent with the shape down to its own leaves); an integer current
** is the stride of the first leaf in the major order. */
lytS_tup *lytS_compact_major(lytS_ctx *cx, lytS_tup *shape, const lytS_tup *current, int right,
                             const char *op) {
  if (lytS_istup(current)) {
    if (!lytS_istup(shape) || shape->n != current->n)
      lytS_fail(cx, LYT_ERRRUN, "%s: current %s has %d modes but shape %s has %d", op,
                lytS_tup_str(cx, current), current->n, lytS_tup_str(cx, shape),
                lytS_istup(shape) ? shape->n : 1);
    lytS_tup *t = lytS_newtup(cx, shape->n);
    for (int32_t i = 0; i < shape->n; i++)
      t->e[i] = lytS_compact_major(cx, shape->e[i], current->e[i], right, op);
    return t;
  }
  if (!lytS_isint(current))
    lytS_fail(cx, LYT_ERRRUN, "%s: current %s is not an integer", op, lytS_tup_str(cx, current));
  return compact_from(cx, shape, iota(cx, lytS_nleaves(shape), right), current->v).stride;
}

/* CuTe's compact_order: a leaf's stride is the product of the extents whose
** order is strictly smaller (equal orders share a stride, as in C++). */
static lytS_layout ordered(lytS_ctx *cx, lytS_tup *shape, const int64_t *s,
                           const int64_t *o, int32_t n) {
  int64_t *d = lytS_alloc(cx, sizeof *d * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) {
    int64_t p = 1;
    for (int32_t j = 0; j < n; j++)
      if (o[j] < o[i]) p = lytS_mul(cx, p, s[j]);
    d[i] = s[i] == 1 ? 0 : p;
  }
  int32_t k = 0;
  return mk(shape, refill(cx, shape, d, &k));
}

static void check_int_tree(lytS_ctx *cx, const lytS_tup *t, const char *what) {
  if (lytS_istup(t)) {
    for (int32_t i = 0; i < t->n; i++) check_int_tree(cx, t->e[i], what);
  } else if (!lytS_isint(t)) {
    lytS_fail(cx, LYT_ERRRUN, "%s: %s is not an integer", what, lytS_tup_str(cx, t));
  }
}

lytS_layout lytS_make_ordered(lytS_ctx *cx, lytS_tup *shape, const lytS_tup *order) {
  lytS_check_shape(cx, shape, "make_ordered_layout");
  check_int_tree(cx, order, "make_ordered_layout");
  if (!lytS_congruent(shape, order))
    lytS_fail(cx, LYT_ERRRUN, "make_ordered_layout: order %s is not congruent with shape %s",
              lytS_tup_str(cx, order), lytS_tup_str(cx, shape));
  int32_t n, m;
  int64_t *s = leaf_values(cx, shape, &n);
  int64_t *o = leaf_values(cx, order, &m);
  return ordered(cx, shape, s, o, n);
}

lytS_layout lytS_make_like(lytS_ctx *cx, lytS_layout l) {
  check_int_tree(cx, l.stride, "make_layout_like");
  int32_t n, m;
  int64_t *s = leaf_values(cx, l.shape, &n);
  int64_t *o = leaf_values(cx, l.stride, &m);
  for (int32_t i = 0; i < n; i++)
    if (o[i] == 0) s[i] = 1;  /* filter_zeros: stride-0 leaves keep stride 0 */
  return ordered(cx, l.shape, s, o, n);
}

static lytS_tup *basis_like(lytS_ctx *cx, const lytS_tup *t, uint8_t *path, int np) {
  if (!lytS_istup(t)) return lytS_basis(cx, 1, path, np);
  if (np >= LYT_BASIS_MAX)
    lytS_fail(cx, LYT_ERRLIMIT, "make_identity_layout: shape nested deeper than %d",
              LYT_BASIS_MAX);
  lytS_tup *r = lytS_newtup(cx, t->n);
  for (int32_t i = 0; i < t->n; i++) {
    if (i > 255) lytS_fail(cx, LYT_ERRLIMIT, "make_identity_layout: rank over 256");
    path[np] = (uint8_t)i;
    r->e[i] = basis_like(cx, t->e[i], path, np + 1);
  }
  return r;
}

lytS_layout lytS_make_identity(lytS_ctx *cx, lytS_tup *shape) {
  lytS_check_shape(cx, shape, "make_identity_layout");
  uint8_t path[LYT_BASIS_MAX];
  return mk(shape, basis_like(cx, shape, path, 0));
}

lytS_layout lytS_concat(lytS_ctx *cx, const lytS_layout *ls, int32_t n) {
  lytS_tup *s = lytS_newtup(cx, n), *d = lytS_newtup(cx, n);
  for (int32_t i = 0; i < n; i++) {
    s->e[i] = ls[i].shape;
    d->e[i] = ls[i].stride;
  }
  return mk(s, d);
}

/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */

int32_t lytS_lrank(lytS_layout l) { return lytS_rank(l.shape); }
int32_t lytS_ldepth(lytS_layout l) { return lytS_depth(l.shape); }
int64_t lytS_lsize(lytS_ctx *cx, lytS_layout l) { return lytS_size(cx, l.shape); }

int lytS_layout_eq(lytS_layout a, lytS_layout b) {
  return lytS_tup_eq(a.shape, b.shape) && lytS_tup_eq(a.stride, b.stride);
}

int64_t lytS_cosize(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  int64_t c = 1;
  for (int32_t i = 0; i < f.n; i++) {
    int64_t d = lytS_dint(cx, f.d[i], "cosize");
    if (d == INT64_MIN) lytS_fail(cx, LYT_ERRRUN, "cosize: stride overflow");
    c = lytS_add(cx, c, lytS_mul(cx, f.s[i] - 1, d < 0 ? -d : d));
  }
  return c;
}

/* ------------------------------------------------------------------ */
/* access                                                              */
/* ------------------------------------------------------------------ */

static void check_index(lytS_ctx *cx, int64_t i, int32_t r, const char *op) {
  if (i < 0 || i >= r)
    lytS_fail(cx, LYT_ERRRUN, "%s: mode index %lld out of range for rank %d", op,
              (long long)i, r);
}

lytS_layout lytS_lmode(lytS_ctx *cx, lytS_layout l, int32_t i) {
  check_index(cx, i, lytS_lrank(l), "get");
  return mk(lytS_mode(l.shape, i), lytS_mode(l.stride, i));
}

lytS_layout lytS_get(lytS_ctx *cx, lytS_layout l, const int64_t *path, int32_t n) {
  for (int32_t k = 0; k < n; k++) {
    check_index(cx, path[k], lytS_lrank(l), "get");
    l = lytS_lmode(cx, l, (int32_t)path[k]);
  }
  return l;
}

lytS_tup *lytS_get_tup(lytS_ctx *cx, const lytS_tup *t, const int64_t *path, int32_t n) {
  for (int32_t k = 0; k < n; k++) {
    check_index(cx, path[k], lytS_rank(t), "get");
    t = lytS_mode(t, (int32_t)path[k]);
  }
  return (lytS_tup *)t;
}

lytS_layout lytS_select(lytS_ctx *cx, lytS_layout l, const int64_t *idx, int32_t n) {
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(n ? n : 1));
  for (int32_t k = 0; k < n; k++) {
    check_index(cx, idx[k], lytS_lrank(l), "select");
    ms[k] = lytS_lmode(cx, l, (int32_t)idx[k]);
  }
  return lytS_concat(cx, ms, n);
}

static lytS_layout range_modes(lytS_ctx *cx, lytS_layout l, int64_t b, int64_t e,
                               const char *op) {
  int32_t r = lytS_lrank(l);
  if (b >= e)
    lytS_fail(cx, LYT_ERRRUN, "%s: range [%lld,%lld) is empty (needs b < e)", op,
              (long long)b, (long long)e);
  if (b < 0 || e > r)
    lytS_fail(cx, LYT_ERRRUN, "%s: range [%lld,%lld) is outside the modes [0,%d) of the "
              "layout", op, (long long)b, (long long)e, r);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(e - b));
  for (int64_t k = b; k < e; k++) ms[k - b] = lytS_lmode(cx, l, (int32_t)k);
  return lytS_concat(cx, ms, (int32_t)(e - b));
}

lytS_layout lytS_take(lytS_ctx *cx, lytS_layout l, int64_t b, int64_t e) {
  return range_modes(cx, l, b, e, "take");
}

lytS_layout lytS_group(lytS_ctx *cx, lytS_layout l, int64_t b, int64_t e) {
  lytS_layout mid = range_modes(cx, l, b, e, "group");
  int32_t r = lytS_lrank(l);
  int32_t n = (int32_t)(r - (e - b) + 1);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)n);
  int32_t k = 0;
  for (int32_t i = 0; i < b; i++) ms[k++] = lytS_lmode(cx, l, i);
  ms[k++] = mid;
  for (int32_t i = (int32_t)e; i < r; i++) ms[k++] = lytS_lmode(cx, l, i);
  return lytS_concat(cx, ms, n);
}

lytS_layout lytS_lflatten(lytS_ctx *cx, lytS_layout l) {
  return mk(lytS_flatten(cx, l.shape), lytS_flatten(cx, l.stride));
}

/* The modes of l as an array (an integral layout is its own single mode). */
static lytS_layout *modes_of(lytS_ctx *cx, lytS_layout l, int32_t extra, int32_t *n) {
  *n = lytS_lrank(l);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(*n + extra));
  for (int32_t i = 0; i < *n; i++) ms[i] = lytS_lmode(cx, l, i);
  return ms;
}

lytS_layout lytS_append(lytS_ctx *cx, lytS_layout l, lytS_layout x) {
  int32_t n;
  lytS_layout *ms = modes_of(cx, l, 1, &n);
  ms[n] = x;
  return lytS_concat(cx, ms, n + 1);
}

lytS_layout lytS_prepend(lytS_ctx *cx, lytS_layout l, lytS_layout x) {
  int32_t n;
  lytS_layout *ms = modes_of(cx, l, 1, &n);
  memmove(ms + 1, ms, sizeof *ms * (size_t)n);
  ms[0] = x;
  return lytS_concat(cx, ms, n + 1);
}

lytS_layout lytS_append_to(lytS_ctx *cx, lytS_layout l, int32_t r) {
  int32_t n;
  if (lytS_lrank(l) >= r) return l;
  lytS_layout *ms = modes_of(cx, l, r, &n);
  for (int32_t i = n; i < r; i++) ms[i] = lytS_int_layout(cx, 1, 0);
  return lytS_concat(cx, ms, r);
}

lytS_layout lytS_replace(lytS_ctx *cx, lytS_layout l, int64_t i, lytS_layout x) {
  check_index(cx, i, lytS_lrank(l), "replace");
  if (!lytS_istup(l.shape)) return x;
  int32_t n;
  lytS_layout *ms = modes_of(cx, l, 0, &n);
  ms[i] = x;
  return lytS_concat(cx, ms, n);
}

/* ------------------------------------------------------------------ */
/* evaluation and slicing                                              */
/* ------------------------------------------------------------------ */

lytS_tup *lytS_eval(lytS_ctx *cx, lytS_layout l, const lytS_tup *c) {
  return lytS_crd2idx(cx, c, l.shape, l.stride);
}

int64_t lytS_eval_i(lytS_ctx *cx, lytS_layout l, int64_t i) {
  return lytS_crd2idx_i64(cx, i, l.shape, l.stride);
}

typedef struct pieces { lytS_tup **e; int32_t n; } pieces;

/* lift: slice keeps `_` positions, dice keeps the integer ones; a nested
** coordinate splices what it keeps into the parent. */
static void lift(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t, int keep_under,
                 pieces *out) {
  if (lytS_istup(c)) {
    if (!lytS_istup(t) || t->n != c->n)
      lytS_fail(cx, LYT_ERRRUN, "%s: coordinate %s does not match shape %s",
                keep_under ? "slice" : "dice", lytS_tup_str(cx, c), lytS_tup_str(cx, t));
    for (int32_t i = 0; i < c->n; i++) lift(cx, c->e[i], t->e[i], keep_under, out);
    return;
  }
  if (lytS_isunder(c) == keep_under) out->e[out->n++] = (lytS_tup *)t;
}

static lytS_tup *cut(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t, int keep_under) {
  if (!lytS_istup(c)) {
    if (lytS_isunder(c) == keep_under) return (lytS_tup *)t;
    return lytS_newtup(cx, 0);
  }
  pieces p;
  p.e = lytS_alloc(cx, sizeof *p.e * (size_t)(lytS_nleaves(c) + 1));
  p.n = 0;
  lift(cx, c, t, keep_under, &p);
  lytS_tup *r = lytS_newtup(cx, p.n);
  for (int32_t i = 0; i < p.n; i++) r->e[i] = p.e[i];
  return r;
}

lytS_tup *lytS_slice_tup(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t) {
  return cut(cx, c, t, 1);
}

lytS_tup *lytS_dice_tup(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t) {
  return cut(cx, c, t, 0);
}

/* The shape first, so that a mismatch is reported against the shape. */
lytS_layout lytS_slice(lytS_ctx *cx, const lytS_tup *c, lytS_layout l) {
  lytS_tup *s = lytS_slice_tup(cx, c, l.shape);
  return mk(s, lytS_slice_tup(cx, c, l.stride));
}

lytS_layout lytS_dice(lytS_ctx *cx, const lytS_tup *c, lytS_layout l) {
  lytS_tup *s = lytS_dice_tup(cx, c, l.shape);
  return mk(s, lytS_dice_tup(cx, c, l.stride));
}

lytS_layout lytS_slice_and_offset(lytS_ctx *cx, const lytS_tup *c, lytS_layout l,
                                  int64_t *offset) {
  lytS_layout r = lytS_slice(cx, c, l);
  *offset = lytS_crd2idx_int(cx, c, l.shape, l.stride);  /* `_` counts as 0 */
  return r;
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

void lytS_print_layout(lytS_buf *b, lytS_layout l) {
  lytS_print_tup(b, l.shape);
  lytS_buf_putc(b, ':');
  lytS_print_tup(b, l.stride);
}

const char *lytS_layout_str(lytS_ctx *cx, lytS_layout l) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_print_layout(&b, l);
  return b.p;
}

/* ------------------------------------------------------------------ */
/* flat view                                                           */
/* ------------------------------------------------------------------ */

/* Shape and stride walked together, leaf k of one beside leaf k of the
** other; 0 where the two are not congruent (a basis stride is a leaf). */
static int flat_walk(const lytS_tup *s, const lytS_tup *d, lytS_flat *f) {
  if (!lytS_istup(s)) {
    if (lytS_istup(d)) return 0;
    f->s[f->n] = s->v;
    f->d[f->n++] = (lytS_tup *)d;
    return 1;
  }
  if (!lytS_istup(d) || d->n != s->n) return 0;
  for (int32_t i = 0; i < s->n; i++) {
    const lytS_tup *a = s->e[i], *b = d->e[i];
    if (!lytS_istup(a) && !lytS_istup(b)) {  /* most are leaves: no call for them */
      f->s[f->n] = a->v;
      f->d[f->n++] = (lytS_tup *)b;
    } else if (!flat_walk(a, b, f)) {
      return 0;
    }
  }
  return 1;
}

lytS_flat lytS_flat_of(lytS_ctx *cx, lytS_layout l) {
  int32_t n = lytS_nleaves(l.shape), m = 0;
  lytS_flat f = lytS_flat_new(cx, n);
  if (flat_walk(l.shape, l.stride, &f)) return (lytS_flat){ f.n, f.s, f.d };  /* (layout.h) */
  /* sides that nest differently (no layout the core makes; checked by the
  ** tests): their leaves are paired in order */
  lytS_tup **sv = lytS_alloc(cx, sizeof *sv * (size_t)(n ? n : 1));
  lytS_leaves(l.shape, sv, &m);
  m = 0;
  lytS_leaves(l.stride, f.d, &m);
  for (int32_t i = 0; i < n; i++) f.s[i] = sv[i]->v;
  f.n = n;
  return f;
}

lytS_layout lytS_flat_layout(lytS_ctx *cx, const lytS_flat *f) {
  if (f->n == 0) return lytS_int_layout(cx, 1, 0);
  if (f->n == 1) return mk(lytS_int(cx, f->s[0]), f->d[0]);
  lytS_tup *s = lytS_newtup(cx, f->n), *d = lytS_newtup(cx, f->n);
  for (int32_t i = 0; i < f->n; i++) {
    s->e[i] = lytS_int(cx, f->s[i]);
    d->e[i] = f->d[i];
  }
  return mk(s, d);
}

int64_t lytS_dint(lytS_ctx *cx, const lytS_tup *d, const char *op) {
  if (!lytS_isint(d))
    lytS_fail(cx, LYT_ERRRUN, "%s: needs integer strides, not the basis stride %s", op,
              lytS_tup_str(cx, d));
  return d->v;
}

lytS_tup *lytS_dscale(lytS_ctx *cx, const lytS_tup *d, int64_t k) {
  if (lytS_isint(d)) return lytS_int(cx, lytS_mul(cx, d->v, k));
  return lytS_basis(cx, lytS_mul(cx, d->v, k), d->path, d->npath);
}
