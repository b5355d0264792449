/*
** test_axe.c: unit and property tests of the Axe layout core (lytX_).
**
** Layouts are written in the printer's notation and read with lytX_read;
** results compare as printed text. Covered: every worked example of
** shared/reference/axe_iree_tilelang.md §1.5-1.8 and seed 002 with the
** numbers they state, the algebra (canonicalize, group, tile, direct
** sum, slice), the CuTe and GF(2) conversions, every error path, and a
** brute-force reference (straight from the definition) against forward
** and backward on random layouts, including the fast backward path
** against the exhaustive one.
*/
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/axe/axe.h"
#include "harness.h"

static lytX_layout *X(const char *s) { return lytX_read(&cx, s); }
static const char *S(const lytX_layout *l) { return lytX_str(&cx, l); }
static const char *pts(lytX_points p) { return lytX_points_str(&cx, &p); }
static const char *crds(lytX_coords c) { return lytX_coords_str(&cx, &c); }
static const char *num(int64_t v) {
  char *o = lytS_alloc(&cx, 32);
  snprintf(o, 32, "%lld", (long long)v);
  return o;
}
static const char *dup(const char *s) {
  char *p = lytS_alloc(&cx, strlen(s) + 1);
  strcpy(p, s);
  return p;
}

/* forward of a coordinate, points in the given axis order (NULL: canonical) */
static const char *fwd(const char *lay, int32_t rank, const int64_t *shape, const int64_t *x,
                       const char *const *order, int32_t norder) {
  lytX_points p = lytX_apply(&cx, X(lay), rank, shape, x);
  if (order) p = lytX_points_reorder(&cx, &p, norder, order);
  return lytX_points_str(&cx, &p);
}

/* backward of a named point */
static const char *bwd(const char *lay, int32_t rank, const int64_t *shape, int32_t n,
                       const char *const *names, const int64_t *vals) {
  lytX_layout *L = X(lay);
  int64_t p[LYTX_MAXAXES];
  lytX_point(&cx, L, n, names, vals, p);
  lytX_coords c = lytX_preimage(&cx, L, rank, shape, p);
  return lytX_coords_str(&cx, &c);
}

/* ------------------------------------------------------------------ */
/* printing and reading                                                */
/* ------------------------------------------------------------------ */

static void test_text(void) {
  const char *rt[] = {
    "S[(8,2,4,2):(4@lane,1@warp,1@lane,1@reg)] + R[2:4@warp] + {warp: 5}",
    "S[(2,32,2,64):(1@gpuid,128,2@gpuid,1)]",
    "S[8:1@lane]",
    "S[():()] + R[(2,2):(4@warp,1@gpuid)]",
    "S[(3,4):(-4,0)] + {m: 7, lane: -2}",
  };
  for (volatile int i = 0; i < 5; i++) EXPECT("text-1", S(X(rt[i])), rt[i]);
  EXPECT("text-2", S(X("(8,2):(4@lane,1) + R[2:4@warp] + 5@warp + 2@warp")),
         "S[(8,2):(4@lane,1)] + R[2:4@warp] + {warp: 7}");
  EXPECT("text-3", S(X("4:1@m")), "S[4:1]");
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytX_layout *L = X("S[(8,2):(4@lane,1@warp)] + R[(2,2):(4@warp,1@gpuid)] + {warp: 5}");
  lytX_print_shard(&b, L);
  lytS_buf_puts(&b, " ");
  lytX_print_replica(&b, L);
  lytS_buf_puts(&b, " ");
  lytX_print_offset(&b, L);
  EXPECT("text-4", b.p, "(8,2):(4@lane,1@warp) (2,2):(4@warp,1@gpuid) {warp: 5}");
  EXPECT_ERR("text-5", S(X("S[(8,2):(4@lane)]")), "expected ','");
  EXPECT_ERR("text-6", S(X("S[8:1@]")), "an axis name");
  EXPECT_ERR("text-7", S(X("S[8:1] junk")), "'+' or the end");
}

/* ------------------------------------------------------------------ */
/* worked examples (reference §1.8, seed 002)                          */
/* ------------------------------------------------------------------ */

static const char *TC = "S[(8,2,4,2):(4@lane,1@warp,1@lane,1@reg)] + R[2:4@warp] + {warp: 5}";

static void test_tensor_core(void) {
  static const char *const wlr[] = {"warp", "lane", "reg"};
  int64_t sh[2] = {8, 16};
  int64_t x1[2] = {2, 9}, x2[2] = {0, 0}, x3[2] = {0, 8}, x4[2] = {7, 15};
  EXPECT("tc-1", fwd(TC, 2, sh, x1, wlr, 3),
         "[{warp: 6, lane: 8, reg: 1}, {warp: 10, lane: 8, reg: 1}]");
  EXPECT("tc-2", fwd(TC, 2, sh, x1, NULL, 0),
         "[{lane: 8, warp: 6, reg: 1}, {lane: 8, warp: 10, reg: 1}]");
  EXPECT("tc-3", fwd(TC, 2, sh, x2, wlr, 3),
         "[{warp: 5, lane: 0, reg: 0}, {warp: 9, lane: 0, reg: 0}]");
  EXPECT("tc-4", fwd(TC, 2, sh, x3, wlr, 3),
         "[{warp: 6, lane: 0, reg: 0}, {warp: 10, lane: 0, reg: 0}]");
  EXPECT("tc-5", fwd(TC, 2, sh, x4, wlr, 3),
         "[{warp: 6, lane: 31, reg: 1}, {warp: 10, lane: 31, reg: 1}]");
  int64_t v1[3] = {6, 8, 1}, v2[3] = {10, 8, 1}, v3[3] = {7, 8, 1}, v4[3] = {4, 8, 1};
  EXPECT("tc-6", bwd(TC, 2, sh, 3, wlr, v1), "[(2,9)]");
  EXPECT("tc-7", bwd(TC, 2, sh, 3, wlr, v2), "[(2,9)]");
  EXPECT("tc-8", bwd(TC, 2, sh, 3, wlr, v3), "[]");   /* warp 7: outside {5,6,9,10} */
  EXPECT("tc-9", bwd(TC, 2, sh, 3, wlr, v4), "[]");
  int64_t flat[1] = {128};
  EXPECT("tc-10", fwd(TC, 1, flat, (int64_t[]){41}, wlr, 3),
         "[{warp: 6, lane: 8, reg: 1}, {warp: 10, lane: 8, reg: 1}]");
  /* m8n8 fragment: (5,3) -> lane 21, reg 1 */
  int64_t s88[2] = {8, 8};
  EXPECT("tc-11", fwd("S[(8,4,2):(4@lane,1@lane,1@reg)]", 2, s88, (int64_t[]){5, 3}, NULL, 0),
         "[{lane: 21, reg: 1}]");
  EXPECT("tc-12", lytX_is_mixed_radix(X(TC)) ? "fast" : "slow", "fast");
}

