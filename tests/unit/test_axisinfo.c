/*
** test_axisinfo.c: unit and property tests of the axis-info core.
**
** Every example of seed 003 (the Chinese notes on Triton's AxisInfo) and
** of the Triton comments it quotes, with the stated numbers; each rule on
** hand-made cases in both modes; vector widths; the errors; and random
** expression trees, on which every conservative claim must hold of the
** values (so it never exceeds the exact info), and the exact info must
** equal a brute-force recomputation from the definitions. Prints
** "FAIL name: got X expected Y" per failure and "N passed, M failed".
*/
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/axisinfo/axisinfo.h"
#include "harness.h"

static lytV_ctx cons, exact;  /* the two modes over the harness context */

static const char *I(const lytV_val *v) { return lytV_info_str(&cx, &v->info); }
static const char *V(const lytV_val *v) { return lytV_values_str(&cx, v); }
static const char *SI(int64_t x) {
  char b[32];
  snprintf(b, sizeof b, "%lld", (long long)x);
  char *p = lytS_alloc(&cx, strlen(b) + 1);
  strcpy(p, b);
  return p;
}

static const int64_t S6[] = {6}, S8[] = {8}, S16[] = {16}, S2x8[] = {2, 8},
                     S6x4[] = {6, 4}, S4x4[] = {4, 4}, S4[] = {4};

static lytV_val *vals1(int64_t n, const int64_t *v) {
  return lytV_from_values(&cx, 1, &n, v);
}
static lytV_val *range(lytV_ctx *m, int64_t a, int64_t b) { return lytV_make_range(m, a, b); }
static lytV_val *splat1(lytV_ctx *m, int64_t x, int64_t n) { return lytV_splat(m, x, 1, &n); }

/* ------------------------------------------------------------------ */
/* seed 003 and the Triton comments it quotes                          */
/* ------------------------------------------------------------------ */

static void test_seed(void) {
  static const int64_t lhs[] = {1, 2, 3, 7, 8, 9}, ones[] = {1, 1, 1, 1, 1, 1};
  /* the operands' info as the seed states it */
  EXPECT("seed lhs", I(vals1(6, lhs)), "{contiguity: [3], divisibility: [1], constancy: [1]}");
  EXPECT("seed rhs", I(vals1(6, ones)),
         "{contiguity: [1], divisibility: [1], constancy: [6], constant: 1}");
  EXPECT("seed rhs splat", I(lytV_splat(&cons, 1, 1, S6)),
         "{contiguity: [1], divisibility: [1], constancy: [6], constant: 1}");
  /* the rule: contiguity max(gcd(3,6), gcd(1,1)) = 3, divisibility gcd(1,1) = 1 */
  EXPECT("seed add conservative", I(lytV_add(&cons, vals1(6, lhs), vals1(6, ones))),
         "{contiguity: [3], divisibility: [1], constancy: [1]}");
  /* the actual info of [2, 3, 4, 8, 9, 10]: divisibility 2 */
  EXPECT("seed add exact", I(lytV_add(&exact, vals1(6, lhs), vals1(6, ones))),
         "{contiguity: [3], divisibility: [2], constancy: [1]}");
  EXPECT("seed add values", V(lytV_add(&cons, vals1(6, lhs), lytV_splat(&cons, 1, 1, S6))),
         "[2, 3, 4, 8, 9, 10]");
}

