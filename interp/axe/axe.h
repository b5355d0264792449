/*
** axe/axe.h: Axe layouts (arXiv 2601.19092; apache/tvm tirx TileLayout), the
** axis-tagged iter core (lytX_). Reference: shared/reference/
** axe_iree_tilelang.md §1.
**
** An iter `e:s@a` has an extent e > 0, a stride s and an axis name a (a
** bare stride means the memory axis `m`). A layout L = (D, R, O):
**   D  shard: ordered iters; the flat logical index is split ROW-MAJOR
**      over their extents (the FIRST iter is the MOST significant digit,
**      the opposite of CuTe) and digit*stride is added to the iter's axis;
**   R  replica: a set of iters independent of the logical index; every
**      combination j_t in [0, r_t) adds j_t*rho_t to axis b_t;
**   O  offset: one constant per axis.
** L(x) = { D(x) + r + O | r in span(R) } is a set of physical points.
**
** Strides: a shard stride may be 0 (TVM's `broadcast`: the same datum on
** every value of that digit, a non-injective shard); a replica stride must
** be nonzero (a zero replica adds no copy, so it is refused as an error).
** Negative strides are allowed everywhere; the fast backward path and
** the linear-layout conversion refuse them (see there).
**
** Axis order: a layout's axes are numbered in order of first appearance
** in D, then in R, then in O (lytX_axes). Physical points are vectors in
** that order; lytX_points_reorder gives any other order.
**
** Ownership: axis names are NOT copied; the caller keeps them alive as
** long as any layout uses them (literals, interned strings; lytX_read
** puts them in cx's arena). Names compare with strcmp. Layouts are
** plain values (fixed-size structs); results are allocated in cx's arena
** and inputs are never modified. Errors leave through lytS_fail:
** LYT_ERRRUN for a wrong argument, LYT_ERRLIMIT for a cap below.
*/
#ifndef LYT_AXE_H
#define LYT_AXE_H

#include <stdint.h>

#include "interp/base/context.h"
#include "interp/base/inttuple.h"  /* lytS_buf */
#include "interp/stride/layout.h"    /* lytS_layout, for the CuTe conversions */
#include "interp/linear/linear.h"    /* lytG_ll, for the linear-layout conversions */

#define LYTX_MAXITERS 32        /* shard iters, and separately replica iters */
#define LYTX_MAXAXES 16         /* distinct axes of one layout */
#define LYTX_MAXDIMS 16         /* logical dims of a shape */
#define LYTX_POINTS_MAX 65536   /* physical points of one forward image */
#define LYTX_SEARCH_MAX 4194304 /* (logical x replica) cases an exhaustive search may try */

#define LYTX_MEM "m"            /* the memory axis; printed without @m */

typedef struct lytX_iter {
  int64_t extent;    /* > 0 */
  int64_t stride;    /* any in D; nonzero in R */
  const char *axis;  /* not owned */
} lytX_iter;

typedef struct lytX_layout {
  int32_t nd, nr, no;                /* counts of shard, replica, offset entries */
  lytX_iter d[LYTX_MAXITERS];        /* shard, most significant first */
  lytX_iter r[LYTX_MAXITERS];        /* replicas, a set kept in insertion order */
  const char *oaxis[LYTX_MAXAXES];   /* offset axes, distinct */
  int64_t off[LYTX_MAXAXES];         /* their offsets (zeros allowed until canonicalized) */
} lytX_layout;

/* A set of physical points, each n values over axis[] (row after row). */
typedef struct lytX_points {
  int32_t naxes;
  const char *axis[LYTX_MAXAXES];
  int32_t n;         /* number of points */
  int64_t *v;        /* v[i*naxes + k]: axis k of point i */
} lytX_points;

/* A set of logical coordinates over a shape of `rank` dims. */
typedef struct lytX_coords {
  int32_t rank;
  int32_t n;
  int64_t *v;        /* v[i*rank + d] */
} lytX_coords;

/* ================================================================== */
/* construction and queries (axe/axe.c)                                    */
/* ================================================================== */

lytX_layout *lytX_new(lytS_ctx *cx);  /* empty D, R, O: size 1, maps 0 to the origin */
lytX_layout *lytX_copy(lytS_ctx *cx, const lytX_layout *L);
/* Append a shard iter (extent > 0, any stride); fails past the caps. */
void lytX_shard(lytS_ctx *cx, lytX_layout *L, int64_t extent, int64_t stride, const char *axis);
/* Add a replica iter (extent > 0, stride != 0). */
void lytX_replica(lytS_ctx *cx, lytX_layout *L, int64_t extent, int64_t stride,
                  const char *axis);
/* Add v to the offset of axis (offsets on one axis add up). */
void lytX_offset(lytS_ctx *cx, lytX_layout *L, int64_t v, const char *axis);
/* Re-checks every invariant above (for layouts filled by hand). */
void lytX_check(lytS_ctx *cx, const lytX_layout *L);