static void test_mesh(void) {
  static const char *const xym[] = {"gpuid_x", "gpuid_y", "m"};
  int64_t s88[2] = {8, 8}, x[2] = {6, 3};
  /* course/book 8x8 on a 2x2 mesh, element (6,3) */
  const char *base = "S[(2,4,8):(1@gpuid_y,8,1)]";
  EXPECT("mesh-1", fwd("S[(2,4,8):(1@gpuid_y,8,1)] + R[2:1@gpuid_x]", 2, s88, x, xym, 3),
         "[{gpuid_x: 0, gpuid_y: 1, m: 19}, {gpuid_x: 1, gpuid_y: 1, m: 19}]");
  EXPECT("mesh-2", fwd("S[(2,4,8):(1@gpuid_y,8,1)] + 1@gpuid_x", 2, s88, x, xym, 3),
         "[{gpuid_x: 1, gpuid_y: 1, m: 19}]");
  EXPECT("mesh-3", fwd("S[(2,4,2,4):(1@gpuid_y,8,1@gpuid_x,1)]", 2, s88, x, xym, 3),
         "[{gpuid_x: 0, gpuid_y: 1, m: 19}]");
  EXPECT("mesh-4", fwd(base, 3, (int64_t[]){2, 4, 8}, (int64_t[]){1, 2, 3}, NULL, 0),
         "[{gpuid_y: 1, m: 19}]");
  /* seed 002: 64x128 on a 2x2 mesh; full split, and row split + replica */
  int64_t s[2] = {64, 128}, y[2] = {40, 70};
  EXPECT("mesh-5", fwd("S[(2,32,2,64):(1@gpuid,128,2@gpuid,1)]", 2, s, y, NULL, 0),
         "[{gpuid: 3, m: 1030}]");
  EXPECT("mesh-6", fwd("S[(2,32,128):(1@gpuid,128,1)] + R[2:2@gpuid]", 2, s, y, NULL, 0),
         "[{gpuid: 1, m: 1094}, {gpuid: 3, m: 1094}]");
  static const char *const gm[] = {"gpuid", "m"};
  EXPECT("mesh-7", bwd("S[(2,32,128):(1@gpuid,128,1)] + R[2:2@gpuid]", 2, s, 2, gm,
                       (int64_t[]){3, 1094}), "[(40,70)]");
  EXPECT("mesh-8", bwd("S[(2,32,2,64):(1@gpuid,128,2@gpuid,1)]", 2, s, 2, gm,
                       (int64_t[]){2, 63}), "[(0,127)]");
  /* the last element device 1 holds, and an unreachable m */
  EXPECT("mesh-10", bwd("S[(2,32,2,64):(1@gpuid,128,2@gpuid,1)]", 2, s, 2, gm,
                        (int64_t[]){2, 127}), "[]");
  EXPECT("mesh-9", bwd("S[(2,32,2,64):(1@gpuid,128,2@gpuid,1)]", 2, s, 2, gm,
                       (int64_t[]){1, 4031}), "[(63,63)]");
}

