/*
** stride/layout.h: CuTe layouts, swizzles and composed layouts (stride core).
**
** A layout is a pair of congruent IntTuples, shape and stride, read as
** the function coordinate -> index (colexicographic: first mode fastest).
** The algebra follows CuTe C++ with static integers, and checks
** admissibility fully where CuTe does not (see docs/language.md).
*/
#ifndef LYT_LAYOUT_H
#define LYT_LAYOUT_H

#include "interp/base/inttuple.h"

typedef struct lytS_layout {
  lytS_tup *shape;
  lytS_tup *stride;  /* congruent with shape */
} lytS_layout;

/* Swizzle<B,M,S>: x ^ ((x & yyy) >> S), see docs/language.md. */
typedef struct lytS_swizzle {
  int32_t b, m, s;
} lytS_swizzle;

/* swizzle o offset o inner: c -> sw(offset + inner(c)). */
typedef struct lytS_composed {
  lytS_swizzle sw;
  int64_t offset;
  lytS_layout inner;
} lytS_composed;

/* A tiler element: a layout, `_` (keep the mode) or a nested tiler. */
enum { LYT_TILE_LAYOUT, LYT_TILE_UNDER, LYT_TILE_NEST };
typedef struct lytS_tiler lytS_tiler;
struct lytS_tiler {
  uint8_t kind;      /* LYT_TILE_*; the root is always LYT_TILE_NEST */
  uint8_t from_int;  /* LYT_TILE_LAYOUT written as an integer n: divides and
                        products read n as make_layout(n), so 1 is 1:0 */
  lytS_layout lay;   /* LYT_TILE_LAYOUT */
  int32_t n;         /* LYT_TILE_NEST: number of elements */
  lytS_tiler *e;     /* LYT_TILE_NEST: elements */
};

/* ================================================================== */
/* stride/layout.c: construction, access, evaluation, slicing, printing       */
/* ================================================================== */

/* shape:stride after checking that they are congruent and the shape positive. */
lytS_layout lytS_make_layout(lytS_ctx *cx, lytS_tup *shape, lytS_tup *stride);
lytS_layout lytS_make_left(lytS_ctx *cx, lytS_tup *shape);   /* LayoutLeft */
lytS_layout lytS_make_right(lytS_ctx *cx, lytS_tup *shape);  /* LayoutRight */
/* compact_col_major (right = 0) / compact_row_major (1) with CuTe's current */
lytS_tup *lytS_compact_major(lytS_ctx *cx, lytS_tup *shape, const lytS_tup *current, int right,
                             const char *op);
