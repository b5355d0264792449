/*
** stride/tiling.c: divides, products, tile_to_shape and the smaller utilities
** built on composition and complement (stride core, lytS_).
**
** logical_divide(A,B) = A o (B, complement(B, shape(coalesce(A))));
** logical_product(A,B) = (A, complement(A, size(A)*cosize(B)) o B). A
** tuple tiler applies by mode and keeps A's extra modes; `_` keeps a
** mode. zipped/tiled/flat rearrange the rank-2 result (CuTe's tile_unzip
** and slicing with `_`), blocked/raked zip the two modes of a rank-padded
** product (CUTLASS >= 3.8: no by-mode coalesce afterwards). Admissibility
** is whatever composition and complement check.
*/
#include "interp/stride/layout.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* mode lists                                                          */
/* ------------------------------------------------------------------ */

typedef struct modes { lytS_layout *m; int32_t n; } modes;

static modes modes_new(lytS_ctx *cx, int32_t cap) {
  modes r = { lytS_alloc(cx, sizeof(lytS_layout) * (size_t)(cap > 0 ? cap : 1)), 0 };
  return r;
}

/* `_`-slicing unpack: a rank-1 mode stays whole, otherwise its modes. */
static void unpack_into(lytS_ctx *cx, modes *out, lytS_layout m) {
  if (lytS_lrank(m) == 1) { out->m[out->n++] = m; return; }
  for (int32_t i = 0; i < lytS_lrank(m); i++) out->m[out->n++] = lytS_lmode(cx, m, i);
}

static int32_t leaves_of(lytS_layout l) { return lytS_nleaves(l.shape) + 1; }

/* An integer tiler n means make_layout(n) here, so 1 becomes 1:0 (CuTe's
** static rule); composition instead reads it as n:1. */
static lytS_layout tile_layout(lytS_ctx *cx, const lytS_tiler *t) {
  lytS_layout b = t->lay;
  if (t->from_int && lytS_isint(b.shape) && b.shape->v == 1) return lytS_int_layout(cx, 1, 0);
  return b;
}

/* ------------------------------------------------------------------ */
/* divide                                                              */
/* ------------------------------------------------------------------ */

typedef lytS_layout (*onefn)(lytS_ctx *, lytS_layout, lytS_layout, const char *);

/* Apply f by mode along the tiler; A's modes past the tiler are kept. */
static lytS_layout by_mode(lytS_ctx *cx, lytS_layout a, const lytS_tiler *t, onefn f,
                           const char *op) {
  if (t->kind == LYT_TILE_UNDER) return a;
  if (t->kind == LYT_TILE_LAYOUT) return f(cx, a, tile_layout(cx, t), op);
  int32_t r = lytS_lrank(a);
  if (t->n > r)
    lytS_fail(cx, LYT_ERRRUN, "%s: too many modes in the tiler (%d) for rank %d", op,
              t->n, r);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(r ? r : 1));
  for (int32_t i = 0; i < r; i++) {
    lytS_layout m = lytS_lmode(cx, a, i);
    ms[i] = i < t->n ? by_mode(cx, m, &t->e[i], f, op) : m;
  }
  return lytS_concat(cx, ms, r);
}

/* The inner complement or composition of a divide or product. When it
** fails, the message names the operation and the step with its operands
** (which the user never wrote), then the condition that failed. */
enum { STEP_COMPLEMENT, STEP_COMPOSE };

static void note_step(lytS_ctx *cx, const char *op, int step, lytS_layout x,
                      const lytS_tup *cot, lytS_layout y, const lytS_layout *from) {
  char buf[sizeof cx->msg];
  int n;
  const char *m = cx->msg, *colon = strstr(m, ": ");
  if (colon && (strncmp(m, "composition: ", 13) == 0 || strncmp(m, "complement: ", 12) == 0))
    m = colon + 2;
  if (step == STEP_COMPLEMENT)
    n = snprintf(buf, sizeof buf, "%s: complement(%s, %s) fails: %s", op,
                 lytS_layout_str(cx, x), lytS_tup_str(cx, cot), m);
  else if (from)  /* a product: x is complement(A, size(A)*cosize(B)) */
    n = snprintf(buf, sizeof buf, "%s: composition of complement(%s, %s) = %s with %s "
                 "fails: %s", op, lytS_layout_str(cx, *from), lytS_tup_str(cx, cot),
                 lytS_layout_str(cx, x), lytS_layout_str(cx, y), m);
  else
    n = snprintf(buf, sizeof buf, "%s: composition of %s with %s fails: %s", op,
                 lytS_layout_str(cx, x), lytS_layout_str(cx, y), m);
  if (n < 0) return;
  memcpy(cx->msg, buf, sizeof buf);  /* truncated to the message size if need be */
}