static void test_accelerators(void) {
  /* Trainium SBUF */
  EXPECT("trn-1", fwd("S[(2,128,512):(512@F,1@P,1@F)]", 3, (int64_t[]){2, 128, 512},
                      (int64_t[]){1, 5, 7}, NULL, 0), "[{F: 519, P: 5}]");
  EXPECT("trn-2", fwd("S[(128,128):(1@P,1@F)]", 2, (int64_t[]){128, 128}, (int64_t[]){3, 4},
                      NULL, 0), "[{P: 3, F: 4}]");
  EXPECT("trn-3", fwd("S[(32,4,128,512):(512@F,16384@F,1@P,1@F)]", 3,
                      (int64_t[]){32, 512, 512}, (int64_t[]){3, 300, 7}, NULL, 0),
         "[{F: 34311, P: 44}]");
  EXPECT("trn-4", fwd("S[(2,4,32,512):(512@F,32@P,1@P,1@F)]", 4, (int64_t[]){2, 4, 32, 512},
                      (int64_t[]){1, 3, 31, 511}, NULL, 0), "[{F: 1023, P: 127}]");
  static const char *const pf[] = {"F", "P"};
  EXPECT("trn-5", bwd("S[(32,4,128,512):(512@F,16384@F,1@P,1@F)]", 3, (int64_t[]){32, 512, 512},
                      2, pf, (int64_t[]){34311, 44}), "[(3,300,7)]");
  /* Blackwell TMEM, 224 columns: (1,127,111) -> TLane 127, TCol 223 */
  const char *tm = "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]";
  EXPECT("tmem-1", fwd(tm, 3, (int64_t[]){2, 128, 112}, (int64_t[]){1, 127, 111}, NULL, 0),
         "[{TCol: 223, TLane: 127}]");
  static const char *const lc[] = {"TLane", "TCol"};
  EXPECT("tmem-2", bwd(tm, 3, (int64_t[]){2, 128, 112}, 2, lc, (int64_t[]){127, 223}),
         "[(1,127,111)]");
  EXPECT("tmem-3", bwd(tm, 3, (int64_t[]){2, 128, 112}, 2, lc, (int64_t[]){0, 224}), "[]");
  EXPECT("tmem-4", fwd("S[(2,128,112):(112@Col,1@Lane,1@Col)]", 2, (int64_t[]){256, 112},
                       (int64_t[]){130, 5}, NULL, 0), "[{Col: 117, Lane: 2}]");
  /* datapath M=64: row r -> lane 32*(r//16) + r%16 */
  EXPECT("tmem-5", fwd("S[(4,16,8):(32@TLane,1@TLane,1@TCol)]", 2, (int64_t[]){64, 8},
                       (int64_t[]){37, 5}, NULL, 0), "[{TLane: 69, TCol: 5}]");
  /* scale factors replicated to the 4 warps of a warpgroup */
  EXPECT("tmem-6", fwd("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]", 2, (int64_t[]){32, 4},
                       (int64_t[]){5, 2}, NULL, 0),
         "[{TLane: 5, TCol: 2}, {TLane: 37, TCol: 2}, {TLane: 69, TCol: 2}, "
         "{TLane: 101, TCol: 2}]");
  /* tiling as a layout: 8x8 in 2x4 tiles, tiles row-major */
  EXPECT("tile8-1", fwd("S[(4,2,2,4):(16,4,8,1)]", 2, (int64_t[]){8, 8}, (int64_t[]){3, 5},
                        NULL, 0), "[{m: 29}]");
}

/* ------------------------------------------------------------------ */
/* algebra                                                             */
/* ------------------------------------------------------------------ */

static const char *canon(const char *s) { return S(lytX_canonicalize(&cx, X(s))); }

static void test_canonicalize(void) {
  EXPECT("canon-1", canon("(8,8,8,4,2):(512,64,8,2,1)"), "S[4096:1]");
  EXPECT("canon-2", canon("(3,4,5,2):(20,5,1,60)"), "S[(60,2):(1,60)]");
  EXPECT("canon-3", canon("(8,4,8):(4@laneid,1@laneid,8)"), "S[(32,8):(1@laneid,8)]");
  EXPECT("canon-4", canon("(1,1):(3@lane,5)"), "S[1:1@lane]");
  EXPECT("canon-5", canon("S[(4,1,2):(2,7,1)] + R[(2,1,3):(1@w,9@w,4@a)] + {m: 0, w: 3}"),
         "S[8:1] + R[(3,2):(4@a,1@w)] + {w: 3}");
  EXPECT("canon-6", canon("(2,3):(0,0)"), "S[6:0]");
  EXPECT("canon-7", canon("(4,2):(2@a,1@b)"), "S[(4,2):(2@a,1@b)]");
  EXPECT("canon-8", canon("(2,3,2):(2,5,1)"), "S[(2,3,2):(2,5,1)]");  /* not adjacent */
  EXPECT("canon-9", canon("S[():()]"), "S[():()]");
}

static const char *grp(const char *s, int32_t rank, const int64_t *shape) {
  int32_t seps[LYTX_MAXDIMS + 1];
  lytX_layout *g = lytX_group(&cx, X(s), rank, shape, seps);
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytS_buf_puts(&b, S(g));
  for (int32_t d = 0; d <= rank; d++) lytS_buf_printf(&b, "%s%d", d ? "," : " seps ", seps[d]);
  return b.p;
}

static void test_group(void) {
  EXPECT("group-1", grp("32:1", 2, (int64_t[]){4, 8}), "S[(4,8):(8,1)] seps 0,1,2");
  EXPECT("group-2", grp("32:1@lane", 2, (int64_t[]){8, 4}),
         "S[(8,4):(4@lane,1@lane)] seps 0,1,2");
  EXPECT("group-3", grp("(4,6):(6,1)", 2, (int64_t[]){8, 3}), "S[(4,2,3):(6,3,1)] seps 0,2,3");
  EXPECT("group-4", grp("(2,1,4):(4,9,1)", 2, (int64_t[]){2, 4}),
         "S[(2,1,4):(4,9,1)] seps 0,1,3");
  EXPECT("group-5", grp("(8,2):(2,1)", 3, (int64_t[]){1, 16, 1}), "S[(8,2):(2,1)] seps 0,0,2,2");
  EXPECT_ERR("group-6", grp("(3,4):(4,1)", 2, (int64_t[]){2, 6}), "does not end on a factor");
  EXPECT_ERR("group-7", grp("(3,4):(4,1)", 2, (int64_t[]){2, 5}), "shape not admitted");
}