lytS_layout lytS_make_ordered(lytS_ctx *cx, lytS_tup *shape, const lytS_tup *order);
lytS_layout lytS_make_like(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_make_identity(lytS_ctx *cx, lytS_tup *shape);
lytS_layout lytS_concat(lytS_ctx *cx, const lytS_layout *ls, int32_t n);  /* (L0,L1,..) */
lytS_layout lytS_int_layout(lytS_ctx *cx, int64_t s, int64_t d);          /* s:d */

int32_t lytS_lrank(lytS_layout l);
int32_t lytS_ldepth(lytS_layout l);
int64_t lytS_lsize(lytS_ctx *cx, lytS_layout l);
int64_t lytS_cosize(lytS_ctx *cx, lytS_layout l);  /* sum (s-1)|d| + 1 */
int lytS_layout_eq(lytS_layout a, lytS_layout b);

lytS_layout lytS_lmode(lytS_ctx *cx, lytS_layout l, int32_t i);  /* layout<i> */
lytS_layout lytS_get(lytS_ctx *cx, lytS_layout l, const int64_t *path, int32_t n);
lytS_tup *lytS_get_tup(lytS_ctx *cx, const lytS_tup *t, const int64_t *path, int32_t n);
lytS_layout lytS_select(lytS_ctx *cx, lytS_layout l, const int64_t *idx, int32_t n);
lytS_layout lytS_take(lytS_ctx *cx, lytS_layout l, int64_t b, int64_t e);
lytS_layout lytS_group(lytS_ctx *cx, lytS_layout l, int64_t b, int64_t e);
lytS_layout lytS_lflatten(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_append(lytS_ctx *cx, lytS_layout l, lytS_layout x);
lytS_layout lytS_prepend(lytS_ctx *cx, lytS_layout l, lytS_layout x);
lytS_layout lytS_append_to(lytS_ctx *cx, lytS_layout l, int32_t r);  /* append<R>: pad 1:0 */
lytS_layout lytS_replace(lytS_ctx *cx, lytS_layout l, int64_t i, lytS_layout x);

/* L(c): crd2idx with extension semantics (use lytS_check_coord first for lyt's
** range rule); an int, or an arithmetic tuple for basis strides. */
lytS_tup *lytS_eval(lytS_ctx *cx, lytS_layout l, const lytS_tup *c);
int64_t lytS_eval_i(lytS_ctx *cx, lytS_layout l, int64_t i);
lytS_tup *lytS_slice_tup(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t);
lytS_tup *lytS_dice_tup(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *t);
lytS_layout lytS_slice(lytS_ctx *cx, const lytS_tup *c, lytS_layout l);
lytS_layout lytS_dice(lytS_ctx *cx, const lytS_tup *c, lytS_layout l);
lytS_layout lytS_slice_and_offset(lytS_ctx *cx, const lytS_tup *c, lytS_layout l,
                                  int64_t *offset);

void lytS_print_layout(lytS_buf *b, lytS_layout l);
const char *lytS_layout_str(lytS_ctx *cx, lytS_layout l);

/* ---- flat view shared by the algebra files (internal to the core) ---- */
/* Returned by value: the functions that make one return it built from
** its fields, not a local copied whole, which GCC reads back 16 bytes at
** a time right after writing it piecewise (a store-forwarding stall). */
typedef struct lytS_flat {
  int32_t n;
  int64_t *s;      /* extents */
  lytS_tup **d;    /* strides: int or basis leaves */
} lytS_flat;
lytS_flat lytS_flat_of(lytS_ctx *cx, lytS_layout l);
/* Room for cap leaves. Inline, as every step of the algebra makes one:
** bench.py's script runs 1.7% fewer instructions. */
static inline lytS_flat lytS_flat_new(lytS_ctx *ctx, int32_t cap) {
  size_t k = (size_t)(cap > 0 ? cap : 1);
  int64_t *s = lytS_alloc(ctx, (sizeof *s + sizeof(lytS_tup *)) * k);
  return (lytS_flat){ 0, s, (lytS_tup **)(s + k) };
}
lytS_layout lytS_flat_layout(lytS_ctx *cx, const lytS_flat *f);  /* 0: 1:0, 1: s:d */
int64_t lytS_dint(lytS_ctx *cx, const lytS_tup *d, const char *op);  /* int stride */
lytS_tup *lytS_dscale(lytS_ctx *cx, const lytS_tup *d, int64_t k);   /* d*k */

/* ================================================================== */
/* stride/coalesce.c                                                           */
/* ================================================================== */
lytS_layout lytS_coalesce(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_coalesce_flat(lytS_ctx *cx, const lytS_flat *f);  /* coalesce of its layout */
/* flat_of(coalesce(l)) and flat_of(filter(l)), without the layout between */
lytS_flat lytS_coalesce_leaves(lytS_ctx *cx, lytS_layout l);
lytS_flat lytS_filter_leaves(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_coalesce_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile);
lytS_flat lytS_coalesce_x(lytS_ctx *cx, lytS_layout l);  /* keeps the extension */
lytS_layout lytS_filter_zeros(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_filter_zeros_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile);
lytS_layout lytS_filter(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_filter_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile);

/* ================================================================== */
/* stride/compose.c                                                            */
/* ================================================================== */
lytS_layout lytS_compose(lytS_ctx *cx, lytS_layout a, lytS_layout b);
/* CuTe's composition as CuTe computes it, exact or not: for queries such
** as max_common_vector that CuTe answers from it (they check what they use). */
lytS_layout lytS_compose_cute(lytS_ctx *cx, lytS_layout a, lytS_layout b);
lytS_layout lytS_compose_tiler(lytS_ctx *cx, lytS_layout a, const lytS_tiler *t);
lytS_layout lytS_complement(lytS_ctx *cx, lytS_layout a, const lytS_tup *cotarget);
/* the builtin: an error where a shape cotarget leaves a complement short */
lytS_layout lytS_complement_covering(lytS_ctx *cx, lytS_layout a, const lytS_tup *cotarget);
lytS_layout lytS_complement1(lytS_ctx *cx, lytS_layout a);  /* cotarget cosize(filter(a)) */
lytS_layout lytS_right_inverse(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_left_inverse(lytS_ctx *cx, lytS_layout l);
/* A tiler from a shape: n -> n:1, (a,b) -> <a:1,b:1>, `_` kept. Elements
** made from an integer are LYT_TILE_LAYOUT with n == 1 (divides and
** products then read 1 as make_layout(1) = 1:0, as CuTe does). */
lytS_tiler *lytS_tiler_of_shape(lytS_ctx *cx, const lytS_tup *shape);
lytS_tiler *lytS_tiler_of_layout(lytS_ctx *cx, lytS_layout l);  /* a 1-D tiler */

/* ================================================================== */
/* stride/tiling.c                                                             */
/* ================================================================== */
enum { LYT_DIV_LOGICAL, LYT_DIV_ZIPPED, LYT_DIV_TILED, LYT_DIV_FLAT };
enum { LYT_PROD_LOGICAL, LYT_PROD_ZIPPED, LYT_PROD_TILED, LYT_PROD_FLAT,
       LYT_PROD_BLOCKED, LYT_PROD_RAKED };
lytS_layout lytS_divide(lytS_ctx *cx, int kind, lytS_layout a, const lytS_tiler *t);
lytS_layout lytS_product(lytS_ctx *cx, int kind, lytS_layout a, const lytS_tiler *t);
lytS_layout lytS_tile_to_shape(lytS_ctx *cx, lytS_layout block, const lytS_tup *shape,
                               const lytS_tup *order);  /* order NULL: LayoutLeft */
lytS_layout lytS_max_common_layout(lytS_ctx *cx, lytS_layout a, lytS_layout b);
int64_t lytS_max_common_vector(lytS_ctx *cx, lytS_layout a, lytS_layout b);
lytS_layout lytS_nullspace(lytS_ctx *cx, lytS_layout l);
lytS_layout lytS_upcast(lytS_ctx *cx, lytS_layout l, int64_t n);
lytS_layout lytS_downcast(lytS_ctx *cx, lytS_layout l, int64_t n);

/* ================================================================== */
/* stride/swizzle.c                                                            */
/* ================================================================== */
lytS_swizzle lytS_make_swizzle(lytS_ctx *cx, int64_t b, int64_t m, int64_t s);
int64_t lytS_swizzle_apply(lytS_ctx *cx, lytS_swizzle sw, int64_t x);
/* composition(l, sw) = *out o l, CuTe's, checked exact (stride/compose.c) */
void lytS_compose_swizzle(lytS_ctx *cx, lytS_layout l, lytS_swizzle sw, lytS_swizzle *out);
/* composition(l, *out o 0 o b) = *out o (l o b), CuTe's, checked exact */
lytS_layout lytS_compose_swizzled(lytS_ctx *cx, lytS_layout l, lytS_swizzle sw, lytS_layout b,
                                  lytS_swizzle *out);
/* sw o L, or L itself when sw is the identity (B == 0). *is_comp says which. */
lytS_composed *lytS_make_composed(lytS_ctx *cx, lytS_swizzle sw, int64_t off, lytS_layout l);
int lytS_swizzle_is_identity(lytS_swizzle sw);
int64_t lytS_composed_eval(lytS_ctx *cx, const lytS_composed *c, const lytS_tup *crd);
lytS_composed *lytS_composed_with(lytS_ctx *cx, const lytS_composed *c, lytS_layout inner);
void lytS_print_swizzle(lytS_buf *b, lytS_swizzle sw);
void lytS_print_composed(lytS_buf *b, const lytS_composed *c);

/* ================================================================== */
/* stride/cute_read.c: CuTe text ("(4,(2,3)):(2,(1,8))", "_8:_1") to values   */
/* ================================================================== */
lytS_tup *lytS_read_tup(lytS_ctx *cx, const char *text);
lytS_layout lytS_read_layout(lytS_ctx *cx, const char *text);

#endif