static lytS_layout inner(lytS_ctx *cx, const char *op, int step, lytS_layout x,
                         const lytS_tup *cot, lytS_layout y, const lytS_layout *from) {
  jmp_buf jb, *outer = cx->jb;
  if (setjmp(jb)) {
    cx->jb = outer;
    if (cx->code == LYT_ERRRUN) note_step(cx, op, step, x, cot, y, from);
    longjmp(*outer, 1);
  }
  cx->jb = &jb;
  lytS_layout r = step == STEP_COMPLEMENT ? lytS_complement(cx, x, cot) : lytS_compose(cx, x, y);
  cx->jb = outer;
  return r;
}

static lytS_layout divide1(lytS_ctx *cx, lytS_layout a, lytS_layout b, const char *op) {
  lytS_layout ca = lytS_coalesce(cx, a);
  lytS_layout bc[2] = { b, inner(cx, op, STEP_COMPLEMENT, b, ca.shape, b, NULL) };
  return inner(cx, op, STEP_COMPOSE, a, NULL, lytS_concat(cx, bc, 2), NULL);
}

static lytS_layout product1(lytS_ctx *cx, lytS_layout a, lytS_layout b, const char *op) {
  int64_t co = lytS_mul(cx, lytS_lsize(cx, a), lytS_cosize(cx, b));
  lytS_tup *cot = lytS_int(cx, co);
  lytS_layout c = inner(cx, op, STEP_COMPLEMENT, a, cot, a, NULL);
  lytS_layout ab[2] = { a, inner(cx, op, STEP_COMPOSE, c, cot, b, &a) };
  return lytS_concat(cx, ab, 2);
}

/* CuTe's zip2_by: split the rank-2 terminals named by the tiler into a
** (tiles, rests) pair; extra modes go with the rests. A `_` terminal
** names the mode that the divide kept whole, and CuTe splits it all the
** same: its first sub-mode joins the tiles, its second the rests (so it
** must have two). */
static void zip2_by(lytS_ctx *cx, lytS_layout l, const lytS_tiler *t, modes *tile,
                    modes *rest, const char *op) {
  if (t->kind == LYT_TILE_UNDER && (lytS_lrank(l) != 2 || !lytS_istup(l.shape)))
    lytS_fail(cx, LYT_ERRRUN, "%s: the mode %s that `_` keeps has rank %d, and CuTe splits "
              "a kept mode into a tile and a rest, so it needs rank 2 (logical_divide keeps "
              "it whole)", op, lytS_layout_str(cx, l), lytS_istup(l.shape) ? lytS_lrank(l) : 1);
  if (t->kind == LYT_TILE_LAYOUT || t->kind == LYT_TILE_UNDER) {
    if (lytS_lrank(l) != 2 || !lytS_istup(l.shape))
      lytS_fail(cx, LYT_ERRRUN, "%s: internal error: expected a rank-2 mode", op);
    tile->m[tile->n++] = lytS_lmode(cx, l, 0);
    rest->m[rest->n++] = lytS_lmode(cx, l, 1);
    return;
  }
  int32_t r = lytS_lrank(l);
  modes st = modes_new(cx, t->n), sr = modes_new(cx, r);
  for (int32_t i = 0; i < t->n; i++) zip2_by(cx, lytS_lmode(cx, l, i), &t->e[i], &st, &sr, op);
  for (int32_t i = t->n; i < r; i++) sr.m[sr.n++] = lytS_lmode(cx, l, i);
  tile->m[tile->n++] = lytS_concat(cx, st.m, st.n);
  rest->m[rest->n++] = lytS_concat(cx, sr.m, sr.n);
}