static void test_tile(void) {
  /* reference §1.6: sharding is a tile whose outer has thread axes */
  lytX_layout *in = X("(1,2):(2,1)"), *lanes = X("(8,4):(4@laneid,1@laneid)");
  lytX_layout *c = lytX_tile(&cx, lanes, in, 2, (int64_t[]){8, 4}, (int64_t[]){1, 2});
  EXPECT("tile-1", S(c), "S[(32,2):(1@laneid,1)]");
  lytX_layout *w = X("(2,2):(2@warpid,1@warpid)");
  EXPECT("tile-2", S(lytX_tile(&cx, w, c, 2, (int64_t[]){2, 2}, (int64_t[]){8, 8})),
         "S[(2,8,2,4,2):(2@warpid,4@laneid,1@warpid,1@laneid,1)]");
  /* memory tiles: outer strides scale by the inner span */
  EXPECT("tile-3", S(lytX_tile(&cx, X("(2,2):(2,1)"), X("(2,2):(2,1)"), 2, (int64_t[]){2, 2},
                               (int64_t[]){2, 2})), "S[(2,2,2,2):(8,2,4,1)]");
  EXPECT("tile-4", S(lytX_tile(&cx, X("S[2:1@w] + {w: 1}"), X("S[4:1] + R[2:1@t] + {m: 3}"), 1,
                               (int64_t[]){2}, (int64_t[]){4})),
         "S[(2,4):(1@w,1)] + R[2:1@t] + {w: 1, m: 3}");
  EXPECT("dsum-1", S(lytX_direct_sum(&cx, X("(2,2):(8,2)"), X("(2,2):(4,1)"), 2,
                                     (int64_t[]){2, 2}, (int64_t[]){2, 2})), "S[16:1]");
  EXPECT_ERR("tile-5", S(lytX_tile(&cx, X("4:1"), X("6:1"), 1, (int64_t[]){4}, (int64_t[]){5})),
             "shape not admitted");
}

static const char *slc(const char *s, int32_t rank, const int64_t *shape, const int64_t *b,
                       const int64_t *n) {
  return S(lytX_slice(&cx, X(s), rank, shape, b, n));
}

static void test_slice(void) {
  int64_t s88[2] = {8, 8};
  EXPECT("slice-1", slc("(8,8):(8,1)", 2, s88, (int64_t[]){2, 4}, (int64_t[]){4, 4}),
         "S[(4,4):(8,1)] + {m: 20}");
  EXPECT("slice-2", slc("S[(8,2,4,2):(4@lane,1@warp,1@lane,1@reg)] + R[2:4@warp] + {warp: 5}",
                        2, (int64_t[]){8, 16}, (int64_t[]){0, 8}, (int64_t[]){8, 8}),
         "S[(32,2):(1@lane,1@reg)] + R[2:4@warp] + {warp: 6}");
  EXPECT("slice-3", slc("16:1", 1, (int64_t[]){16}, (int64_t[]){4}, (int64_t[]){8}),
         "S[8:1] + {m: 4}");
  EXPECT("slice-4", slc("(8,8):(8,1)", 2, s88, (int64_t[]){0, 0}, (int64_t[]){8, 8}),
         "S[64:1]");
  EXPECT("slice-5", slc("(8,8):(8,1)", 2, s88, (int64_t[]){3, 2}, (int64_t[]){1, 1}),
         "S[1:1] + {m: 26}");
  EXPECT_ERR("slice-6", slc("(2,2):(10,1)", 1, (int64_t[]){4}, (int64_t[]){1}, (int64_t[]){3}),
             "carries across");
  EXPECT_ERR("slice-7", slc("(8,8):(8,1)", 2, s88, (int64_t[]){6, 0}, (int64_t[]){3, 8}),
             "leaves [0, 8)");
}

/* ------------------------------------------------------------------ */
/* conversions                                                         */
/* ------------------------------------------------------------------ */

static const char *from_cute(const char *s) {
  return S(lytX_from_cute(&cx, lytS_read_layout(&cx, s)));
}
static const char *to_cute(const char *s) {
  return lytS_layout_str(&cx, lytX_to_cute(&cx, X(s)));
}
static const char *to_ll(const char *s, const char *rep) {
  return lytG_str(&cx, lytX_to_linear(&cx, X(s), "idx", rep));
}

static void test_cute(void) {
  EXPECT("cute-1", from_cute("(4,2):(1,4)"), "S[(2,4):(4,1)]");
  EXPECT("cute-2", from_cute("((2,2),3):((1,6),2)"), "S[(3,2,2):(2,6,1)]");
  EXPECT("cute-3", from_cute("8:0"), "S[8:0]");
  EXPECT("cute-4", to_cute("S[(3,2,2):(2,6,1)]"), "(2,2,3):(1,6,2)");
  EXPECT("cute-5", to_cute("S[8:1]"), "8:1");
  EXPECT("cute-6", to_cute("S[():()]"), "1:0");
  EXPECT("cute-7", to_cute("S[4:1] + {m: 0}"), "4:1");
  EXPECT_ERR("cute-8", to_cute("S[4:1] + R[2:8]"), "replica");
  EXPECT_ERR("cute-9", to_cute("S[4:1] + {m: 3}"), "offset 3 on m");
  EXPECT_ERR("cute-10", to_cute("S[(4,2):(1@lane,1)]"), "not on the memory axis");
  EXPECT_ERR("cute-11", from_cute("(2,3):(1@0,1@1)"), "integer strides");
}

static lytG_ll *bases(int32_t n, const int64_t *v, int32_t nout, const char *const *outs) {
  lytG_inbases in = {"idx", n, v};
  static const int64_t sizes[2] = {4, 4};
  return lytG_from_bases(&cx, 1, &in, nout, outs, sizes, 0);
}