static void test_definitions(void) {
  static const int64_t a[] = {10, 11, 12, 13, 18, 19, 20, 21, 20, 21, 22, 23, 28, 29, 30, 31};
  static const int64_t b[] = {12, 16, 20, 24, 13, 17, 21, 25, 14, 18, 22, 26,
                              15, 19, 23, 27, 18, 22, 26, 30, 19, 23, 27, 31};
  static const int64_t k[] = {8, 8, 8, 8, 12, 12, 12, 12, 16, 16, 16, 16, 20, 20, 20, 20};
  /* contiguity [1, 4], divisibility [1, 2] (AxisInfo.h, quoted by the seed) */
  EXPECT("def 2x8", I(lytV_from_values(&cx, 2, S2x8, a)),
         "{contiguity: [1, 4], divisibility: [1, 2], constancy: [1, 1]}");
  /* contiguity [2, 1] for the 6-row tensor (divisibility not stated:
  ** block starts in rows 0, 2, 4 hold 12, 14, 18, ...: 2) */
  EXPECT("def 6x4", I(lytV_from_values(&cx, 2, S6x4, b)),
         "{contiguity: [2, 1], divisibility: [2, 1], constancy: [1, 1]}");
  /* its first 4 rows: divisibility [4, 1] */
  EXPECT("def 4x4", I(lytV_from_values(&cx, 2, S4x4, b)),
         "{contiguity: [4, 1], divisibility: [4, 1], constancy: [1, 1]}");
  /* constancy [1, 4] (divisibility not stated: 12 caps both dims at 4) */
  EXPECT("def constancy", I(lytV_from_values(&cx, 2, S2x8, k)),
         "{contiguity: [1, 1], divisibility: [4, 4], constancy: [1, 4]}");
  /* aligned blocks, not maximal runs */
  static const int64_t m[] = {0, 1, 2, 7, 8, 9, 10, 11};
  EXPECT("def aligned blocks", I(vals1(8, m)),
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  EXPECT("def values 2-D", V(lytV_from_values(&cx, 2, S2x8, k)),
         "[[8, 8, 8, 8, 12, 12, 12, 12], [16, 16, 16, 16, 20, 20, 20, 20]]");
}

/* ------------------------------------------------------------------ */
/* rules, conservative and exact                                       */
/* ------------------------------------------------------------------ */

/* One operation in both modes: "conservative | exact". */
typedef lytV_val *op_fn(lytV_ctx *m, int64_t arg);

static const char *both(op_fn *f, int64_t arg) {
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytS_buf_puts(&b, I(f(&cons, arg)));
  lytS_buf_puts(&b, " | ");
  lytS_buf_puts(&b, I(f(&exact, arg)));
  return b.p;
}

static lytV_val *f_range0_8(lytV_ctx *m, int64_t x) { (void)x; return range(m, 0, 8); }
static lytV_val *f_range(lytV_ctx *m, int64_t s) { return range(m, s, s + 4); }
static lytV_val *f_add_splat(lytV_ctx *m, int64_t x) {
  return lytV_add(m, range(m, 0, 8), splat1(m, x, 8));
}
static lytV_val *f_sub_splat(lytV_ctx *m, int64_t x) {
  return lytV_sub(m, range(m, 0, 8), splat1(m, x, 8));
}
static lytV_val *f_splat_sub(lytV_ctx *m, int64_t x) {
  return lytV_sub(m, splat1(m, x, 8), range(m, 0, 8));
}
static lytV_val *f_rebase(lytV_ctx *m, int64_t x) {
  static const int64_t q[] = {0, 0, 4, 4, 8, 8, 12, 12};
  (void)x;
  return lytV_add(m, range(m, 0, 8), vals1(8, q));
}
static lytV_val *f_mul(lytV_ctx *m, int64_t x) { return lytV_mul(m, range(m, 0, 8), splat1(m, x, 8)); }
static lytV_val *f_mul_tt(lytV_ctx *m, int64_t x) {
  (void)x;
  return lytV_mul(m, range(m, 0, 8), range(m, 8, 16));
}
static lytV_val *f_mul_const(lytV_ctx *m, int64_t x) {
  return lytV_mul(m, splat1(m, x, 8), splat1(m, 3, 8));
}
static lytV_val *f_div(lytV_ctx *m, int64_t k) { return lytV_div(m, range(m, 0, 8), k); }
static lytV_val *f_div_neg(lytV_ctx *m, int64_t k) { return lytV_div(m, range(m, -8, 0), k); }
static lytV_val *f_div_spread(lytV_ctx *m, int64_t k) {
  static const int64_t q[] = {8, 8, 16, 16};
  (void)m;
  return lytV_div(m, vals1(4, q), k);
}
static lytV_val *f_rem(lytV_ctx *m, int64_t k) { return lytV_rem(m, range(m, 0, 8), k); }
static lytV_val *f_rem_part(lytV_ctx *m, int64_t k) {
  static const int64_t q[] = {0, 1, 2, 3, 8, 9, 10, 11};
  return lytV_rem(m, vals1(8, q), k);
}
static lytV_val *f_xor(lytV_ctx *m, int64_t k) { return lytV_xor(m, range(m, 0, 16), k); }
static lytV_val *f_and(lytV_ctx *m, int64_t k) { return lytV_and(m, range(m, 0, 16), k); }

static void test_leaves(void) {
  EXPECT("range 0..8", both(f_range0_8, 0),
         "{contiguity: [8], divisibility: [inf], constancy: [1]} | "
         "{contiguity: [8], divisibility: [inf], constancy: [1]}");
  EXPECT("range 4..8", both(f_range, 4),
         "{contiguity: [4], divisibility: [4], constancy: [1]} | "
         "{contiguity: [4], divisibility: [4], constancy: [1]}");
  EXPECT("range 3..7", both(f_range, 3),
         "{contiguity: [4], divisibility: [1], constancy: [1]} | "
         "{contiguity: [4], divisibility: [1], constancy: [1]}");
  EXPECT("range -4..0", V(range(&cons, -4, 0)), "[-4, -3, -2, -1]");
  EXPECT("splat 2-D", I(lytV_splat(&cons, 48, 2, S2x8)),
         "{contiguity: [1, 1], divisibility: [16, 16], constancy: [2, 8], constant: 48}");
  EXPECT("splat 0", I(lytV_splat(&cons, 0, 1, S4)),
         "{contiguity: [1], divisibility: [inf], constancy: [4], constant: 0}");
  EXPECT("splat extent 1", I(lytV_splat(&exact, 5, 1, (const int64_t[]){1})),
         "{contiguity: [1], divisibility: [1], constancy: [1], constant: 5}");
  lytV_info p = lytV_pessimistic(2);
  EXPECT("pessimistic", lytV_info_str(&cx, &p),
         "{contiguity: [1, 1], divisibility: [1, 1], constancy: [1, 1]}");
}

static void test_addsub(void) {
  EXPECT("add splat 4", both(f_add_splat, 4),
         "{contiguity: [8], divisibility: [4], constancy: [1]} | "
         "{contiguity: [8], divisibility: [4], constancy: [1]}");
  EXPECT("add splat 6", both(f_add_splat, 6),
         "{contiguity: [8], divisibility: [2], constancy: [1]} | "
         "{contiguity: [8], divisibility: [2], constancy: [1]}");
  EXPECT("sub splat", both(f_sub_splat, 8),
         "{contiguity: [8], divisibility: [8], constancy: [1]} | "
         "{contiguity: [8], divisibility: [8], constancy: [1]}");
  /* constant - contiguous decreases: contiguity 1 (Triton's SubIOp) */
  EXPECT("splat sub", both(f_splat_sub, 8),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  /* Triton's plain gcd would claim 4 at block starts 0, 6, 12, 18 */
  EXPECT("add rebase", both(f_rebase, 0),
         "{contiguity: [2], divisibility: [2], constancy: [1]} | "
         "{contiguity: [2], divisibility: [2], constancy: [1]}");
  EXPECT("add rebase values", V(f_rebase(&cons, 0)), "[0, 1, 6, 7, 12, 13, 18, 19]");
  EXPECT("add constants", I(lytV_add(&cons, splat1(&cons, 3, 4), splat1(&cons, 5, 4))),
         "{contiguity: [1], divisibility: [8], constancy: [4], constant: 8}");
}

static void test_mul(void) {
  EXPECT("mul splat 4", both(f_mul, 4),
         "{contiguity: [1], divisibility: [4], constancy: [1]} | "
         "{contiguity: [1], divisibility: [4], constancy: [1]}");
  EXPECT("mul splat 1", both(f_mul, 1),
         "{contiguity: [8], divisibility: [inf], constancy: [1]} | "
         "{contiguity: [8], divisibility: [inf], constancy: [1]}");
  EXPECT("mul splat 0", both(f_mul, 0),
         "{contiguity: [1], divisibility: [inf], constancy: [8], constant: 0} | "
         "{contiguity: [1], divisibility: [inf], constancy: [8], constant: 0}");
  /* a contiguous factor counts as divisibility 1 */
  EXPECT("mul range range", both(f_mul_tt, 0),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  EXPECT("mul constants", both(f_mul_const, 4),
         "{contiguity: [1], divisibility: [4], constancy: [8], constant: 12} | "
         "{contiguity: [1], divisibility: [4], constancy: [8], constant: 12}");
}

static void test_divrem(void) {
  /* [0..7] // 4 = [0,0,0,0,1,1,1,1]: constancy gcd(8, inf, 4) = 4 */
  EXPECT("div 4", both(f_div, 4),
         "{contiguity: [1], divisibility: [1], constancy: [4]} | "
         "{contiguity: [1], divisibility: [1], constancy: [4]}");
  EXPECT("div 4 values", V(f_div(&cons, 4)), "[0, 0, 0, 0, 1, 1, 1, 1]");
  EXPECT("div 1", both(f_div, 1),
         "{contiguity: [8], divisibility: [inf], constancy: [1]} | "
         "{contiguity: [8], divisibility: [inf], constancy: [1]}");
  EXPECT("div 3", both(f_div, 3),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  /* floor division keeps the blocks for negative indices */
  EXPECT("div negative", both(f_div_neg, 4),
         "{contiguity: [1], divisibility: [1], constancy: [4]} | "
         "{contiguity: [1], divisibility: [1], constancy: [4]}");
  EXPECT("div negative values", V(f_div_neg(&cons, 4)), "[-2, -2, -2, -2, -1, -1, -1, -1]");
  /* lhs contiguity 1: divisibility 8 / 4 */
  EXPECT("div spread", both(f_div_spread, 4),
         "{contiguity: [1], divisibility: [2], constancy: [2]} | "
         "{contiguity: [1], divisibility: [2], constancy: [2]}");
  EXPECT("rem 4", both(f_rem, 4),
         "{contiguity: [4], divisibility: [4], constancy: [1]} | "
         "{contiguity: [4], divisibility: [inf], constancy: [1]}");
  EXPECT("rem 3", both(f_rem, 3),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  EXPECT("rem 1", both(f_rem, 1),
         "{contiguity: [1], divisibility: [inf], constancy: [8], constant: 0} | "
         "{contiguity: [1], divisibility: [inf], constancy: [8], constant: 0}");
  EXPECT("rem negative values", V(lytV_rem(&cons, range(&cons, -4, 4), 3)),
         "[2, 0, 1, 2, 0, 1, 2, 0]");
  /* lhs not contiguous over the whole dim: Triton gives contiguity 1, and
  ** its plain divisibility gcd(8, 4) = 4 would be false at element 1 */
  EXPECT("rem partial", both(f_rem_part, 4),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [4], divisibility: [inf], constancy: [1]}");
}

static void test_bitwise(void) {
  /* [0..15] ^ 4 = [4,5,6,7,0,1,2,3,12,...]: blocks of 4 survive */
  EXPECT("xor 4", both(f_xor, 4),
         "{contiguity: [4], divisibility: [4], constancy: [1]} | "
         "{contiguity: [4], divisibility: [4], constancy: [1]}");
  EXPECT("xor 4 values", V(f_xor(&cons, 4)),
         "[4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11]");
  EXPECT("xor 0", both(f_xor, 0),
         "{contiguity: [16], divisibility: [inf], constancy: [1]} | "
         "{contiguity: [16], divisibility: [inf], constancy: [1]}");
  EXPECT("xor 1", both(f_xor, 1),
         "{contiguity: [1], divisibility: [1], constancy: [1]} | "
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  EXPECT("xor 1 values", V(lytV_xor(&cons, range(&cons, 0, 4), 1)), "[1, 0, 3, 2]");
  EXPECT("xor 24", both(f_xor, 24),
         "{contiguity: [8], divisibility: [8], constancy: [1]} | "
         "{contiguity: [8], divisibility: [8], constancy: [1]}");
  EXPECT("and 3", both(f_and, 3),
         "{contiguity: [4], divisibility: [4], constancy: [1]} | "
         "{contiguity: [4], divisibility: [inf], constancy: [1]}");
  EXPECT("and -4", both(f_and, -4),
         "{contiguity: [1], divisibility: [4], constancy: [4]} | "
         "{contiguity: [1], divisibility: [4], constancy: [4]}");
  EXPECT("and 0", both(f_and, 0),
         "{contiguity: [1], divisibility: [inf], constancy: [16], constant: 0} | "
         "{contiguity: [1], divisibility: [inf], constancy: [16], constant: 0}");
  EXPECT("and -1", both(f_and, -1),
         "{contiguity: [16], divisibility: [inf], constancy: [1]} | "
         "{contiguity: [16], divisibility: [inf], constancy: [1]}");
  /* [0,1,0,1,4,5,4,5,...]: the rule cannot see that 2 is cleared */
  EXPECT("and 5", both(f_and, 5),
         "{contiguity: [2], divisibility: [2], constancy: [1]} | "
         "{contiguity: [2], divisibility: [4], constancy: [1]}");
}

/* offs = rows[:, None] * 8 + cols[None, :], the usual 2-D tile of offsets */
static lytV_val *f_tile(lytV_ctx *m, int64_t ld) {
  static const int64_t s41[] = {4, 1}, s48[] = {4, 8};
  lytV_val *r = lytV_expand_dims(m, range(m, 0, 4), 1);
  r = lytV_broadcast(m, lytV_mul(m, r, lytV_splat(m, ld, 2, s41)), 2, s48);
  lytV_val *c = lytV_broadcast(m, lytV_expand_dims(m, range(m, 0, 8), 0), 2, s48);
  return lytV_add(m, r, c);
}

static void test_shape_ops(void) {
  static const int64_t s34[] = {3, 4}, s42[] = {4, 2};
  EXPECT("expand 0", I(lytV_expand_dims(&cons, range(&cons, 0, 4), 0)),
         "{contiguity: [1, 4], divisibility: [1, inf], constancy: [1, 1]}");
  EXPECT("expand splat", I(lytV_expand_dims(&cons, splat1(&cons, 12, 4), 1)),
         "{contiguity: [1, 1], divisibility: [4, 4], constancy: [4, 1], constant: 12}");
  EXPECT("broadcast rows", I(lytV_broadcast(&cons, lytV_expand_dims(&cons, range(&cons, 0, 4), 0), 2, s34)),
         "{contiguity: [1, 4], divisibility: [1, inf], constancy: [3, 1]}");
  EXPECT("broadcast rows exact", I(lytV_broadcast(&exact, lytV_expand_dims(&exact, range(&exact, 0, 4), 0), 2, s34)),
         "{contiguity: [1, 4], divisibility: [1, inf], constancy: [3, 1]}");
  EXPECT("broadcast cols", I(lytV_broadcast(&cons, lytV_expand_dims(&cons, range(&cons, 4, 8), 1), 2, s42)),
         "{contiguity: [4, 1], divisibility: [4, 1], constancy: [1, 2]}");
  EXPECT("broadcast values", V(lytV_broadcast(&cons, lytV_expand_dims(&cons, range(&cons, 4, 8), 1), 2, s42)),
         "[[4, 4], [5, 5], [6, 6], [7, 7]]");
  EXPECT("tile", both(f_tile, 8),
         "{contiguity: [1, 8], divisibility: [1, 8], constancy: [1, 1]} | "
         "{contiguity: [1, 8], divisibility: [1, 8], constancy: [1, 1]}");
  EXPECT("tile ld 12", both(f_tile, 12),
         "{contiguity: [1, 8], divisibility: [1, 4], constancy: [1, 1]} | "
         "{contiguity: [1, 8], divisibility: [1, 4], constancy: [1, 1]}");
}

/* ------------------------------------------------------------------ */
/* layouts through the callback                                        */
/* ------------------------------------------------------------------ */

typedef struct stride2 { int64_t n0, s0, s1; } stride2;  /* (n0, _):(s0, s1) */

static int64_t eval_stride2(lytS_ctx *c, void *ud, int64_t id) {
  const stride2 *l = ud;
  return lytS_add(c, lytS_mul(c, id % l->n0, l->s0), lytS_mul(c, id / l->n0, l->s1));
}

static int64_t eval_swizzle(lytS_ctx *c, void *ud, int64_t id) {
  (void)c, (void)ud;
  return id ^ ((id >> 3) & 7) << 2;  /* a 3-bit XOR swizzle over 4-element units */
}

static int64_t eval_fail(lytS_ctx *c, void *ud, int64_t id) {
  (void)ud;
  if (id == 3) lytS_fail(c, LYT_ERRRUN, "layout undefined at %lld", (long long)id);
  return id;
}

static const char *vw(const lytV_val *v, int dim, int64_t eb, int64_t align, int64_t ept);

static void test_callback(void) {
  stride2 l = {4, 1, 64};
  EXPECT("fn stride", I(lytV_from_fn(&cx, 1, S16, 0, eval_stride2, &l)),
         "{contiguity: [4], divisibility: [64], constancy: [1]}");
  EXPECT("fn stride first", V(lytV_from_fn(&cx, 1, S8, 4, eval_stride2, &l)),
         "[64, 65, 66, 67, 128, 129, 130, 131]");
  stride2 t = {4, 2, 1};  /* element (i, j) holds 2j + i: dim 0 is the contiguous one */
  lytV_val *tv = lytV_from_fn(&cx, 2, S4x4, 0, eval_stride2, &t);
  EXPECT("fn transposed", I(tv), "{contiguity: [4, 1], divisibility: [2, 1], constancy: [1, 1]}");
  EXPECT("fn transposed vw dim 0", vw(tv, 0, 2, 16, 4), "2");
  EXPECT("fn transposed vw dim 1", vw(tv, 1, 2, 16, 4), "1");
  static const int64_t s864[] = {64};
  EXPECT("fn swizzle", I(lytV_from_fn(&cx, 1, s864, 0, eval_swizzle, NULL)),
         "{contiguity: [4], divisibility: [4], constancy: [1]}");
  EXPECT_ERR("fn fails", V(lytV_from_fn(&cx, 1, S8, 0, eval_fail, NULL)), "layout undefined at 3");
  EXPECT_ERR("fn id overflow", V(lytV_from_fn(&cx, 1, S8, INT64_MAX - 2, eval_stride2, &l)),
             "overflow");
}

/* ------------------------------------------------------------------ */
/* vector width                                                        */
/* ------------------------------------------------------------------ */

static const char *vw(const lytV_val *v, int dim, int64_t eb, int64_t align, int64_t ept) {
  return SI(lytV_vector_width(&cx, &v->info, dim, eb, align, ept));
}

static void test_vector_width(void) {
  lytV_val *r = range(&cons, 0, 128);
  EXPECT("vw fp16 x8 (.v4.b32)", vw(r, 0, 2, 16, 8), "8");
  EXPECT("vw fp32 cap 16 B", vw(r, 0, 4, 16, 8), "4");
  EXPECT("vw fp64 cap", vw(r, 0, 8, 16, 8), "2");
  EXPECT("vw int8 cap", vw(r, 0, 1, 16, 32), "16");
  EXPECT("vw elem 32 B", vw(r, 0, 32, 64, 4), "1");
  EXPECT("vw per thread 2", vw(r, 0, 4, 16, 2), "2");
  EXPECT("vw per thread 6", vw(r, 0, 2, 16, 6), "2");
  EXPECT("vw fp16 align 8", vw(r, 0, 2, 8, 8), "4");
  EXPECT("vw fp16 align 4", vw(r, 0, 2, 4, 8), "2");
  /* [%rd+4] with .v4.b32 faults: an fp32 pointer aligned to 4 gets 1 */
  EXPECT("vw fp32 align 4", vw(r, 0, 4, 4, 8), "1");
  EXPECT("vw fp32 align 2", vw(r, 0, 4, 2, 8), "1");
  /* addptr [16] : ptr<i32>, [0,1,2,3]: divisibility 16 bytes */
  EXPECT("vw addptr i32", vw(range(&cons, 0, 4), 0, 4, 16, 4), "4");
  /* offsets + 2: address divisible by 4 bytes = 2 fp16 */
  EXPECT("vw offset 2", vw(lytV_add(&cons, r, splat1(&cons, 2, 128)), 0, 2, 16, 8), "2");
  /* seed's result: contiguity 3 admits no vector of 2 */
  static const int64_t s[] = {2, 3, 4, 8, 9, 10};
  EXPECT("vw seed", vw(vals1(6, s), 0, 4, 16, 4), "1");
  static const int64_t c6[] = {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17};
  EXPECT("vw contiguity 6", vw(vals1(12, c6), 0, 4, 16, 8), "2");
  lytV_val *t = f_tile(&cons, 8);
  EXPECT("vw tile dim 1", vw(t, 1, 2, 16, 8), "8");
  EXPECT("vw tile dim 0", vw(t, 0, 2, 16, 8), "1");
  EXPECT("vw tile ld 12", vw(f_tile(&cons, 12), 1, 2, 16, 8), "4");
  EXPECT("vw tile ld 12 exact", vw(f_tile(&exact, 12), 1, 2, 16, 8), "4");
  EXPECT_ERR("vw elem 3", vw(r, 0, 3, 16, 8), "element size 3 is not a positive power of two");
  EXPECT_ERR("vw align 12", vw(r, 0, 4, 12, 8), "pointer alignment 12 is not");
  EXPECT_ERR("vw dim", vw(r, 1, 4, 16, 8), "dim 1 outside 0..0");
  EXPECT_ERR("vw per thread 0", vw(r, 0, 4, 16, 0), "elements per thread 0");
}

/* ------------------------------------------------------------------ */
/* hints and errors                                                    */
/* ------------------------------------------------------------------ */

static void test_hints(void) {
  lytV_val *r = range(&cons, 0, 8);
  lytV_info h = lytV_pessimistic(1);
  EXPECT("assume pessimistic", I(lytV_assume(&cx, r, &h)),
         "{contiguity: [1], divisibility: [1], constancy: [1]}");
  h.contiguity[0] = 4;
  h.divisibility[0] = 4;
  EXPECT("assume weaker", I(lytV_assume(&cx, r, &h)),
         "{contiguity: [4], divisibility: [4], constancy: [1]}");
  h.divisibility[0] = 16;  /* the block starting at 4 */
  EXPECT("holds too strong", SI(lytV_info_holds(&cx, r, &h)), "0");
  h.divisibility[0] = 8;
  EXPECT_ERR("assume false", I(lytV_assume(&cx, range(&cons, 4, 12), &h)),
             "hint {contiguity: [4], divisibility: [8], constancy: [1]} does not hold");
  h.divisibility[0] = 3;
  EXPECT("holds non-pow2", SI(lytV_info_holds(&cx, r, &h)), "0");
  h = lytV_pessimistic(1);
  h.contiguity[0] = 3;
  EXPECT("holds non-divisor", SI(lytV_info_holds(&cx, r, &h)), "0");
  h = lytV_pessimistic(2);
  EXPECT("holds rank", SI(lytV_info_holds(&cx, r, &h)), "0");
  h = lytV_pessimistic(1);
  h.has_const = 1;
  EXPECT("holds constant", SI(lytV_info_holds(&cx, r, &h)), "0");
  EXPECT("pow2 divisor", SI(lytV_pow2_divisor(-24)), "8");
  EXPECT("pow2 divisor min", SI(lytV_pow2_divisor(INT64_MIN)), SI(LYTV_MAX_DIV));
}

static void test_errors(void) {
  lytV_val *r = range(&cons, 0, 8);
  static const int64_t s5[] = {1, 1, 1, 1, 1}, s41[] = {4, 1}, s44[] = {4, 4};
  EXPECT_ERR("div by zero", V(lytV_div(&cons, r, 0)), "division by zero in /");
  EXPECT_ERR("rem by zero", V(lytV_rem(&exact, r, 0)), "division by zero in %");
  EXPECT_ERR("div negative", V(lytV_div(&cons, r, -2)), "divisor -2 of / must be positive");
  EXPECT_ERR("add shapes", V(lytV_add(&cons, r, range(&cons, 0, 4))),
             "shape mismatch in +: [8] vs [4]");
  EXPECT_ERR("mul ranks", V(lytV_mul(&cons, r, lytV_expand_dims(&cons, r, 0))),
             "shape mismatch in *: [8] vs [1, 8]");
  EXPECT_ERR("broadcast extent", V(lytV_broadcast(&cons, lytV_splat(&cons, 1, 2, s41), 2,
                                                  (const int64_t[]){3, 4})),
             "cannot broadcast [4, 1]: dim 0 is 4, not 1 or 3");
  EXPECT_ERR("broadcast rank", V(lytV_broadcast(&cons, r, 2, s44)), "expand_dims first");
  EXPECT_ERR("range not pow2", V(range(&cons, 0, 6)), "length 6 is not a positive power of two");
  EXPECT_ERR("range empty", V(range(&cons, 5, 5)), "length 0 is not");
  EXPECT_ERR("range reversed", V(range(&cons, 5, 1)), "length -4 is not");
  EXPECT_ERR("range overflow", V(range(&cons, -2, INT64_MAX)), "integer overflow");
  EXPECT_ERR("range too long", V(range(&cons, 0, (int64_t)1 << 30)), "exceeds");
  EXPECT_ERR("rank 5", V(lytV_splat(&cons, 0, 5, s5)), "rank 5 outside 1..4");
  EXPECT_ERR("rank 0", V(lytV_splat(&cons, 0, 0, s5)), "rank 0 outside 1..4");
  EXPECT_ERR("extent 0", V(lytV_splat(&cons, 0, 1, (const int64_t[]){0})),
             "extent 0 of dim 0 must be positive");
  EXPECT_ERR("expand rank 5", V(lytV_expand_dims(&cons, lytV_splat(&cons, 0, 4, s5), 0)),
             "would exceed 4");
  EXPECT_ERR("expand axis", V(lytV_expand_dims(&cons, r, 2)), "axis 2 outside 0..1");
  EXPECT_ERR("add overflow", V(lytV_add(&cons, splat1(&cons, INT64_MAX, 2), splat1(&cons, 1, 2))),
             "integer overflow in");
  EXPECT_ERR("sub overflow", V(lytV_sub(&exact, splat1(&exact, INT64_MIN, 2), splat1(&exact, 1, 2))),
             "integer overflow in");
  EXPECT_ERR("mul overflow", V(lytV_mul(&cons, splat1(&cons, (int64_t)1 << 40, 2),
                                        splat1(&cons, (int64_t)1 << 40, 2))),
             "integer overflow in");
  EXPECT_ERR("too many", V(lytV_splat(&cons, 0, 2, (const int64_t[]){1 << 13, 1 << 12})),
             "exceeds 16777216 elements");
  /* a value at INT64_MAX has no successor: not contiguous, no overflow */
  static const int64_t top[] = {INT64_MAX - 1, INT64_MAX};
  EXPECT("top of range", I(vals1(2, top)), "{contiguity: [2], divisibility: [2], constancy: [1]}");
  static const int64_t wrap[] = {INT64_MAX, INT64_MIN};
  EXPECT("no wrap", I(vals1(2, wrap)), "{contiguity: [1], divisibility: [1], constancy: [1]}");
}

/* ------------------------------------------------------------------ */
/* properties on random expressions                                    */
/* ------------------------------------------------------------------ */

typedef struct rng { uint64_t s; } rng;

static uint64_t next(rng *r) {  /* xorshift64* */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ull;
}

static int64_t rnd(rng *r, int64_t n) { return (int64_t)(next(r) % (uint64_t)n); }

/* Brute force from the definitions: try every block length. */
static int blocks_ok(const lytV_val *v, int d, int64_t c, int consecutive) {
  int64_t st = 1;
  for (int e = d + 1; e < v->rank; e++) st *= v->shape[e];
  for (int64_t e = 0; e < v->n; e++) {
    int64_t i = (e / st) % v->shape[d];
    if (i % c == 0) continue;
    int64_t want = consecutive ? v->v[e - st] + 1 : v->v[e - st];
    if (v->v[e - st] == INT64_MAX && consecutive) return 0;
    if (v->v[e] != want) return 0;
  }
  return 1;
}

static int64_t brute_len(const lytV_val *v, int d, int consecutive) {
  for (int64_t c = v->shape[d]; c > 1; c--)
    if (v->shape[d] % c == 0 && blocks_ok(v, d, c, consecutive)) return c;
  return 1;
}

static int64_t brute_div(const lytV_val *v, int d, int64_t c) {
  int64_t st = 1, best = LYTV_MAX_DIV;
  for (int e = d + 1; e < v->rank; e++) st *= v->shape[e];
  for (int64_t e = 0; e < v->n; e++) {
    if (((e / st) % v->shape[d]) % c) continue;
    int64_t p = 1, x = v->v[e];
    if (x == 0) continue;
    while (p < LYTV_MAX_DIV && x % (2 * p) == 0) p *= 2;
    if (p < best) best = p;
  }
  return best;
}

static const char *brute_str(const lytV_val *v) {
  lytV_info b = lytV_pessimistic(v->rank);
  for (int d = 0; d < v->rank; d++) {
    b.contiguity[d] = brute_len(v, d, 1);
    b.constancy[d] = brute_len(v, d, 0);
    b.divisibility[d] = brute_div(v, d, b.contiguity[d]);
  }
  b.has_const = 1;
  for (int64_t e = 1; e < v->n; e++) b.has_const &= v->v[e] == v->v[0];
  b.cval = b.has_const ? v->v[0] : 0;
  return lytV_info_str(&cx, &b);
}

/* conservative <= exact, componentwise: lengths divide, powers compare */
static int below(const lytV_info *c, const lytV_info *e) {
  for (int d = 0; d < c->rank; d++)
    if (e->contiguity[d] % c->contiguity[d] || e->constancy[d] % c->constancy[d] ||
        c->divisibility[d] > e->divisibility[d])
      return 0;
  return 1;
}

static int nchecked;

static void check_node(const lytV_ctx *m, const lytV_val *v, const char *what) {
  lytV_info ex = lytV_exact_info(&cx, v);
  const char *exs = lytV_info_str(&cx, &ex);
  nchecked++;
  check(what, exs, brute_str(v));  /* exact == brute force */
  if (m->mode == LYTV_EXACT) { check(what, I(v), exs); return; }
  if (!lytV_info_holds(&cx, v, &v->info) || !below(&v->info, &ex)) {
    lytS_buf b;
    lytS_buf_init(&b, &cx);
    lytS_buf_printf(&b, "%s %s of %s", what, I(v), V(v));
    check(b.p, "a claim that does not hold", exs);
  }
}

typedef struct affine { int64_t base, r, a, b; } affine;

static int64_t eval_affine(lytS_ctx *c, void *ud, int64_t id) {
  const affine *f = ud;
  (void)c;
  return f->base + (id / f->r) * f->a + (id % f->r) * f->b;
}

static lytV_val *gen(const lytV_ctx *m, rng *r, int rank, const int64_t *shape, int depth);

/* A contiguous range along a power-of-two dim, expanded and broadcast. */
static lytV_val *gen_range(const lytV_ctx *m, rng *r, int rank, const int64_t *shape, int d) {
  int64_t s = rnd(r, 4) ? rnd(r, 5) * 8 : rnd(r, 40) - 8;
  lytV_val *v = lytV_make_range(m, s, s + shape[d]);
  for (int k = 0; k < d; k++) v = lytV_expand_dims(m, v, 0);
  while (v->rank < rank) v = lytV_expand_dims(m, v, v->rank);
  return lytV_broadcast(m, v, rank, shape);
}

static lytV_val *gen_leaf(const lytV_ctx *m, rng *r, int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++) n *= shape[d];
  int kind = (int)rnd(r, 5), d = (int)rnd(r, rank);
  if (kind == 0 && (shape[d] & (shape[d] - 1)) == 0) return gen_range(m, r, rank, shape, d);
  if (kind <= 1) {
    /* 2^40 makes some products overflow: those trees must fail cleanly */
    static const int64_t pick[] = {0, 1, 2, 3, 4, 8, 16, 12, -4, 6, 64, (int64_t)1 << 40};
    return lytV_splat(m, pick[rnd(r, 12)], rank, shape);
  }
  if (kind <= 3) {
    static const int64_t rs[] = {1, 2, 3, 4, 8};
    affine f = {rnd(r, 4) * 16 + rnd(r, 3), rs[rnd(r, 5)], rnd(r, 5) * 4, rnd(r, 3) ? 1 : rnd(r, 3)};
    lytV_val *v = lytV_from_fn(m->cx, rank, shape, rnd(r, 8), eval_affine, &f);
    if (rnd(r, 4) == 0) {
      lytV_info p = lytV_pessimistic(rank);
      v = lytV_assume(m->cx, v, &p);
    }
    return v;
  }
  int64_t *vals = lytS_alloc(m->cx, sizeof *vals * (size_t)n);
  for (int64_t e = 0; e < n; e++) vals[e] = rnd(r, 50) - 10;
  return lytV_from_values(m->cx, rank, shape, vals);
}

/* A broadcast from the shape with some dims shrunk to 1, or an
** expand_dims where a dim already is 1. */
static lytV_val *gen_shape_op(const lytV_ctx *m, rng *r, int rank, const int64_t *shape, int depth) {
  int64_t sub[LYTV_MAXRANK];
  for (int d = 0; d < rank; d++) {
    if (shape[d] == 1 && rank > 1 && rnd(r, 2)) {
      memcpy(sub, shape, sizeof *sub * (size_t)d);
      memcpy(sub + d, shape + d + 1, sizeof *sub * (size_t)(rank - d - 1));
      return lytV_expand_dims(m, gen(m, r, rank - 1, sub, depth - 1), d);
    }
    sub[d] = rnd(r, 2) ? 1 : shape[d];
  }
  return lytV_broadcast(m, gen(m, r, rank, sub, depth - 1), rank, shape);
}

static lytV_val *gen(const lytV_ctx *m, rng *r, int rank, const int64_t *shape, int depth) {
  static const int64_t ks[] = {1, 2, 3, 4, 8, 16, 6, 32};
  static const int64_t bits[] = {0, -1, 1, 3, 4, 7, 8, 16, -8, -16, 12, 5, 15, 24, 31};
  static const char *const names[] = {"add", "sub", "mul", "div", "rem", "xor", "and", "shape"};
  if (depth == 0 || rnd(r, 4) == 0) return gen_leaf(m, r, rank, shape);
  int op = (int)rnd(r, 8);
  lytV_val *a = op == 7 ? NULL : gen(m, r, rank, shape, depth - 1), *v;
  switch (op) {
  case 0: v = lytV_add(m, a, gen(m, r, rank, shape, depth - 1)); break;
  case 1: v = lytV_sub(m, a, gen(m, r, rank, shape, depth - 1)); break;
  case 2: v = lytV_mul(m, a, gen(m, r, rank, shape, depth - 1)); break;
  case 3: v = lytV_div(m, a, ks[rnd(r, 8)]); break;
  case 4: v = lytV_rem(m, a, ks[rnd(r, 8)]); break;
  case 5: v = lytV_xor(m, a, bits[rnd(r, 15)]); break;
  case 6: v = lytV_and(m, a, bits[rnd(r, 15)]); break;
  default: v = gen_shape_op(m, r, rank, shape, depth); break;
  }
  check_node(m, v, names[op]);
  return v;
}

/* One random tree in both modes: 1 if evaluated, 0 if it overflowed. */
static int one_tree(uint64_t seed) {
  static const int64_t shapes[][3] = {{8}, {16}, {6}, {4, 8}, {2, 3}, {8, 4}, {12}, {2, 2, 8}, {1, 16}};
  static const int ranks[] = {1, 1, 1, 2, 2, 2, 1, 3, 2};
  int k = (int)(seed % 9);
  lytA_mark mk = lytA_getmark(&arena);
  if (setjmp(jb) == 0) {
    rng r1 = {seed * 0x9E3779B97F4A7C15ull}, r2 = r1;
    const char *vc = V(gen(&cons, &r1, ranks[k], shapes[k], 4));
    check("property same values", vc, V(gen(&exact, &r2, ranks[k], shapes[k], 4)));
    lytA_release(&arena, mk);
    return 1;
  }
  if (!strstr(cx.msg, "overflow")) check("property tree", errtext(), "no error but overflow");
  lytA_release(&arena, mk);
  return 0;
}

static void test_properties(void) {
  int ntrees = 0, nover = 0;
  for (uint64_t seed = 1; seed <= 3000; seed++) {
    if (one_tree(seed)) ntrees++;
    else nover++;
  }
  if (getenv("AXISINFO_VERBOSE"))
    printf("trees %d overflowed %d nodes %d\n", ntrees, nover, nchecked);
  if (ntrees < 2500) check("property trees evaluated", SI(ntrees), ">= 2500");
  if (nover < 1) check("property overflows met", SI(nover), ">= 1");
  if (nchecked < 10000) check("property nodes checked", SI(nchecked), ">= 10000");
}

int main(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  cons = lytV_context(&cx, LYTV_CONSERVATIVE);
  exact = lytV_context(&cx, LYTV_EXACT);
  test_seed();
  test_definitions();
  test_leaves();
  test_addsub();
  test_mul();
  test_divrem();
  test_bitwise();
  test_shape_ops();
  test_callback();
  test_vector_width();
  test_hints();
  test_errors();
  test_properties();
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