int64_t lytX_size(lytS_ctx *cx, const lytX_layout *L);  /* product of shard extents */
/* TVM's span: 1 + sum (e-1)*|s| over shard and replica iters on axis, plus
** the axis's offset. */
int64_t lytX_span(lytS_ctx *cx, const lytX_layout *L, const char *axis);
int64_t lytX_offset_of(const lytX_layout *L, const char *axis);  /* 0 when absent */
/* The layout's axes in canonical order (D, then R, then O); returns n. */
int32_t lytX_axes(const lytX_layout *L, const char **axes);
int32_t lytX_axis_index(const lytX_layout *L, const char *axis);  /* -1 if absent */
/* Structural equality (same iters in the same order, same replica set in
** the same order, same nonzero offsets). Compare canonical forms for
** equality of meaning. */
int lytX_equal(const lytX_layout *a, const lytX_layout *b);

/* ================================================================== */
/* forward and backward (axe/axe.c, axe/map.c)                             */
/* ================================================================== */

/* Fails unless prod(shape) == lytX_size(L) ("shape not admitted"). */
void lytX_check_shape(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape);
/* L(x): checks the shape and every coordinate's range, flattens x
** row-major over shape and returns the image set, deduplicated and
** sorted lexicographically over the canonical axis order. */
lytX_points lytX_apply(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                       const int64_t *x);
/* The same from a flat logical index in [0, size). */
lytX_points lytX_apply_flat(lytS_ctx *cx, const lytX_layout *L, int64_t flat);
/* D(flat) + O only (TVM's apply: no replicas); out: lytX_axes order. */
void lytX_base(lytS_ctx *cx, const lytX_layout *L, int64_t flat, int64_t *out);

/* A point over lytX_axes(L) from named values: every given name must be
** an axis of L ("unknown axis") and every axis of L must be given. */
void lytX_point(lytS_ctx *cx, const lytX_layout *L, int32_t n, const char *const *names,
                const int64_t *vals, int64_t *out);
/* Pre-image { x | p in L(x) } of p (over lytX_axes(L)), sorted by flat
** index: the fast path when lytX_is_mixed_radix, else lytX_preimage_search
** with LYTX_SEARCH_MAX. */
lytX_coords lytX_preimage(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                          const int64_t *shape, const int64_t *p);
/* Exhaustive search over the logical domain and replica combinations;
** fails (LYT_ERRLIMIT) rather than try more than cap cases. */
lytX_coords lytX_preimage_search(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                                 const int64_t *shape, const int64_t *p, int64_t cap);
/* 1 when the fast path applies: on every axis, the shard iters with
** extent > 1 and stride != 0 have positive strides that, sorted
** ascending, satisfy s[k+1] % (e[k]*s[k]) == 0 (a mixed-radix system:
** every value has at most one digit vector, decoded greedily from the
** largest stride). Stride-0 iters are free digits, replicas are tried
** one combination at a time (at most LYTX_POINTS_MAX of them). */
int lytX_is_mixed_radix(const lytX_layout *L);
/* Fast path only; fails unless lytX_is_mixed_radix. */
lytX_coords lytX_preimage_fast(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                               const int64_t *shape, const int64_t *p);

/* Reorders the axes of a point set (names must be a permutation of its
** axes, or a superset: extra names get value 0), re-sorted. */
lytX_points lytX_points_reorder(lytS_ctx *cx, const lytX_points *p, int32_t n,
                                const char *const *names);

/* ================================================================== */
/* algebra (axe/ops.c); reference §1.5-1.6, TVM semantics               */
/* ================================================================== */

/* Rules 0,1,3,4: drop extent-1 shard iters (keep `1:1@<first axis>` if
** all go) and extent-1 replicas, drop zero offsets, fuse adjacent
** same-axis shard iters with outer.stride == inner.stride*inner.extent,
** sort replicas by (axis, stride, extent), then (beyond TVM) fuse two
** replicas on one axis with positive strides when b.stride ==
** a.stride*a.extent. Thread-axis fusion (rule 2) needs a target and is
** not done. */
lytX_layout *lytX_canonicalize(lytS_ctx *cx, const lytX_layout *L);
/* Splits shard iters so that logical dim d owns iters [seps[d],
** seps[d+1]) (seps: rank+1 slots). Extent-1 iters stay where they are.
** Fails if the shape is not admitted or a dim boundary does not fall on
** a factor of an iter's extent. */
lytX_layout *lytX_group(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                        int32_t *seps);
/* TVM tile: over shape outer_shape*inner_shape (elementwise), coordinate
** o*inner_shape + i maps to outer(o)*span + inner(i), where outer's
** shard strides on an axis of inner's shard are scaled by inner's span
** on it. Replicas are united, offsets added; the result is canonical. */
lytX_layout *lytX_tile(lytS_ctx *cx, const lytX_layout *outer, const lytX_layout *inner,
                       int32_t rank, const int64_t *outer_shape, const int64_t *inner_shape);