static void test_linear(void) {
  EXPECT("ll-1", to_ll("S[(8,4,2):(4@lane,1@lane,1@reg)]", NULL),
         lytG_str(&cx, lytG_from_bases(&cx, 1, &(lytG_inbases){"idx", 6,
                  (const int64_t[]){0, 1, 1, 0, 2, 0, 4, 0, 8, 0, 16, 0}}, 2,
                  (const char *const[]){"lane", "reg"}, NULL, 0)));
  EXPECT("ll-2", S(lytX_from_linear(&cx, lytX_to_linear(&cx, X("S[(8,4,2):(4@lane,1@lane,1@reg)]"),
                                                        "idx", NULL), "idx", NULL)),
         "S[(32,2):(1@lane,1@reg)]");
  lytX_layout *r = X("S[8:1@lane] + R[4:8@lane]");
  lytG_ll *g = lytX_to_linear(&cx, r, "idx", "rep");
  EXPECT("ll-3", lytG_str(&cx, g), "{idx: [[1],[2],[4]], rep: [[8],[16]]} -> {lane: 32}");
  EXPECT("ll-4", S(lytX_from_linear(&cx, g, "idx", "rep")), "S[8:1@lane] + R[4:8@lane]");
  EXPECT("ll-5", to_ll("S[(2,4):(0@w,1)]", NULL), "{idx: [[0,1],[0,2],[0,0]]} -> {w: 1, m: 4}");
  EXPECT("ll-6", S(lytX_from_linear(&cx, bases(2, (const int64_t[]){0, 1},
                                                1, (const char *const[]){"lane"}), "idx", NULL)),
         "S[(2,2):(1@lane,0@lane)]");
  EXPECT_ERR("ll-7", to_ll("S[3:1]", NULL), "not a power of 2");
  EXPECT_ERR("ll-8", to_ll("S[4:3]", NULL), "not 0 or a power of 2");
  EXPECT_ERR("ll-9", to_ll("S[4:1] + {m: 4}", NULL), "affine");
  EXPECT_ERR("ll-10", to_ll("S[4:1] + R[2:4]", NULL), "set-valued");
  EXPECT_ERR("ll-11", to_ll("S[(2,2):(1,1)]", NULL), "carry");
  EXPECT_ERR("ll-12", to_ll("S[4:-1]", NULL), "not 0 or a power of 2");
  EXPECT_ERR("ll-13", S(lytX_from_linear(&cx, bases(1, (const int64_t[]){3}, 1,
                                                    (const char *const[]){"m"}), "idx", NULL)),
             "mixes several output bits");
  EXPECT_ERR("ll-14", S(lytX_from_linear(&cx, bases(2, (const int64_t[]){1, 1}, 1,
                                                    (const char *const[]){"m"}), "idx", NULL)),
             "repeats an output bit");
  EXPECT_ERR("ll-15", S(lytX_from_linear(&cx, g, "idx", NULL)), "neither");
  EXPECT_ERR("ll-16", S(lytX_from_linear(&cx, g, "nope", NULL)), "nope");
  lytG_inbases two[2] = {{"idx", 1, (const int64_t[]){1}}, {"rep", 1, (const int64_t[]){0}}};
  lytG_ll *zr = lytG_from_bases(&cx, 2, two, 1, (const char *const[]){"m"}, NULL, 0);
  EXPECT_ERR("ll-17", S(lytX_from_linear(&cx, zr, "idx", "rep")), "replica needs a nonzero");
}

/* ------------------------------------------------------------------ */
/* error paths                                                         */
/* ------------------------------------------------------------------ */

static const char *ok(void) { return "ok"; }

static const char *many_iters(int rep) {
  lytX_layout *L = lytX_new(&cx);
  for (int i = 0; i < LYTX_MAXITERS + 1; i++) {
    if (rep) lytX_replica(&cx, L, 1, 1, "m");
    else lytX_shard(&cx, L, 1, 1, "m");
  }
  return ok();
}

static const char *many_axes(void) {
  static const char *names[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8",
                                "a9", "a10", "a11", "a12", "a13", "a14", "a15", "a16"};
  lytX_layout *L = lytX_new(&cx);
  for (int i = 0; i < 17; i++) lytX_offset(&cx, L, 1, names[i]);
  return ok();
}

static const char *search(const char *s, int64_t size, int64_t cap) {
  lytX_layout *L = X(s);
  int64_t p[LYTX_MAXAXES] = {0};
  lytX_coords c = lytX_preimage_search(&cx, L, 1, &size, p, cap);
  return lytX_coords_str(&cx, &c);
}

static const char *checked(int which) {
  lytX_layout L;
  memset(&L, 0, sizeof L);
  L.nd = 1;
  L.d[0] = (lytX_iter){4, 1, "m"};
  if (which == 0) L.r[L.nr++] = (lytX_iter){2, 0, "warp"};
  if (which == 1) {
    L.oaxis[0] = L.oaxis[1] = "warp";
    L.no = 2;
  }
  if (which == 2) L.d[0].axis = NULL;
  lytX_check(&cx, &L);
  return ok();
}