/* Rearrange a logical divide/product result for the zipped/tiled/flat forms. */
static lytS_layout rearrange(lytS_ctx *cx, int form, lytS_layout l, const lytS_tiler *t,
                             const char *op) {
  modes tile = modes_new(cx, 1), rest = modes_new(cx, 1);
  zip2_by(cx, l, t, &tile, &rest, op);
  lytS_layout z0 = tile.m[0], z1 = rest.m[0];
  if (form == LYT_DIV_ZIPPED) {
    lytS_layout zz[2] = { z0, z1 };
    return lytS_concat(cx, zz, 2);
  }
  modes out = modes_new(cx, leaves_of(l) + 2);
  if (form == LYT_DIV_TILED) out.m[out.n++] = z0;
  else unpack_into(cx, &out, z0);
  unpack_into(cx, &out, z1);
  return lytS_concat(cx, out.m, out.n);
}

lytS_layout lytS_divide(lytS_ctx *cx, int kind, lytS_layout a, const lytS_tiler *t) {
  static const char *names[] = { "logical_divide", "zipped_divide", "tiled_divide",
                                 "flat_divide" };
  lytS_layout l = by_mode(cx, a, t, divide1, names[kind]);
  if (kind == LYT_DIV_LOGICAL) return l;
  return rearrange(cx, kind, l, t, names[kind]);
}

/* ------------------------------------------------------------------ */
/* product                                                             */
/* ------------------------------------------------------------------ */

/* CuTe's zip of two modes: ints pair up as ((x,y)); tuples pair by mode. */
static lytS_layout zip2(lytS_ctx *cx, lytS_layout x, lytS_layout y, const char *op) {
  if (!lytS_istup(x.shape)) {
    lytS_layout xy[2] = { x, y };
    lytS_layout p = lytS_concat(cx, xy, 2);
    return lytS_concat(cx, &p, 1);
  }
  int32_t r = lytS_lrank(x);
  if (!lytS_istup(y.shape) || lytS_lrank(y) < r)
    lytS_fail(cx, LYT_ERRRUN, "%s: cannot zip %s with %s mode by mode (rank %d against "
              "rank %d)", op, lytS_layout_str(cx, x), lytS_layout_str(cx, y), r,
              lytS_lrank(y));
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(r ? r : 1));
  for (int32_t i = 0; i < r; i++) {
    lytS_layout xy[2] = { lytS_lmode(cx, x, i), lytS_lmode(cx, y, i) };
    ms[i] = lytS_concat(cx, xy, 2);
  }
  return lytS_concat(cx, ms, r);
}

static lytS_layout rank_product(lytS_ctx *cx, int kind, lytS_layout a, const lytS_tiler *t,
                                const char *op) {
  if (t->kind != LYT_TILE_LAYOUT)
    lytS_fail(cx, LYT_ERRRUN, "%s: the second operand must be a layout", op);
  lytS_layout b = tile_layout(cx, t);
  int32_t r = lytS_lrank(a) > lytS_lrank(b) ? lytS_lrank(a) : lytS_lrank(b);
  lytS_layout p = product1(cx, lytS_append_to(cx, a, r), lytS_append_to(cx, b, r), op);
  lytS_layout p0 = lytS_lmode(cx, p, 0), p1 = lytS_lmode(cx, p, 1);
  return kind == LYT_PROD_BLOCKED ? zip2(cx, p0, p1, op) : zip2(cx, p1, p0, op);
}

lytS_layout lytS_product(lytS_ctx *cx, int kind, lytS_layout a, const lytS_tiler *t) {
  static const char *names[] = { "logical_product", "zipped_product", "tiled_product",
                                 "flat_product", "blocked_product", "raked_product" };
  if (kind == LYT_PROD_BLOCKED || kind == LYT_PROD_RAKED)
    return rank_product(cx, kind, a, t, names[kind]);
  lytS_layout l = by_mode(cx, a, t, product1, names[kind]);
  if (kind == LYT_PROD_LOGICAL) return l;
  return rearrange(cx, kind, l, t, names[kind]);  /* LYT_PROD_x == LYT_DIV_x here */
}