/* TVM direct_sum: tile without the span scaling: over a_shape*b_shape,
** a*b_shape + b maps to A(a) + B(b). */
lytX_layout *lytX_direct_sum(lytS_ctx *cx, const lytX_layout *a, const lytX_layout *b,
                             int32_t rank, const int64_t *a_shape, const int64_t *b_shape);
/* L' over `extent` with L'(r) = L(begin + r). Fails if the region leaves
** the shape, or if some dim's range is not representable: after
** canonicalizing and grouping, the dim's digits t.. (the largest suffix
** whose extent product divides both begin and extent) must be whole and
** the remaining range must fit in digit t-1 without a carry. */
lytX_layout *lytX_slice(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                        const int64_t *begin, const int64_t *extent);

/* ================================================================== */
/* conversions (axe/ops.c)                                             */
/* ================================================================== */

/* CuTe -> Axe: the flattened modes in REVERSE order, strides on `m`, so
** that Axe(i) == CuTe(i) for a flat index i. A CuTe coordinate
** (c0,..,ck) over (S0,..,Sk) is the Axe coordinate (ck,..,c0) over
** (Sk,..,S0). Basis (non-integer) strides are refused. */
lytX_layout *lytX_from_cute(lytS_ctx *cx, lytS_layout l);
/* Axe -> CuTe: a flat layout with the shard reversed; fails for a
** replica, a nonzero offset or an axis other than `m`. Empty D: 1:0. */
lytS_layout lytX_to_cute(lytS_ctx *cx, const lytX_layout *L);
/* Axe -> GF(2) linear layout. In-dims: `in` carries the flat logical
** index (size = lytX_size); when L has replicas, `rep` (non-NULL) carries
** the replica combination as a row-major index over L's replica order
** (NULL with replicas is an error: a function cannot replicate). Out-dims:
** one per axis in canonical order, named by the axis, sized to the next
** power of two above the largest reachable value. Requires power-of-two
** extents, strides that are 0 or a positive power of two, no offset,
** and no two bits adding into the same bit of an axis (else addition
** would carry where GF(2) XORs). */
lytG_ll *lytX_to_linear(lytS_ctx *cx, const lytX_layout *L, const char *in, const char *rep);
/* GF(2) -> Axe, the inverse of lytX_to_linear: G's in-dims must be `in`
** and optionally `rep` (rep may be NULL); each out-dim becomes an axis.
** Every basis must have at most one set bit and no two bases may share
** one (a mixing or repeated bit is not an Axe iter); a zero basis of `in`
** becomes a stride-0 iter on the first out-dim, a zero basis of `rep`
** is an error. The result is canonical. */
lytX_layout *lytX_from_linear(lytS_ctx *cx, const lytG_ll *G, const char *in,
                              const char *rep);

/* A layout in Triton's direction (hardware in-dims such as register,
** lane, warp -> logical out-dims) as an Axe layout over the out-dims'
** shape, the first out-dim most significant (row-major), one axis per
** in-dim named like it. Every in bit must give one out bit or none (a
** copy: a replica iter), and every out bit must come from exactly one in
** bit; anything else (a swizzle, two bits XORed, a hole) is an error. The
** result is canonical. */
lytX_layout *lytX_from_distributed(lytS_ctx *cx, const lytG_ll *G);

/* ================================================================== */
/* text (axe/io.c)                                                     */
/* ================================================================== */

/* S[(8,2,4,2):(4@lane,1@warp,1@lane,1@reg)] + R[2:4@warp] + {warp: 5};
** the R and offset parts only when present, one iter without parens. */
void lytX_print(lytS_buf *b, const lytX_layout *L);
/* as axe(...) prints them: text that reads back (io.c says when @m shows) */
void lytX_print_shard(lytS_buf *b, const lytX_layout *L);    /* (8,2):(4@lane,1) */
void lytX_print_replica(lytS_buf *b, const lytX_layout *L);  /* 2:4@warp, () if none */
void lytX_print_offset(lytS_buf *b, const lytX_layout *L);   /* {warp: 5}, {} if none */
const char *lytX_str(lytS_ctx *cx, const lytX_layout *L);
/* {warp: 6, lane: 8, reg: 1} */
void lytX_print_point(lytS_buf *b, const lytX_points *p, int32_t i);
/* [{..}, {..}] and [(2,9), (3,1)] */
const char *lytX_points_str(lytS_ctx *cx, const lytX_points *p);
const char *lytX_coords_str(lytS_ctx *cx, const lytX_coords *c);
/* Reads lytX_print's text back; also "S[..]" may be a bare shard and any
** part may be omitted. Axis names are copied into cx's arena. */
lytX_layout *lytX_read(lytS_ctx *cx, const char *text);

/* ================================================================== */
/* internal: shared by the axe*.c files only                           */
/* ================================================================== */

/* Sorts n rows of w values lexicographically, drops duplicates; returns
** the new count. */
int32_t lytX_sort_rows(lytS_ctx *cx, int64_t *v, int32_t n, int32_t w);

#endif