static void test_errors(void) {
  EXPECT_ERR("err-21", checked(0), "stride 0");
  EXPECT_ERR("err-22", checked(1), "listed twice");
  EXPECT_ERR("err-23", checked(2), "needs an axis name");
  EXPECT("err-24", checked(3), "ok");
  static const char *const wl[] = {"warp", "lane"}, *const wlx[] = {"warp", "lane", "reg", "x"};
  int64_t sh[2] = {8, 16};
  EXPECT_ERR("err-1", bwd(TC, 2, sh, 4, wlx, (int64_t[]){6, 8, 1, 0}), "unknown axis x");
  EXPECT_ERR("err-2", bwd(TC, 2, sh, 2, wl, (int64_t[]){6, 8}), "lacks axis reg");
  EXPECT_ERR("err-3", fwd(TC, 2, (int64_t[]){8, 8}, (int64_t[]){0, 0}, NULL, 0),
             "shape not admitted: 64 elements, the shard has 128");
  EXPECT_ERR("err-4", fwd(TC, 2, sh, (int64_t[]){2, 16}, NULL, 0),
             "coordinate 16 of dim 1 is out of range [0, 16)");
  EXPECT_ERR("err-5", fwd(TC, 2, sh, (int64_t[]){-1, 0}, NULL, 0), "of dim 0 is out of range");
  EXPECT_ERR("err-6", S(X("S[4:1] + R[2:0@warp]")), "stride 0");
  EXPECT_ERR("err-7", S(X("S[0:1]")), "not positive");
  EXPECT_ERR("err-8", search("S[(64,64):(0,1)]", 4096, 1000), "exceeds the cap of 1000");
  EXPECT("err-9", search("S[(4,4):(0,1)]", 16, 1000), "[(0), (4), (8), (12)]");
  EXPECT_ERR("err-10", many_iters(0), "more than 32 iters");
  EXPECT_ERR("err-11", many_iters(1), "more than 32 iters");
  EXPECT_ERR("err-12", many_axes(), "more than 16 distinct axes");
  int64_t p[LYTX_MAXAXES] = {0};
  int64_t s4 = 4;
  EXPECT_ERR("err-13", crds(lytX_preimage_fast(&cx, X("S[(2,2):(1,1)]"), 1, &s4, p)),
             "needs a mixed-radix layout");
  EXPECT_ERR("err-14", fwd("S[4:1]", 17, sh, sh, NULL, 0), "logical rank 17");
  EXPECT_ERR("err-15", fwd("S[4:1]", 1, (int64_t[]){0}, sh, NULL, 0), "has extent 0");
  EXPECT_ERR("err-16", pts(lytX_apply_flat(&cx, X("S[4:1]"), 4)), "flat index 4 is out of range");
  EXPECT_ERR("err-17", pts(lytX_apply_flat(&cx, X("S[4:4611686018427387904]"), 3)), "overflow");
  static const char *const wv[] = {"w", "v"};
  lytX_points one = lytX_apply_flat(&cx, X("S[4:1@w]"), 1);
  EXPECT("err-19", pts(lytX_points_reorder(&cx, &one, 2, wv)), "[{w: 1, v: 0}]");
  EXPECT_ERR("err-20", pts(lytX_points_reorder(&cx, &one, 1, wv + 1)), "drops axis w");
}

/* ------------------------------------------------------------------ */
/* brute force from the definition                                     */
/* ------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static int64_t rnd(int64_t n) {  /* uniform-ish in [0, n) */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)n);
}

static const char *AXES[] = {"m", "lane", "warp"};

/* the image of flat index f, brute force: digit k = f / prod_{l>k} e_l mod
** e_k, then every replica combination by a mixed counter */
static int32_t brute_image(const lytX_layout *L, int64_t f, int64_t *out, const char **ax,
                           int32_t na) {
  int64_t base[LYTX_MAXAXES];
  for (int32_t k = 0; k < na; k++) base[k] = lytX_offset_of(L, ax[k]);
  for (int32_t i = 0; i < L->nd; i++) {
    int64_t w = 1;
    for (int32_t l = i + 1; l < L->nd; l++) w *= L->d[l].extent;
    for (int32_t k = 0; k < na; k++)
      if (strcmp(ax[k], L->d[i].axis) == 0) base[k] += (f / w) % L->d[i].extent * L->d[i].stride;
  }
  int64_t j[LYTX_MAXITERS] = {0};
  int32_t n = 0;
  for (;;) {
    int64_t *pt = out + n++ * na;
    memcpy(pt, base, sizeof *pt * (size_t)na);
    for (int32_t t = 0; t < L->nr; t++)
      for (int32_t k = 0; k < na; k++)
        if (strcmp(ax[k], L->r[t].axis) == 0) pt[k] += j[t] * L->r[t].stride;
    int32_t t = 0;
    while (t < L->nr && ++j[t] == L->r[t].extent) j[t++] = 0;
    if (t == L->nr) return n;
  }
}