/* ------------------------------------------------------------------ */
/* tile_to_shape                                                       */
/* ------------------------------------------------------------------ */

static void check_divides(lytS_ctx *cx, const lytS_tup *trg, const lytS_tup *blk) {
  int32_t n = lytS_rank(trg);
  for (int32_t i = 0; i < n; i++) {
    int64_t t = lytS_mode(trg, i)->v, b = lytS_mode(blk, i)->v;
    if (t % b != 0)
      lytS_fail(cx, LYT_ERRRUN, "tile_to_shape: block shape %s does not divide the "
                "target shape %s", lytS_tup_str(cx, blk), lytS_tup_str(cx, trg));
  }
}

lytS_layout lytS_tile_to_shape(lytS_ctx *cx, lytS_layout block, const lytS_tup *shape,
                               const lytS_tup *order) {
  lytS_check_shape(cx, shape, "tile_to_shape");
  int32_t r = lytS_rank(shape);
  if (lytS_lrank(block) > r)
    lytS_fail(cx, LYT_ERRRUN, "tile_to_shape: the block has rank %d, more than the target "
              "shape %s", lytS_lrank(block), lytS_tup_str(cx, shape));
  lytS_layout padded = lytS_append_to(cx, block, r);
  lytS_tup *bs = lytS_product_each(cx, padded.shape);
  lytS_tup *ts = lytS_product_each(cx, shape);
  check_divides(cx, ts, bs);
  lytS_tup *ps = lytS_ceil_div(cx, ts, bs);
  if (order && !lytS_congruent(ps, order))
    lytS_fail(cx, LYT_ERRRUN, "tile_to_shape: order %s is not congruent with the %d modes "
              "of the target shape %s", lytS_tup_str(cx, order), r, lytS_tup_str(cx, shape));
  lytS_layout ord = order ? lytS_make_ordered(cx, ps, order) : lytS_make_left(cx, ps);
  return lytS_product(cx, LYT_PROD_BLOCKED, padded, lytS_tiler_of_layout(cx, ord));
}

/* ------------------------------------------------------------------ */
/* max_common_layout / vector, nullspace                               */
/* ------------------------------------------------------------------ */

/* Mode 0 of coalesce(a o right_inverse(b)) when it is the stride-1 part.
** CuTe computes the whole composition but uses only that mode, so lyt
** takes CuTe's composition as it is, admissible or not, and checks the
** mode it uses: a(inv_b(j)) == j for each j it covers. */
static int common_mode(lytS_ctx *cx, lytS_layout a, lytS_layout inv_b, lytS_layout *m0) {
  lytS_layout common = lytS_coalesce(cx, lytS_compose_cute(cx, a, inv_b));
  *m0 = lytS_lmode(cx, common, 0);
  if (!lytS_isint(m0->stride) || m0->stride->v != 1) return 0;
  int64_t n = lytS_lsize(cx, *m0);
  for (int64_t j = 0; j < n; j++) {
    lytS_tup cj = { .kind = LYTS_INT, .v = j };
    lytS_tup *x = lytS_eval(cx, a, lytS_eval(cx, inv_b, &cj));
    if (!lytS_isint(x) || x->v != j)
      lytS_fail(cx, LYT_ERRRUN, "max_common_vector: CuTe's answer would be %lld, from a "
                "composition that is not exact: %s maps %lld to %s through right_inverse "
                "of the second layout", (long long)n, lytS_layout_str(cx, a), (long long)j,
                lytS_tup_str(cx, x));
  }
  return 1;
}

lytS_layout lytS_max_common_layout(lytS_ctx *cx, lytS_layout a, lytS_layout b) {
  lytS_layout inv_b = lytS_right_inverse(cx, b), m0;
  if (!common_mode(cx, a, inv_b, &m0)) return lytS_int_layout(cx, 1, 0);
  return lytS_compose(cx, inv_b, m0);
}