static int cmp_pt(const void *a, const void *b, int32_t na) {
  const int64_t *x = a, *y = b;
  for (int32_t k = 0; k < na; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* sorted, deduplicated, printed as lytX_points_str does */
static const char *brute_points(int64_t *v, int32_t n, const char **ax, int32_t na) {
  for (int32_t i = 1; i < n; i++)  /* insertion sort: n is small */
    for (int32_t k = i; k > 0 && cmp_pt(v + (k - 1) * na, v + k * na, na) > 0; k--)
      for (int32_t c = 0; c < na; c++) {
        int64_t t = v[(k - 1) * na + c];
        v[(k - 1) * na + c] = v[k * na + c];
        v[k * na + c] = t;
      }
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytS_buf_puts(&b, "[");
  int32_t m = 0;
  for (int32_t i = 0; i < n; i++) {
    if (i && cmp_pt(v + (i - 1) * na, v + i * na, na) == 0) continue;
    lytS_buf_puts(&b, m++ ? ", {" : "{");
    for (int32_t k = 0; k < na; k++)
      lytS_buf_printf(&b, "%s%s: %lld", k ? ", " : "", ax[k], (long long)v[i * na + k]);
    lytS_buf_puts(&b, "}");
  }
  lytS_buf_puts(&b, "]");
  return b.p;
}

static int32_t contains(const int64_t *v, int32_t n, const int64_t *p, int32_t na) {
  for (int32_t i = 0; i < n; i++)
    if (cmp_pt(v + i * na, p, na) == 0) return 1;
  return 0;
}

/* a random layout: shard 0-4 iters, replicas 0-2, offsets; mixed-radix
** ones (`radix`) get strides built from products of earlier extents */
static lytX_layout *random_layout(int radix) {
  lytX_layout *L = lytX_new(&cx);
  int32_t nd = (int32_t)rnd(5);
  int64_t span[3] = {1, 1, 1};
  for (int32_t i = 0; i < nd; i++) {
    int32_t a = (int32_t)rnd(3);
    int64_t e = 1 + rnd(4);
    int64_t s = rnd(9) - 2;
    if (radix) {
      s = rnd(4) == 0 ? 0 : span[a] * (1 + rnd(2));
      if (s) span[a] = s * e;
    }
    lytX_shard(&cx, L, e, s, AXES[a]);
  }
  for (int32_t t = (int32_t)rnd(3); t > 0; t--) {
    /* one call per statement: argument order is unspecified in C */
    int64_t s = rnd(7) - 2, e = 1 + rnd(3);
    lytX_replica(&cx, L, e, s ? s : 3, AXES[rnd(3)]);
  }
  if (rnd(2)) {
    int64_t v = rnd(7) - 3;
    lytX_offset(&cx, L, v, AXES[rnd(3)]);
  }
  return L;
}

/* a random logical shape of L's size: 1-3 dims */
static int32_t random_shape(int64_t size, int64_t *shape) {
  int32_t rank = 1 + (int32_t)rnd(3), r = 0;
  for (int32_t d = 0; d < rank - 1; d++) {
    int64_t div[64], n = 0;
    for (int64_t c = 1; c <= size; c++)
      if (size % c == 0 && n < 64) div[n++] = c;
    shape[r] = div[rnd(n)];
    size /= shape[r++];
  }
  shape[r++] = size;
  return r;
}

static const char *coords_str(const int64_t *flats, int32_t n, int32_t rank, const int64_t *shape) {
  lytX_coords c = {rank, n, lytS_alloc(&cx, sizeof(int64_t) * (size_t)(n + 1) * (size_t)(rank))};
  for (int32_t i = 0; i < n; i++) {
    int64_t f = flats[i];
    for (int32_t d = rank - 1; d >= 0; d--) c.v[i * rank + d] = f % shape[d], f /= shape[d];
  }
  return lytX_coords_str(&cx, &c);
}

/* forward of every coordinate and backward of every image point (plus a
** few random points) against the brute force; returns 1 if fast-path */
static int check_random(int radix, int iter) {
  lytX_layout *L = random_layout(radix);
  const char *ax[LYTX_MAXAXES];
  int32_t na = lytX_axes(L, ax);
  int64_t size = lytX_size(&cx, L), shape[3];
  int32_t rank = random_shape(size, shape);
  int64_t nrep = 1;
  for (int32_t t = 0; t < L->nr; t++) nrep *= L->r[t].extent;
  int64_t *img = lytS_alloc(&cx, sizeof(int64_t) * (size_t)(size * nrep * (na ? na : 1) + 1));
  int32_t *cnt = lytS_alloc(&cx, sizeof(int32_t) * (size_t)size);
  char name[64];
  snprintf(name, sizeof name, "random-%d %s", iter, S(L));
  for (int64_t f = 0; f < size; f++) {
    int64_t x[3], g = f;
    for (int32_t d = rank - 1; d >= 0; d--) x[d] = g % shape[d], g /= shape[d];
    cnt[f] = brute_image(L, f, img + f * nrep * na, ax, na);
    int64_t *copy = lytS_alloc(&cx, sizeof(int64_t) * (size_t)(cnt[f] * na + 1));
    memcpy(copy, img + f * nrep * na, sizeof(int64_t) * (size_t)(cnt[f] * na));
    EXPECT(dup(name), pts(lytX_apply(&cx, L, rank, shape, x)), brute_points(copy, cnt[f], ax, na));
  }
  int fast = lytX_is_mixed_radix(L);
  for (volatile int64_t q = 0; q < size * nrep + 4; q++) {
    int64_t p[LYTX_MAXAXES];
    if (q < size * nrep) memcpy(p, img + q * na, sizeof(int64_t) * (size_t)na);
    else for (int32_t k = 0; k < na; k++) p[k] = rnd(12) - 3;
    int64_t *flats = lytS_alloc(&cx, sizeof(int64_t) * (size_t)(size + 1));
    int32_t n = 0;
    for (int64_t f = 0; f < size; f++)
      if (contains(img + f * nrep * na, cnt[f], p, na)) flats[n++] = f;
    const char *want = coords_str(flats, n, rank, shape);
    EXPECT(dup(name), crds(lytX_preimage(&cx, L, rank, shape, p)), want);
    EXPECT(dup(name), crds(lytX_preimage_search(&cx, L, rank, shape, p, 1 << 20)), want);
    if (fast)
      EXPECT(dup(name), crds(lytX_preimage_fast(&cx, L, rank, shape, p)), want);
  }
  return fast;
}

static void test_random(void) {
  volatile int nfast = 0;
  for (int i = 0; i < 600; i++) {
    lytA_mark m = lytA_getmark(&arena);
    nfast += check_random(i % 2, i);
    lytA_release(&arena, m);
  }
  /* the generator must exercise the fast path often */
  EXPECT("random-fast", nfast >= 300 ? "many" : "few", "many");
}

/* ------------------------------------------------------------------ */
/* algebra properties on random layouts                                */
/* ------------------------------------------------------------------ */

/* L and M agree on every flat index (as sets of named points) */
static const char *same_map(const lytX_layout *L, const lytX_layout *M, int64_t size) {
  const char *ax[LYTX_MAXAXES];
  int32_t na = lytX_axes(L, ax);
  for (int64_t f = 0; f < size; f++) {
    lytX_points a = lytX_apply_flat(&cx, L, f), b = lytX_apply_flat(&cx, M, f);
    b = lytX_points_reorder(&cx, &b, na, ax);
    if (strcmp(lytX_points_str(&cx, &a), lytX_points_str(&cx, &b)) != 0)
      return "differs";
  }
  return "same";
}

static void test_properties(void) {
  for (volatile int i = 0; i < 300; i++) {
    lytA_mark mk = lytA_getmark(&arena);
    lytX_layout *L = random_layout(i % 2);
    int64_t size = lytX_size(&cx, L), shape[3];
    int32_t rank = random_shape(size, shape);
    char name[80];
    snprintf(name, sizeof name, "canon-prop-%d %s", i, S(L));
    /* canonicalize keeps the map, except axes it drops with unit iters */
    lytX_layout *C = lytX_canonicalize(&cx, L);
    const char *ax1[LYTX_MAXAXES], *ax2[LYTX_MAXAXES];
    if (lytX_axes(C, ax1) == lytX_axes(L, ax2))
      EXPECT(dup(name), same_map(L, C, size), "same");
    EXPECT(dup(name), S(lytX_canonicalize(&cx, C)), S(C));
    /* group keeps the map */
    int32_t seps[4];
    if (setjmp(jb) == 0) {
      lytX_layout *G = lytX_group(&cx, L, rank, shape, seps);
      snprintf(name, sizeof name, "group-prop-%d", i);
      EXPECT(dup(name), same_map(L, G, size), "same");
    }
    /* a random slice, when representable, is L(begin + r) */
    int64_t b[3], n[3];
    for (int32_t d = 0; d < rank; d++) b[d] = rnd(shape[d]), n[d] = 1 + rnd(shape[d] - b[d]);
    if (setjmp(jb) == 0) {
      lytX_layout *Sl = lytX_slice(&cx, L, rank, shape, b, n);
      snprintf(name, sizeof name, "slice-prop-%d", i);
      int64_t r[3] = {0, 0, 0};
      volatile int64_t tot = 1;
      for (int32_t d = 0; d < rank; d++) tot *= n[d];
      for (volatile int64_t f = 0; f < tot; f++) {
        int64_t g = f, x[3];
        for (int32_t d = rank - 1; d >= 0; d--) r[d] = g % n[d], g /= n[d], x[d] = b[d] + r[d];
        lytX_points want = lytX_apply(&cx, L, rank, shape, x);
        lytX_points got = lytX_apply(&cx, Sl, rank, n, r);
        const char *ax[LYTX_MAXAXES];
        int32_t na = lytX_axes(L, ax);
        got = lytX_points_reorder(&cx, &got, na, ax);
        EXPECT(dup(name), lytX_points_str(&cx, &got), lytX_points_str(&cx, &want));
      }
    }
    lytA_release(&arena, mk);
  }
}

/* CuTe and GF(2) agree with Axe on every flat index */
static void test_conversion_properties(void) {
  for (volatile int i = 0; i < 200; i++) {
    lytA_mark mk = lytA_getmark(&arena);
    lytX_layout *L = lytX_new(&cx);
    int32_t nd = 1 + (int32_t)rnd(4);
    for (int32_t k = 0; k < nd; k++) {
      int64_t e = 1 + rnd(4);
      lytX_shard(&cx, L, e, rnd(2) ? rnd(9) - 3 : 0, "m");
    }
    lytS_layout c = lytX_to_cute(&cx, L);
    int64_t size = lytX_size(&cx, L);
    char name[64];
    snprintf(name, sizeof name, "cute-prop-%d %s", i, S(L));
    for (volatile int64_t f = 0; f < size; f++) {
      int64_t v;
      lytX_base(&cx, L, f, &v);
      char want[32];
      snprintf(want, sizeof want, "%lld", (long long)v);
      EXPECT(dup(name), num(lytS_eval_i(&cx, c, f)), dup(want));
    }
    EXPECT(dup(name), S(lytX_from_cute(&cx, c)), S(L));
    /* power-of-two layouts on two axes with distinct bits */
    lytX_layout *P = lytX_new(&cx);
    int32_t used[2] = {0, 0};
    for (int32_t k = 0; k < 3; k++) {
      int32_t a = (int32_t)rnd(2), lb = (int32_t)rnd(3);
      int64_t s = rnd(4) == 0 ? 0 : (int64_t)1 << used[a];
      if (s) used[a] += lb + (int32_t)rnd(2);
      lytX_shard(&cx, P, (int64_t)1 << lb, s, a ? "lane" : "m");
    }
    snprintf(name, sizeof name, "ll-prop-%d %s", i, S(P));
    lytG_ll *G = lytX_to_linear(&cx, P, "idx", NULL);
    const char *ax[LYTX_MAXAXES];
    int32_t na = lytX_axes(P, ax);
    for (int64_t f = 0; f < lytX_size(&cx, P); f++) {
      int64_t v[LYTX_MAXAXES], w[LYTX_MAXAXES];
      lytX_base(&cx, P, f, v);
      lytG_apply(G, &f, w);
      EXPECT(dup(name), memcmp(v, w, sizeof *v * (size_t)na) == 0 ? "eq" : "ne", "eq");
    }
    /* the round trip is exact when no stride is 0 (a zero basis has no
    ** axis: it lands on the first out-dim) and some extent exceeds 1 */
    int plain = lytX_size(&cx, P) > 1;
    for (int32_t k = 0; k < P->nd; k++) plain &= P->d[k].stride != 0;
    if (plain)
      EXPECT(dup(name), S(lytX_from_linear(&cx, G, "idx", NULL)), S(lytX_canonicalize(&cx, P)));
    lytA_release(&arena, mk);
  }
}

int main(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  test_text();
  test_tensor_core();
  test_mesh();
  test_accelerators();
  test_canonicalize();
  test_group();
  test_tile();
  test_slice();
  test_cute();
  test_linear();
  test_errors();
  test_random();
  test_properties();
  test_conversion_properties();
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