int64_t lytS_max_common_vector(lytS_ctx *cx, lytS_layout a, lytS_layout b) {
  lytS_layout m0;
  if (!common_mode(cx, a, lytS_right_inverse(cx, b), &m0)) return 1;
  return lytS_lsize(cx, m0);
}

lytS_layout lytS_nullspace(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  lytS_flat r = lytS_flat_new(cx, f.n);
  int64_t run = 1;
  for (int32_t i = 0; i < f.n; i++) {
    if (lytS_isint(f.d[i]) && f.d[i]->v == 0) {
      r.s[r.n] = f.s[i];
      r.d[r.n++] = lytS_int(cx, f.s[i] == 1 ? 0 : run);
    }
    run = lytS_mul(cx, run, f.s[i]);
  }
  return lytS_flat_layout(cx, &r);  /* none found: 1:0 */
}

/* ------------------------------------------------------------------ */
/* upcast / downcast                                                   */
/* ------------------------------------------------------------------ */

typedef void (*leaffn)(lytS_ctx *, int64_t, int64_t, int64_t, int64_t *, int64_t *);

static lytS_layout map_leaves(lytS_ctx *cx, lytS_layout l, int64_t n, leaffn f,
                              const char *op) {
  if (lytS_istup(l.shape)) {
    int32_t r = l.shape->n;
    lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(r ? r : 1));
    for (int32_t i = 0; i < r; i++) ms[i] = map_leaves(cx, lytS_lmode(cx, l, i), n, f, op);
    return lytS_concat(cx, ms, r);
  }
  int64_t s, d;
  f(cx, l.shape->v, lytS_dint(cx, l.stride, op), n, &s, &d);
  return lytS_int_layout(cx, s, d);
}

static void up_leaf(lytS_ctx *cx, int64_t s, int64_t d, int64_t n, int64_t *rs, int64_t *rd) {
  *rs = s;
  *rd = d;
  if (d == 0) return;
  if (d % n != 0 && n % d != 0)
    lytS_fail(cx, LYT_ERRRUN, "upcast: stride %lld and factor %lld do not divide each "
              "other", (long long)d, (long long)n);
  int64_t ad = d < 0 ? -d : d;
  *rs = lytS_ceil_div_int(cx, s, lytS_ceil_div_int(cx, n, ad));
  *rd = (d < 0 ? -1 : 1) * lytS_ceil_div_int(cx, ad, n);
}

/* The parts of an element must be adjacent: they go into the stride-1
** mode. A stride of -1 would reverse them, so it is refused (as CuTe does). */
static void down_leaf(lytS_ctx *cx, int64_t s, int64_t d, int64_t n, int64_t *rs,
                      int64_t *rd) {
  if (d == -1)
    lytS_fail(cx, LYT_ERRRUN, "downcast: a mode of stride -1 would reverse the parts "
              "of an element");
  *rs = d == 1 ? lytS_mul(cx, s, n) : s;
  *rd = d == 1 ? d : lytS_mul(cx, d, n);
}

static int has_unit_stride(const lytS_tup *d) {
  if (lytS_isint(d)) return d->v == 1;
  for (int32_t i = 0; lytS_istup(d) && i < d->n; i++)
    if (has_unit_stride(d->e[i])) return 1;
  return 0;
}

static void check_factor(lytS_ctx *cx, int64_t n, const char *op) {
  if (n <= 0) lytS_fail(cx, LYT_ERRRUN, "%s: factor %lld is not positive", op, (long long)n);
}

lytS_layout lytS_upcast(lytS_ctx *cx, lytS_layout l, int64_t n) {
  check_factor(cx, n, "upcast");
  return map_leaves(cx, l, n, up_leaf, "upcast");
}

lytS_layout lytS_downcast(lytS_ctx *cx, lytS_layout l, int64_t n) {
  check_factor(cx, n, "downcast");
  if (n > 1 && !has_unit_stride(l.stride))
    lytS_fail(cx, LYT_ERRRUN, "downcast: layout %s has no mode of stride 1 to hold the "
              "parts of an element", lytS_layout_str(cx, l));
  return map_leaves(cx, l, n, down_leaf, "downcast");
}
