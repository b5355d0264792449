/*
** test_linear.c: unit and property tests of the GF(2) layout core (lytG_).
**
** Layouts are written in lyt's printed form and read by a small parser
** here: `{in: [[a,b],...], ...} -> {out: size, ...}` (explicit sizes, no
** surjectivity required) or `... -> [out, ...]` (sizes inferred, Triton's
** names-only constructor). Results are compared as printed text. Cases
** marked "Triton:" transcribe expectations of Triton's
** unittest/Tools/LinearLayoutTest.cpp (named after the TEST_F) or the
** verified examples of shared/reference/triton_linear_layout.md. Prints
** "FAIL name: got X expected Y" per failure and "N passed, M failed".
** LYT_BENCH=1 adds a timing of compose, product and invert on 32-bit
** layouts (not a test).
*/
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/linear/linear.h"
#include "harness.h"


static const char *SI(long long v) {
  char *p = lytS_alloc(&cx, 32);
  snprintf(p, 32, "%lld", v);
  return p;
}

/* ------------------------------------------------------------------ */
/* a reader for the printed form                                       */
/* ------------------------------------------------------------------ */

static const char *name_at(const char **p) {
  const char *s = *p;
  while (**p && (**p == '_' || (**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') ||
                 (**p >= '0' && **p <= '9')))
    (*p)++;
  size_t n = (size_t)(*p - s);
  char *r = lytS_alloc(&cx, n + 1);
  memcpy(r, s, n);
  r[n] = 0;
  return r;
}

static void skip(const char **p) { while (**p == ' ' || **p == ',') (*p)++; }

static long long num_at(const char **p) {
  char *e;
  long long v = strtoll(*p, &e, 10);
  *p = e;
  return v;
}

/* [[a,b],[c,d]] into v (row after row); returns the number of vectors. */
static int32_t vecs_at(const char **p, int64_t *v, int32_t *nout) {
  int32_t n = 0, m = 0;
  (*p)++;  /* [ */
  skip(p);
  while (**p == '[') {
    (*p)++;
    int32_t k = 0;
    skip(p);
    while (**p != ']') { v[m++] = num_at(p); k++; skip(p); }
    (*p)++;
    *nout = k;
    n++;
    skip(p);
  }
  (*p)++;  /* ] */
  return n;
}

static lytG_ll *P(const char *s) {
  lytG_inbases ins[LYT_LL_MAXDIMS + 2];
  const char *outs[LYT_LL_MAXDIMS + 2];
  int64_t sizes[LYT_LL_MAXDIMS + 2];
  int32_t nin = 0, nout = -1, nv = 0;
  const char *p = s + 1;
  skip(&p);
  while (*p != '}') {
    ins[nin].name = name_at(&p);
    p += 2;  /* ": " */
    int64_t *v = lytS_alloc(&cx, sizeof(int64_t) * 64 * 17);
    ins[nin].v = v;
    ins[nin].n = vecs_at(&p, v, &nv);
    if (ins[nin].n) nout = nv;
    nin++;
    skip(&p);
  }
  p += 5;  /* "} -> " */
  int infer = *p == '[';
  int32_t no = 0;
  p++;
  skip(&p);
  while (*p != '}' && *p != ']') {
    outs[no] = name_at(&p);
    if (!infer) { p += 2; sizes[no] = num_at(&p); }
    no++;
    skip(&p);
  }
  (void)nout;
  return lytG_from_bases(&cx, nin, ins, no, outs, infer ? NULL : sizes, 0);
}

static const char *S(const lytG_ll *L) { return lytG_str(&cx, L); }
/* read and print again: the canonical text of a layout */
static const char *R(const char *s) { return S(P(s)); }

static const char *I1(long long size, const char *in, const char *out) {
  return S(lytG_identity_1d(&cx, size, in, out));
}

/* ------------------------------------------------------------------ */
/* constructors                                                        */
/* ------------------------------------------------------------------ */

static const char *zeros(long long n, long long os) {
  return S(lytG_zeros_1d(&cx, n, "i", "o", os));
}
static const char *strided(long long n, long long st) {
  return S(lytG_strided_1d(&cx, n, st, "i", "o"));
}
static const char *surj(const char *s) { return SI(lytG_is_surjective(P(s))); }

static void test_constructors(void) {
  /* Triton: Empty, Identity1D, Identity1DSize1, Zeros1D */
  EXPECT("empty", S(lytG_empty(&cx)), "{} -> {}");
  EXPECT("identity 8", I1(8, "i", "o"), "{i: [[1],[2],[4]]} -> {o: 8}");
  EXPECT("identity 1", I1(1, "i", "o"), "{i: []} -> {o: 1}");
  EXPECT("identity 0 is empty", I1(0, "i", "o"), "{} -> {}");
  EXPECT_ERR("identity 3", I1(3, "i", "o"), "not a power of 2");
  EXPECT("zeros 8", zeros(8, 1), "{i: [[0],[0],[0]]} -> {o: 1}");
  EXPECT("zeros 8 out 4", zeros(8, 4), "{i: [[0],[0],[0]]} -> {o: 4}");
  EXPECT("zeros out 4 not surjective", SI(lytG_is_surjective(lytG_zeros_1d(&cx, 8, "i", "o", 4))),
         "0");
  EXPECT("strided 4x2", strided(4, 2), "{i: [[2],[4]]} -> {o: 8}");
  EXPECT("strided 4x2 not surjective",
         SI(lytG_is_surjective(lytG_strided_1d(&cx, 4, 2, "i", "o"))), "0");
  EXPECT("strided 4x1 = identity", strided(4, 1), "{i: [[1],[2]]} -> {o: 4}");
  EXPECT_ERR("strided stride 0", strided(4, 0), "power of 2");
  EXPECT_ERR("strided stride 3", strided(4, 3), "power of 2");
  /* explicit sizes keep non-surjective layouts */
  EXPECT("explicit", R("{in: [[0,1],[0,2]], lane: []} -> {dim0: 8, dim1: 4}"),
         "{in: [[0,1],[0,2]], lane: []} -> {dim0: 8, dim1: 4}");
  EXPECT("explicit no outs", R("{a: [[],[]]} -> {}"), "{a: [[],[]]} -> {}");
  /* inferred sizes: strict NextPowerOf2 (reference §1) */
  EXPECT("infer 1,2 -> 4", R("{i: [[1],[2]]} -> [o]"), "{i: [[1],[2]]} -> {o: 4}");
  EXPECT("infer zeros -> 1", R("{i: [[0],[0]]} -> [o]"), "{i: [[0],[0]]} -> {o: 1}");
  EXPECT_ERR("infer 1,4 -> 8 not surjective", R("{i: [[1],[4]]} -> [o]"), "surjective");
  /* Triton header example: (1,0),(5,1),(2,2) infers (8,4), then is rejected */
  EXPECT_ERR("infer (8,4) rejected", R("{i: [[1,0],[5,1],[2,2]]} -> [a, b]"),
             "rank is 3 of 5 output bits");
  EXPECT("infer (8,4) sizes", R("{i: [[1,0],[5,1],[2,2]]} -> {a: 8, b: 4}"),
         "{i: [[1,0],[5,1],[2,2]]} -> {a: 8, b: 4}");
  EXPECT("surjective query", surj("{i: [[1,0],[0,1],[2,0]]} -> {a: 4, b: 2}"), "1");
  EXPECT("injective query", SI(lytG_is_injective(P("{i: [[1],[1]]} -> {o: 2}"))), "0");
  EXPECT("invertible query", SI(lytG_is_invertible(P("{i: [[2],[1]]} -> {o: 4}"))), "1");
  EXPECT("invertible needs square",
         SI(lytG_is_invertible(P("{i: [[2],[1],[0]]} -> {o: 4}"))), "0");
}

static void test_invariant_errors(void) {
  /* each check of Triton's checkInvariants, in its order */
  EXPECT_ERR("negative basis", R("{i: [[-1]]} -> {o: 4}"), "non-negative");
  EXPECT_ERR("negative before size", R("{i: [[-1]]} -> {o: 3}"), "non-negative");
  EXPECT_ERR("size not pow2", R("{i: [[1]]} -> {o: 3}"), "powers of 2");
  EXPECT_ERR("size 0", R("{i: [[0]]} -> {o: 0}"), "powers of 2");
  EXPECT_ERR("size check before component", R("{i: [[9]]} -> {o: 6}"), "powers of 2");
  EXPECT_ERR("component >= size", R("{i: [[4]]} -> {o: 4}"), "less than the out-dim size");
  EXPECT_ERR("dup in-dim", R("{a: [[1]], a: [[2]]} -> {o: 4}"), "duplicate in-dim name 'a'");
  EXPECT_ERR("dup out-dim", R("{a: [[1,0]]} -> {o: 2, o: 2}"), "duplicate out-dim name 'o'");
  EXPECT_ERR("65 input bits",
             S(lytG_product(&cx, lytG_zeros_1d(&cx, (long long)1 << 40, "a", "o", 1),
                            lytG_zeros_1d(&cx, (long long)1 << 25, "b", "o", 1))),
             "65 input");
  {
    lytG_inbases ins[17];
    for (int i = 0; i < 17; i++) ins[i] = (lytG_inbases){ lytG_std_dim_name(i % 16), 0, NULL };
    const char *o[1] = { "o" };
    int64_t sz[1] = { 1 };
    EXPECT_ERR("17 in-dims", S(lytG_from_bases(&cx, 17, ins, 1, o, sz, 0)), "at most 16");
    EXPECT("try_from_bases NULL",
           lytG_try_from_bases(&cx, 17, ins, 1, o, sz, 0) ? "layout" : "NULL", "NULL");
    int64_t v[1] = { 2 };
    lytG_inbases one = { "i", 1, v };
    EXPECT("try_from_bases message",
           (lytG_try_from_bases(&cx, 1, &one, 1, o, NULL, 1), cx.msg[0] ? "set" : ""), "set");
    EXPECT_ERR("require_surjective explicit",
               S(lytG_from_bases(&cx, 1, &one, 1, o, (int64_t[]){ 4 }, 1)), "surjective");
  }
}

/* ------------------------------------------------------------------ */
/* queries, apply                                                      */
/* ------------------------------------------------------------------ */

static const char *numcons(const char *s) { return SI(lytG_num_consecutive(P(s))); }

static const char *masks(const char *s) {
  lytG_ll *L = P(s);
  uint64_t m[LYT_LL_MAXDIMS];
  lytG_free_variable_masks(L, m);
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  for (int32_t i = 0; i < L->nin; i++)
    lytS_buf_printf(&b, "%s%s=%llu", i ? " " : "", L->in[i].name, (unsigned long long)m[i]);
  return b.p;
}

static const char *app(const char *s, long long a, long long b) {
  lytG_ll *L = P(s);
  int64_t in[2] = { a, b }, out[LYT_LL_MAXDIMS];
  lytG_apply(L, in, out);
  lytS_buf buf;
  lytS_buf_init(&buf, &cx);
  for (int32_t k = 0; k < L->nout; k++) lytS_buf_printf(&buf, "%s%lld", k ? "," : "", (long long)out[k]);
  return buf.p;
}

static const char *appc(const char *s, long long a, long long b) {
  lytG_ll *L = P(s);
  int64_t in[2] = { a, b }, out[LYT_LL_MAXDIMS];
  lytG_apply_checked(&cx, L, in, out);
  return SI(out[0]);
}

static void test_queries(void) {
  /* Triton: NumConsecutiveInOut */
  EXPECT("numcons identity", numcons("{register: [[1],[2],[4]]} -> {o: 8}"), "8");
  EXPECT("numcons no ins", numcons("{} -> {o: 1}"), "1");
  EXPECT("numcons no outs", numcons("{r: [[],[]]} -> {}"), "1");
  EXPECT("numcons size1", numcons("{r: []} -> {o: 1}"), "1");
  EXPECT("numcons 2 then other", numcons("{r: [[1,0],[2,0],[0,1]]} -> {a: 4, b: 2}"), "4");
  EXPECT("numcons broken prefix", numcons("{r: [[1],[4],[2]]} -> {o: 8}"), "2");
  EXPECT("numcons capped by lane", numcons("{r: [[1],[2],[4]], l: [[2]]} -> {o: 8}"), "2");
  EXPECT("numcons first not 1", numcons("{r: [[2],[1]]} -> {o: 4}"), "1");
  EXPECT("numcons other in 2nd comp", numcons("{r: [[1,1],[2,0]]} -> {o: 4, p: 2}"), "1");
  EXPECT("numcons lane 8", numcons("{r: [[1,0],[2,0]], l: [[8,0],[0,1]]} -> {o: 16, p: 2}"),
         "4");
  /* Triton: FreeVariableMasks */
  EXPECT("free identity", masks("{i: [[1],[2]]} -> {o: 4}"), "i=0");
  EXPECT("free zeros", masks("{i: [[0],[0]]} -> {o: 1}"), "i=3");
  EXPECT("free repeated", masks("{i: [[1],[1],[2]], j: [[2],[3]]} -> {o: 4}"), "i=2 j=3");
  EXPECT("free lane dup", masks("{r: [[1,0],[0,0]], l: [[0,1],[1,0]]} -> {a: 2, b: 2}"),
         "r=2 l=2");
  /* apply ignores bits above the in-dim size, as Triton */
  const char *L2 = "{a: [[0,1],[1,0]], b: [[2,0]]} -> {x: 4, y: 2}";
  EXPECT("apply 0", app(L2, 0, 0), "0,0");
  EXPECT("apply a=3", app(L2, 3, 0), "1,1");
  EXPECT("apply a=3 b=1", app(L2, 3, 1), "3,1");
  EXPECT("apply high bits ignored", app(L2, 7, 3), "3,1");
  EXPECT("apply checked ok", appc(L2, 3, 1), "3");
  EXPECT_ERR("apply checked high", appc(L2, 4, 0), "outside [0, 4)");
  EXPECT_ERR("apply checked neg", appc(L2, 0, -1), "outside [0, 2)");
  /* lookups */
  lytG_ll *L = P(L2);
  EXPECT("in index", SI(lytG_in_index(L, "b")), "1");
  EXPECT("out index missing", SI(lytG_out_index(L, "z")), "-1");
  EXPECT_ERR("in index x", SI(lytG_in_index_x(&cx, L, "c")), "in-dim 'c' is not in the layout");
  EXPECT_ERR("out index x", SI(lytG_out_index_x(&cx, L, "c")), "out-dim 'c'");
  EXPECT("basis", SI(lytG_basis(L, 0, 1, 0)), "1");
  EXPECT("sizes", SI(lytG_in_size(L, 0) * 100 + lytG_out_size(L, 0) * 10 + lytG_out_size(L, 1)),
         "442");
  EXPECT("offsets", SI(lytG_in_offset(L, 1) * 10 + lytG_out_offset(L, 1)), "22");
  /* equality */
  EXPECT("equal", SI(lytG_equal(P(L2), P(L2))), "1");
  EXPECT("equal sizes differ", SI(lytG_equal(P("{a: [[1]]} -> {x: 2}"), P("{a: [[1]]} -> {x: 4}"))),
         "0");
  EXPECT("equal ignoring sizes",
         SI(lytG_equal_ignoring_out_sizes(P("{a: [[1,1]]} -> {x: 2, y: 2}"),
                                          P("{a: [[1,1]]} -> {x: 4, y: 2}"))), "1");
  EXPECT("equal ignoring sizes, bases differ",
         SI(lytG_equal_ignoring_out_sizes(P("{a: [[1,1]]} -> {x: 2, y: 2}"),
                                          P("{a: [[1,0]]} -> {x: 4, y: 2}"))), "0");
  EXPECT("equal in order", SI(lytG_equal(P("{a: [], b: []} -> {}"), P("{b: [], a: []} -> {}"))),
         "0");
  EXPECT("equal out order", SI(lytG_equal(P("{} -> {x: 1, y: 1}"), P("{} -> {y: 1, x: 1}"))), "0");
  /* sublayout_is_zero */
  const char *L3 = "{r: [[1,0],[0,0]], l: [[0,1]]} -> {x: 2, y: 2}";
  const char *r1[] = { "r" }, *y1[] = { "y" }, *x1[] = { "x" }, *q1[] = { "q" };
  EXPECT("sublayout zero", SI(lytG_sublayout_is_zero(&cx, P(L3), 1, r1, 1, y1)), "1");
  EXPECT("sublayout nonzero", SI(lytG_sublayout_is_zero(&cx, P(L3), 1, r1, 1, x1)), "0");
  EXPECT_ERR("sublayout zero unknown", SI(lytG_sublayout_is_zero(&cx, P(L3), 1, q1, 1, x1)),
             "subset");
}

/* ------------------------------------------------------------------ */
/* product, compose                                                    */
/* ------------------------------------------------------------------ */

static const char *prod(const char *a, const char *b) {
  return S(lytG_product(&cx, P(a), P(b)));
}

static void test_product(void) {
  lytG_ll *i4 = lytG_identity_1d(&cx, 4, "i", "o"), *i2 = lytG_identity_1d(&cx, 2, "i", "o");
  /* reference §2 verified examples */
  EXPECT("I4*I2 = I8", S(lytG_product(&cx, i4, i2)), I1(8, "i", "o"));
  EXPECT("I4(o1)*I8(o2)",
         S(lytG_product(&cx, lytG_identity_1d(&cx, 4, "i", "o1"),
                        lytG_identity_1d(&cx, 8, "i", "o2"))),
         "{i: [[1,0],[2,0],[0,1],[0,2],[0,4]]} -> {o1: 4, o2: 8}");
  EXPECT("I2(i)*I4(j) shifts j",
         S(lytG_product(&cx, i2, lytG_identity_1d(&cx, 4, "j", "o"))),
         "{i: [[1]], j: [[2],[4]]} -> {o: 8}");
  /* Triton: MultiplyIdentity, MultiplyDisjoint, MultiplyByEmpty */
  EXPECT("disjoint", S(lytG_product(&cx, lytG_identity_1d(&cx, 32, "i1", "o1"),
                                    lytG_identity_1d(&cx, 16, "i2", "o2"))),
         "{i1: [[1,0],[2,0],[4,0],[8,0],[16,0]], i2: [[0,1],[0,2],[0,4],[0,8]]} -> "
         "{o1: 32, o2: 16}");
  EXPECT("by empty", S(lytG_product(&cx, lytG_empty(&cx), i4)), I1(4, "i", "o"));
  EXPECT("empty by", S(lytG_product(&cx, i4, lytG_empty(&cx))), I1(4, "i", "o"));
  /* Triton: MultiplyByZeros */
  EXPECT("by zeros", S(lytG_product(&cx, lytG_identity_1d(&cx, 8, "i", "o"),
                                    lytG_zeros_1d(&cx, 16, "i", "o", 1))),
         "{i: [[1],[2],[4],[0],[0],[0],[0]]} -> {o: 8}");
  EXPECT("zeros by", S(lytG_product(&cx, lytG_zeros_1d(&cx, 16, "i", "o", 1),
                                    lytG_identity_1d(&cx, 8, "i", "o"))),
         "{i: [[0],[0],[0],[0],[1],[2],[4]]} -> {o: 8}");
  /* Triton: MultiplyComplex (dims interleaved, sup order) */
  EXPECT("sup order", prod("{a: [[1,0]], b: [[0,1]]} -> {x: 2, y: 2}",
                           "{b: [[1,0]], c: [[0,1]]} -> {y: 2, z: 2}"),
         "{a: [[1,0,0]], b: [[0,1,0],[0,2,0]], c: [[0,0,1]]} -> {x: 2, y: 4, z: 2}");
  EXPECT("outer shifts only shared outs", prod("{a: [[1]]} -> {x: 2}", "{a: [[1,1]]} -> {x: 2, y: 2}"),
         "{a: [[1,0],[2,1]]} -> {x: 4, y: 2}");
  EXPECT("surjective flag", SI(lytG_is_surjective(lytG_product(&cx, P("{a: [[1]]} -> {x: 4}"),
                                                               i2))), "0");
  /* Triton's supremum code never reports a conflict: [a,b] vs [b,a] -> [a,b] */
  EXPECT("reversed dims", prod("{a: [[1]], b: []} -> {x: 2}", "{b: [[1]], a: []} -> {x: 2}"),
         "{a: [[1]], b: [[2]]} -> {x: 4}");
  EXPECT_ERR("product too big",
             S(lytG_product(&cx, lytG_zeros_1d(&cx, (long long)1 << 40, "a", "o", 1),
                            lytG_zeros_1d(&cx, (long long)1 << 30, "a", "o", 1))),
             "at most 64");
}

static const char *comp(const char *a, const char *b) {
  return S(lytG_compose(&cx, P(a), P(b)));
}

static void test_compose(void) {
  /* Triton: SimpleComposition, CompositionWithTwoDims, CompositionArgOrder */
  EXPECT("simple", comp("{i: [[1],[2]]} -> {o: 4}", "{o: [[2],[1]]} -> {p: 4}"),
         "{i: [[2],[1]]} -> {p: 4}");
  EXPECT("two dims, arg order",
         comp("{a: [[0,1],[1,0]]} -> {x: 2, y: 2}", "{y: [[0,2]], x: [[1,0]]} -> {p: 2, q: 4}"),
         "{a: [[0,2],[1,0]]} -> {p: 2, q: 4}");
  EXPECT("smaller into larger", comp("{i: [[1]]} -> {o: 2}", "{o: [[1],[2]]} -> {p: 4}"),
         "{i: [[1]]} -> {p: 4}");
  EXPECT("compose not surjective (sizes differ)",
         SI(lytG_is_surjective(lytG_compose(&cx, P("{i: [[1]]} -> {o: 2}"),
                                            P("{o: [[1],[2]]} -> {p: 4}")))), "0");
  EXPECT_ERR("compose names", comp("{i: [[1]]} -> {o: 2}", "{q: [[1]]} -> {p: 2}"),
             "dimensions must match");
  EXPECT_ERR("compose larger", comp("{i: [[1],[2]]} -> {o: 4}", "{o: [[1]]} -> {p: 2}"),
             "larger than the outer");
}

/* ------------------------------------------------------------------ */
/* solving                                                             */
/* ------------------------------------------------------------------ */

static const char *iac(const char *b, const char *a) {
  return S(lytG_invert_and_compose(&cx, P(b), P(a)));
}

static void test_invert_and_compose(void) {
  /* reference §2 verified: this=[4,1,2], outer=[2,1,4] -> [4,2,1] */
  EXPECT("iac permutation", iac("{i: [[4],[1],[2]]} -> {o: 8}", "{j: [[2],[1],[4]]} -> {o: 8}"),
         "{i: [[4],[2],[1]]} -> {j: 8}");
  /* verified: outer [0,2,1,4] (not injective) -> [2,4,8], out 16, not surjective */
  EXPECT("iac non-injective outer",
         iac("{i: [[2],[1],[4]]} -> {o: 8}", "{j: [[0],[2],[1],[4]]} -> {o: 8}"),
         "{i: [[2],[4],[8]]} -> {j: 16}");
  EXPECT("iac non-injective not surjective",
         SI(lytG_is_surjective(lytG_invert_and_compose(&cx, P("{i: [[2],[1],[4]]} -> {o: 8}"),
                                                       P("{j: [[0],[2],[1],[4]]} -> {o: 8}")))),
         "0");
  /* verified: identity-dim heuristic (register equal in both) */
  EXPECT("iac identity dims",
         iac("{register: [[1],[2]], lane: [[8],[4]]} -> {o: 16}",
             "{register: [[1],[2]], lane: [[4],[8]]} -> {o: 16}"),
         "{register: [[1,0],[2,0]], lane: [[0,2],[0,1]]} -> {register: 4, lane: 4}");
  /* lowest pivots: duplicated columns pick the first */
  EXPECT("iac lowest preimage", iac("{i: [[1]]} -> {o: 2}", "{j: [[1],[1],[1]]} -> {o: 2}"),
         "{i: [[1]]} -> {j: 8}");
  EXPECT("iac combination", iac("{i: [[3]]} -> {o: 4}", "{j: [[1],[3],[2]]} -> {o: 4}"),
         "{i: [[2]]} -> {j: 8}");
  EXPECT("iac xor of pivots", iac("{i: [[2]]} -> {o: 4}", "{j: [[1],[3]]} -> {o: 4}"),
         "{i: [[3]]} -> {j: 4}");
  /* Triton: InvertAndCompose_BroadcastedDims (warps zero on both sides map to themselves) */
  EXPECT("iac broadcast warps",
         iac("{lane: [[1],[2]], warp: [[0],[0]]} -> {o: 4}",
             "{lane: [[2],[1]], warp: [[0],[0]]} -> {o: 4}"),
         "{lane: [[2,0],[1,0]], warp: [[0,1],[0,2]]} -> {lane: 4, warp: 4}");
  /* out sizes: outer may be larger (newer Triton), out order may differ */
  EXPECT("iac outer larger", iac("{i: [[1]]} -> {o: 2}", "{j: [[1],[2]]} -> {o: 4}"),
         "{i: [[1]]} -> {j: 4}");
  EXPECT("iac out order",
         iac("{i: [[1,0],[0,1]]} -> {x: 2, y: 2}", "{j: [[1,0],[0,1]]} -> {y: 2, x: 2}"),
         "{i: [[2],[1]]} -> {j: 4}");
  EXPECT_ERR("iac outer smaller", iac("{i: [[1],[2]]} -> {o: 4}", "{j: [[1]]} -> {o: 2}"),
             "incompatible output shapes");
  EXPECT_ERR("iac names", iac("{i: [[1]]} -> {o: 2}", "{j: [[1]]} -> {p: 2}"),
             "out-dims must match");
  EXPECT_ERR("iac not in image", iac("{i: [[2]]} -> {o: 4}", "{j: [[1],[0]]} -> {o: 4}"),
             "not contained in the image");
  EXPECT_ERR("iac one side all identity",
             iac("{a: [[1]], b: [[2]]} -> {o: 4}", "{a: [[1]]} -> {o: 4}"), "has none");
}

static void test_invert(void) {
  /* Triton: InvertSimple-like cases */
  EXPECT("invert identity", S(lytG_invert(&cx, P("{i: [[1],[2]]} -> {o: 4}"))),
         "{o: [[1],[2]]} -> {i: 4}");
  EXPECT("invert swap", S(lytG_invert(&cx, P("{i: [[2],[1]]} -> {o: 4}"))),
         "{o: [[2],[1]]} -> {i: 4}");
  EXPECT("invert 2d", S(lytG_invert(&cx, P("{r: [[0,1]], l: [[1,0],[2,1]]} -> {x: 4, y: 2}"))),
         "{x: [[0,1],[1,2]], y: [[1,0]]} -> {r: 2, l: 4}");
  EXPECT_ERR("invert non-square", S(lytG_invert(&cx, P("{i: [[1],[0]]} -> {o: 2}"))),
             "to be invertible");
  EXPECT_ERR("invert not surjective", S(lytG_invert(&cx, P("{i: [[2]]} -> {o: 4}"))),
             "to be invertible");
  /* pseudoinvert picks the smallest preimage (free bits 0) */
  EXPECT("pseudoinvert broadcast", S(lytG_pseudoinvert(&cx, P("{i: [[0],[1],[1]]} -> {o: 2}"))),
         "{o: [[2]]} -> {i: 8}");
  EXPECT_ERR("pseudoinvert not surjective", S(lytG_pseudoinvert(&cx, P("{i: [[2]]} -> {o: 4}"))),
             "surjective");
}

static const char *dl(const char *a, const char *b) { return S(lytG_divide_left(&cx, P(a), P(b))); }
static const char *dr(const char *a, const char *b) { return S(lytG_divide_right(&cx, P(a), P(b))); }
static const char *tdl(const char *a, const char *b) {
  lytG_ll *c = lytG_try_divide_left(&cx, P(a), P(b));
  return c ? S(c) : "NULL";
}
static const char *tdr(const char *a, const char *b) {
  lytG_ll *c = lytG_try_divide_right(&cx, P(a), P(b));
  return c ? S(c) : "NULL";
}

static void test_divide(void) {
  /* Triton: DivideLeft_* */
  EXPECT("dl identity", dl("{i: [[1],[2],[4]]} -> {o: 8}", "{i: [[1]]} -> {o: 2}"),
         "{i: [[1],[2]]} -> {o: 4}");
  EXPECT("dl by self", dl("{i: [[1],[2]]} -> {o: 4}", "{i: [[1],[2]]} -> {o: 4}"),
         "{i: []} -> {o: 1}");
  EXPECT("dl 2d", dl("{r: [[1,0],[0,1],[2,0]], l: [[0,2]]} -> {x: 4, y: 4}",
                     "{r: [[1,0]]} -> {x: 2}"),
         "{r: [[0,1],[1,0]], l: [[0,2]]} -> {x: 2, y: 4}");
  EXPECT("dl missing in-dim in B", dl("{r: [[1]], l: [[2]]} -> {o: 4}", "{r: [[1]]} -> {o: 2}"),
         "{r: [], l: [[1]]} -> {o: 2}");
  EXPECT("tdl mismatch", tdl("{i: [[2],[1]]} -> {o: 4}", "{i: [[1]]} -> {o: 2}"), "NULL");
  EXPECT_ERR("dl mismatch", dl("{i: [[2],[1]]} -> {o: 4}", "{i: [[1]]} -> {o: 2}"),
             "first bases differ");
  EXPECT_ERR("dl not a multiple", dl("{i: [[1],[3]]} -> {o: 4}", "{i: [[1]]} -> {o: 2}"),
             "not a multiple");
  EXPECT("tdl missing dim", tdl("{i: [[1]]} -> {o: 2}", "{j: [[1]]} -> {o: 2}"), "NULL");
  EXPECT("tdl divisor larger", tdl("{i: [[1]]} -> {o: 2}", "{i: [[1],[2]]} -> {o: 4}"), "NULL");
  /* Triton: DivideRight_* */
  EXPECT("dr identity", dr("{i: [[1],[2],[4]]} -> {o: 8}", "{i: [[1]]} -> {o: 2}"),
         "{i: [[1],[2]]} -> {o: 4}");
  EXPECT("dr 2d", dr("{r: [[1,0],[0,1]], l: [[2,0]]} -> {x: 4, y: 2}",
                     "{l: [[1]]} -> {x: 2}"),
         "{r: [[1,0],[0,1]], l: []} -> {x: 2, y: 2}");
  EXPECT("tdr mismatch", tdr("{i: [[1],[2]]} -> {o: 4}", "{i: [[0]]} -> {o: 2}"), "NULL");
  EXPECT("tdr leading too big", tdr("{i: [[4],[1],[2]]} -> {o: 8}", "{i: [[1]]} -> {o: 2}"),
         "NULL");
  EXPECT_ERR("dr message", dr("{i: [[1],[2]]} -> {o: 4}", "{i: [[0]]} -> {o: 2}"),
             "A = C * B");
}

static const char *quot(const char *s, int n, const char *d0, const char *d1) {
  const char *d[2] = { d0, d1 };
  lytG_ll *q = lytG_try_quotient(&cx, P(s), n, d);
  return q ? S(q) : "NULL";
}
static const char *triv(const char *s, int n, const char *d0, const char *d1) {
  const char *d[2] = { d0, d1 };
  return SI(lytG_is_trivial_over(&cx, P(s), n, d));
}

static void test_quotient(void) {
  /* Triton: QuotientOneDimension, QuotientSeveralDimensions, QuotientIdentityMultipleDimensions */
  const char *L = "{r: [[1,0],[2,0]], block: [[0,1]]} -> {dim0: 4, block: 2}";
  EXPECT("trivial over block", triv(L, 1, "block", NULL), "1");
  EXPECT("quotient block", quot(L, 1, "block", NULL), "{r: [[1],[2]]} -> {dim0: 4}");
  EXPECT("trivial none", triv(L, 0, NULL, NULL), "1");
  EXPECT("trivial absent", triv(L, 1, "zz", NULL), "0");
  EXPECT_ERR("trivial only an in-dim", triv(L, 1, "r", NULL), "subset");
  const char *M = "{r: [[1,0],[0,1]], block: [[0,1]]} -> {dim0: 2, block: 2}";
  EXPECT("not trivial (cross term)", triv(M, 1, "block", NULL), "0");
  EXPECT("quotient NULL", quot(M, 1, "block", NULL), "NULL");
  EXPECT_ERR("quotient fails",
             S(lytG_quotient(&cx, P(M), 1, (const char *const[]){ "block" })), "not trivial");
  const char *N = "{a: [[1,0]], b: [[0,1]], r: [[0,0]]} -> {a: 2, b: 2}";
  EXPECT("trivial two dims", triv(N, 2, "a", "b"), "1");
  EXPECT("quotient two dims", quot(N, 2, "b", "a"), "{r: [[]]} -> {}");
  EXPECT("trivial swapped", triv("{a: [[0,1]], b: [[1,0]]} -> {a: 2, b: 2}", 2, "a", "b"), "0");
  EXPECT("trivial size differs", triv("{a: [[1]]} -> {a: 4}", 1, "a", NULL), "0");
}

/* ------------------------------------------------------------------ */
/* structural transforms                                               */
/* ------------------------------------------------------------------ */

static const char *tins(const char *s, int n, const char *a, const char *b, const char *c) {
  const char *o[3] = { a, b, c };
  return S(lytG_transpose_ins(&cx, P(s), n, o));
}
static const char *touts(const char *s, int n, const char *a, const char *b) {
  const char *o[2] = { a, b };
  return S(lytG_transpose_outs(&cx, P(s), n, o));
}

static void test_shape(void) {
  const char *L = "{r: [[1,0],[0,1]], l: [[2,0]], w: []} -> {x: 4, y: 2}";
  /* Triton: TransposeIns, TransposeOuts */
  EXPECT("transpose ins", tins(L, 3, "w", "l", "r"),
         "{w: [], l: [[2,0]], r: [[1,0],[0,1]]} -> {x: 4, y: 2}");
  EXPECT("transpose outs", touts(L, 2, "y", "x"),
         "{r: [[0,1],[1,0]], l: [[0,2]], w: []} -> {y: 2, x: 4}");
  EXPECT_ERR("transpose ins not perm", tins(L, 2, "w", "l", NULL), "must match");
  EXPECT_ERR("transpose outs dup", touts(L, 2, "x", "x"), "must match");
  /* Triton: SublayoutInDims/OutDims: kept order is the layout's */
  const char *ins[] = { "l", "r" }, *outs[] = { "y" };
  EXPECT("sublayout", S(lytG_sublayout(&cx, P(L), 2, ins, 1, outs)),
         "{r: [[0],[1]], l: [[0]]} -> {y: 2}");
  EXPECT_ERR("sublayout unknown", S(lytG_sublayout(&cx, P(L), 1, outs, 0, NULL)), "subset");
  /* Triton: ReshapeIns, ReshapeOuts, FlattenIns */
  lytG_dim rin[2] = { { "a", 1 }, { "b", 2 } };
  EXPECT("reshape ins", S(lytG_reshape_ins(&cx, P(L), 2, rin)),
         "{a: [[1,0]], b: [[0,1],[2,0]]} -> {x: 4, y: 2}");
  lytG_dim rout[2] = { { "p", 1 }, { "q", 2 } };
  EXPECT("reshape outs", S(lytG_reshape_outs(&cx, P(L), 2, rout)),
         "{r: [[1,0],[0,2]], l: [[0,1]], w: []} -> {p: 2, q: 4}");
  EXPECT_ERR("reshape ins total", S(lytG_reshape_ins(&cx, P(L), 1, rin)), "2^1 elements");
  EXPECT("flatten ins", S(lytG_flatten_ins(&cx, P(L))), "{r: [[1,0],[0,1],[2,0]]} -> {x: 4, y: 2}");
  EXPECT("flatten outs", S(lytG_flatten_outs(&cx, P(L))), "{r: [[1],[4]], l: [[2]], w: []} -> {x: 8}");
  EXPECT("flatten empty", S(lytG_flatten_ins(&cx, lytG_empty(&cx))), "{} -> {}");
  /* resize: in-dims shrink or grow with zero bases (Triton after 3.6); out-dims only shrink, components >= size become 0 */
  EXPECT("resize in", S(lytG_resize_in_dim(&cx, P(L), "r", 2)),
         "{r: [[1,0]], l: [[2,0]], w: []} -> {x: 4, y: 2}");
  EXPECT("resize in grow", S(lytG_resize_in_dim(&cx, P(L), "r", 8)),
         "{r: [[1,0],[0,1],[0,0]], l: [[2,0]], w: []} -> {x: 4, y: 2}");
  EXPECT_ERR("resize in bits", S(lytG_resize_in_dim(&cx, P("{r: [[1]], l: [[2],[4],[8]]} -> {x: 16}"), "r", (int64_t)1 << 62)),
             "input bits");
  EXPECT_ERR("resize in pow2", S(lytG_resize_in_dim(&cx, P(L), "r", 3)), "power of 2");
  EXPECT("resize out zeroes", S(lytG_resize_out_dim(&cx, P("{i: [[1],[2],[3]]} -> {o: 4}"), "o", 2)),
         "{i: [[1],[0],[0]]} -> {o: 2}");
  EXPECT("resize out 2d", S(lytG_resize_out_dim(&cx, P(L), "x", 2)),
         "{r: [[1,0],[0,1]], l: [[0,0]], w: []} -> {x: 2, y: 2}");
  EXPECT_ERR("resize out grow", S(lytG_resize_out_dim(&cx, P(L), "x", 8)), "only shrinking");
  /* rename keeps the dim's place (Triton's LayoutUtilsTest: [a, b] -> [c, b]) */
  EXPECT("rename", S(lytG_rename_in_dim(&cx, P(L), "r", "reg")),
         "{reg: [[1,0],[0,1]], l: [[2,0]], w: []} -> {x: 4, y: 2}");
  EXPECT("rename upstream", S(lytG_rename_in_dim(&cx, P("{a: [[1,0]], b: [[0,1]]} -> {x: 2, y: 2}"), "a", "c")),
         "{c: [[1,0]], b: [[0,1]]} -> {x: 2, y: 2}");
  EXPECT("rename same", S(lytG_rename_in_dim(&cx, P(L), "l", "l")),
         "{r: [[1,0],[0,1]], l: [[2,0]], w: []} -> {x: 4, y: 2}");
  EXPECT_ERR("rename clash", S(lytG_rename_in_dim(&cx, P(L), "r", "l")), "already has");
  /* LayoutUtils: factorThrough, getReps, ColumnAction (upstream values in
  ** tests/golden/triton/linear_layout_test.lyt; these pin the NULL cases) */
  const char *sup = "{s: [[1,1],[2,0]]} -> {x: 4, y: 2}";
  EXPECT("factor through", S(lytG_factor_through(&cx, P(sup), P("{v: [[3,1]]} -> {x: 4, y: 2}"))),
         "{v: [[3]]} -> {s: 4}");
  EXPECT("factor outside", lytG_factor_through(&cx, P(sup), P("{v: [[1,0]]} -> {x: 4, y: 2}")) ? "found" : "none", "none");
  EXPECT("factor larger", lytG_factor_through(&cx, P(sup), P("{v: [[1,0]]} -> {x: 8, y: 2}")) ? "found" : "none", "none");
  EXPECT("factor dims", lytG_factor_through(&cx, P(sup), P("{v: [[1]]} -> {x: 4}")) ? "found" : "none", "none");
  EXPECT("reps shifted", lytG_get_reps(&cx, P("{i: [[0,1],[1,0]]} -> {a: 2, b: 2}"), P("{i: [[1]]} -> {a: 2}")) ? "found" : "none", "none");
  EXPECT("reps overlap", lytG_get_reps(&cx, P("{i: [[1],[1]]} -> {a: 2}"), P("{i: [[1]]} -> {a: 2}")) ? "found" : "none", "none");
  int32_t act[3] = { 2, 2, 0 };
  EXPECT("column action repeat", S(lytG_column_action(&cx, P("{i: [[1],[2],[4]]} -> {o: 8}"), "i", 3, 3, act)),
         "{i: [[4],[4],[1]]} -> {o: 8}");
  EXPECT_ERR("column action size", S(lytG_column_action(&cx, P("{i: [[1],[2]]} -> {o: 4}"), "i", 3, 3, act)), "size 2^3");
  EXPECT("squeeze ins", S(lytG_squeeze_ins(&cx, P(L), "w")),
         "{r: [[1,0],[0,1]], l: [[2,0]]} -> {x: 4, y: 2}");
  EXPECT_ERR("squeeze ins size", S(lytG_squeeze_ins(&cx, P(L), "r")), "not 1");
  EXPECT("squeeze outs", S(lytG_squeeze_outs(&cx, P("{i: [[1,0]]} -> {x: 2, y: 1}"), "y")),
         "{i: [[1]]} -> {x: 2}");
  EXPECT_ERR("squeeze outs size", S(lytG_squeeze_outs(&cx, P(L), "x")), "not 1");
  EXPECT("remove zero bases",
         S(lytG_remove_zero_bases(&cx, P("{r: [[0],[1],[0],[2]], l: [[0]]} -> {o: 4}"), "r")),
         "{r: [[1],[2]], l: [[0]]} -> {o: 4}");
  EXPECT("remove zero bases absent",
         S(lytG_remove_zero_bases(&cx, P("{r: [[0]]} -> {o: 1}"), "q")), "{r: [[0]]} -> {o: 1}");
  /* Triton: ConcatIns, ConcatOuts */
  EXPECT("concat ins", S(lytG_concat_ins(&cx, P("{a: [[1]]} -> {o: 4}"), P("{b: [[2]]} -> {o: 4}"))),
         "{a: [[1]], b: [[2]]} -> {o: 4}");
  EXPECT_ERR("concat ins sizes", S(lytG_concat_ins(&cx, P("{a: [[1]]} -> {o: 4}"),
                                                   P("{b: [[1]]} -> {o: 2}"))), "same out-dims");
  EXPECT_ERR("concat ins same name", S(lytG_concat_ins(&cx, P("{a: [[1]]} -> {o: 4}"),
                                                       P("{a: [[2]]} -> {o: 4}"))), "duplicate");
  EXPECT("concat outs", S(lytG_concat_outs(&cx, P("{a: [[1]]} -> {o: 2}"), P("{a: [[3]]} -> {p: 4}"))),
         "{a: [[1,3]]} -> {o: 2, p: 4}");
  EXPECT_ERR("concat outs ins", S(lytG_concat_outs(&cx, P("{a: [[1]]} -> {o: 2}"),
                                                   P("{b: [[1]]} -> {p: 2}"))), "same in-dims");
}

/* ------------------------------------------------------------------ */
/* LayoutUtils helpers                                                 */
/* ------------------------------------------------------------------ */

static const char *sup(int na, const char *a0, const char *a1, int nb, const char *b0,
                       const char *b1) {
  const char *a[2] = { a0, a1 }, *b[2] = { b0, b1 }, *r[4];
  int32_t n = lytG_supremum(&cx, na, a, nb, b, r);
  return lytG_names_str(&cx, n, r);
}

static lytG_ll *blocked(const int64_t *spt, const int64_t *tpw, const int64_t *wpc,
                        const int32_t *order) {
  lytG_ll *r = lytG_identity_standard_nd(&cx, "register", 2, spt, order, NULL);
  r = lytG_product(&cx, r, lytG_identity_standard_nd(&cx, "lane", 2, tpw, order, NULL));
  return lytG_product(&cx, r, lytG_identity_standard_nd(&cx, "warp", 2, wpc, order, NULL));
}

static void test_helpers(void) {
  /* LayoutUtils supremum comments */
  EXPECT("sup ab ac", sup(2, "a", "b", 2, "a", "c"), "[a, b, c]");
  EXPECT("sup ab bc", sup(2, "a", "b", 2, "b", "c"), "[a, b, c]");
  EXPECT("sup ab ba (code never errs)", sup(2, "a", "b", 2, "b", "a"), "[a, b]");
  EXPECT("sup disjoint", sup(1, "a", NULL, 1, "b", NULL), "[a, b]");
  EXPECT("sup empty", sup(0, NULL, NULL, 1, "b", NULL), "[b]");
  int64_t shape[2] = { 4, 8 };
  int32_t ord[2] = { 1, 0 };
  EXPECT("identity_standard_nd", S(lytG_identity_standard_nd(&cx, "offset", 2, shape, ord, NULL)),
         "{offset: [[1,0],[2,0],[4,0],[0,1],[0,2]]} -> {dim1: 8, dim0: 4}");
  EXPECT("std name", lytG_std_dim_name(15), "dim15");
  EXPECT("std name out of range", lytG_std_dim_name(16) ? "x" : "NULL", "NULL");
  /* reference §3 example C01: blocked spt [1,4] tpw [8,4] wpc [4,1] order [1,0], 32x32 */
  int64_t spt[2] = { 1, 4 }, tpw[2] = { 8, 4 }, wpc[2] = { 4, 1 }, s32[2] = { 32, 32 };
  lytG_ll *cta = blocked(spt, tpw, wpc, ord);
  lytG_ll *cga = P("{block: []} -> {dim1: 1, dim0: 1}");
  EXPECT("C01 blocked", S(lytG_combine_cta_cga(&cx, cta, cga, 2, s32, NULL)),
         "{register: [[0,1],[0,2],[0,16]], lane: [[0,4],[0,8],[1,0],[2,0],[4,0]], "
         "warp: [[8,0],[16,0]], block: []} -> {dim0: 32, dim1: 32}");
  /* smaller tensor: largest bases zeroed first (reference C07 style) */
  int64_t s8[2] = { 8, 16 };
  EXPECT("blocked smaller", S(lytG_combine_cta_cga(&cx, cta, cga, 2, s8, NULL)),
         "{register: [[0,1],[0,2]], lane: [[0,4],[0,8],[1,0],[2,0],[4,0]], "
         "warp: [[0,0],[0,0]], block: []} -> {dim0: 8, dim1: 16}");
  EXPECT("not larger ties: in-dim order",
         S(lytG_ensure_not_larger(&cx, P("{register: [[1],[2]], lane: [[2]]} -> {dim0: 4}"), 1,
                                  (int64_t[]){ 2 }, NULL, 1)),
         "{register: [[1],[0]], lane: [[2]]} -> {dim0: 4}");
  EXPECT("not larger one tie",
         S(lytG_ensure_not_larger(&cx, P("{register: [[1],[2]], lane: [[2],[4]]} -> {dim0: 8}"),
                                  1, (int64_t[]){ 4 }, NULL, 1)),
         "{register: [[1],[2]], lane: [[2],[0]]} -> {dim0: 4}");
  EXPECT("not larger drop registers",
         S(lytG_ensure_not_larger(&cx, P("{register: [[1],[2]], lane: [[4]]} -> {dim0: 8}"), 1,
                                  (int64_t[]){ 2 }, NULL, 0)),
         "{register: [[1]], lane: [[0]]} -> {dim0: 2}");
  EXPECT("not larger no register dim, dropping",
         S(lytG_ensure_not_larger(&cx, P("{lane: [[1],[2]]} -> {dim0: 4}"), 1,
                                  (int64_t[]){ 2 }, NULL, 0)),
         "{lane: [[1],[0]], register: []} -> {dim0: 2}");
  EXPECT_ERR("not larger non-pow2 basis",
             S(lytG_ensure_not_larger(&cx, P("{register: [[3]]} -> {dim0: 4}"), 1,
                                      (int64_t[]){ 2 }, NULL, 1)), "not a power of 2");
  EXPECT("not smaller repeats on register",
         S(lytG_ensure_not_smaller(&cx, P("{register: [[1,0]], lane: [[0,1]]} -> {dim0: 2, dim1: 2}"),
                                   2, (int64_t[]){ 8, 2 }, NULL)),
         "{register: [[1,0],[2,0],[4,0]], lane: [[0,1]]} -> {dim0: 8, dim1: 2}");
  EXPECT_ERR("not smaller first dim",
             S(lytG_ensure_not_smaller(&cx, P("{lane: [[1]]} -> {dim0: 2}"), 1,
                                       (int64_t[]){ 4 }, NULL)), "'register' or 'offset'");
  EXPECT_ERR("not smaller rank", S(lytG_ensure_not_smaller(&cx, P("{register: [[1]]} -> {dim0: 2}"),
                                                           2, s8, NULL)), "rank 2");
  EXPECT_ERR("not smaller non-pow2", S(lytG_ensure_not_smaller(&cx, P("{register: [[1]]} -> {dim0: 2}"),
                                                               1, (int64_t[]){ 6 }, NULL)),
             "not a power of 2");
  EXPECT_ERR("not smaller not dividing",
             S(lytG_ensure_not_smaller(&cx, P("{register: [[1],[2]]} -> {dim0: 4}"), 1,
                                       (int64_t[]){ 6 }, NULL)), "does not divide");
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

static const char *tri(const char *s) {
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytG_print_triton(&b, P(s));
  return b.p;
}
static const char *attr(const char *s) {
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytG_print_attr(&b, P(s));
  return b.p;
}

static void test_print(void) {
  EXPECT("triton empty", tri("{} -> {}"), "\n(empty layout)");
  EXPECT("triton empty outs", tri("{} -> {o: 2}"), "\n(empty layout with out-dims [o (size 2)])");
  EXPECT("triton", tri("{register: [[0,1],[2,0]], lane: []} -> {dim0: 4, dim1: 2}"),
         "\n - register=1 -> (0, 1)\n   register=2 -> (2, 0)\n - lane is a size 1 dimension\n"
         "where out dims are: [dim0 (size 4), dim1 (size 2)]");
  EXPECT("attr", attr("{register: [[0,1],[0,2]], lane: [[1,0]], warp: [], block: []} -> "
                      "{dim0: 2, dim1: 4}"),
         "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0]], warp = [], block = []}>");
  EXPECT("lyt form", R("{register: [[0,1],[0,2]], lane: [[1,0],[2,0],[4,0]], warp: [], "
                       "block: []} -> {dim0: 8, dim1: 4}"),
         "{register: [[0,1],[0,2]], lane: [[1,0],[2,0],[4,0]], warp: [], block: []} -> "
         "{dim0: 8, dim1: 4}");
}

/* ------------------------------------------------------------------ */
/* random property checks                                              */
/* ------------------------------------------------------------------ */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static int32_t rnd(int32_t n) { return (int32_t)(rnd64() % (uint64_t)n); }

static const char *const inn[] = { "register", "lane", "warp", "block" };
static const char *const outn[] = { "dim0", "dim1", "dim2" };

/* Random dims with a total of bits; names from a table. */
static void rand_dims(lytG_dim *d, int32_t *n, int32_t bits, const char *const *names,
                      int32_t maxn) {
  *n = 1 + rnd(maxn);
  for (int32_t i = 0; i < *n; i++) d[i] = (lytG_dim){ names[i], 0 };
  for (int32_t b = 0; b < bits; b++) d[rnd(*n)].log2++;
}

static lytG_ll *rand_ll(int32_t inbits, int32_t outbits, int invertible) {
  lytG_dim in[4], out[3];
  int32_t nin, nout;
  rand_dims(in, &nin, inbits, inn, 4);
  rand_dims(out, &nout, outbits, outn, 3);
  uint64_t col[64];
  for (;;) {
    for (int32_t j = 0; j < inbits; j++) col[j] = rnd64() & lytG_mask(outbits);
    if (!invertible || lytG_rank_of(col, inbits) == outbits) break;
  }
  return lytG_make(&cx, nin, in, nout, out, col, 0);
}

static int is_identity(const lytG_ll *L) {
  for (int32_t j = 0; j < L->inbits; j++)
    if (L->col[j] != (uint64_t)1 << j) return 0;
  return L->inbits == L->outbits;
}

static void prop_invert(int32_t bits) {
  lytG_ll *L = rand_ll(bits, bits, 1);
  lytG_ll *V = lytG_invert(&cx, L);
  if (!is_identity(lytG_compose(&cx, L, V))) check("invert: inv(L) o L", S(L), "identity");
  if (!is_identity(lytG_compose(&cx, V, L))) check("invert: L o inv(L)", S(L), "identity");
  /* layouts of up to 32 bits take invert's own elimination: it must give
  ** what the general solver does, rank and flag included */
  lytG_ll *W = lytG_pseudoinvert(&cx, L);
  if (!lytG_equal(V, W) || lytG_rank(V) != lytG_rank(W) || V->require_surjective != W->require_surjective)
    check("invert: as pseudoinvert", S(V), S(W));
}

static void prop_pseudoinvert(int32_t inbits, int32_t outbits) {
  lytG_ll *L = rand_ll(inbits, outbits, 1);
  lytG_ll *B = lytG_pseudoinvert(&cx, L);
  for (int t = 0; t < 8; t++) {
    uint64_t y = lytG_apply_flat(L, rnd64());
    if (lytG_apply_flat(L, lytG_apply_flat(B, y)) != y) check("pseudoinvert A(B(y))", S(L), "y");
  }
}

/* compose agrees with applying twice (outer's in-dims = L's out-dims) */
static void prop_compose(int32_t bits) {
  lytG_ll *L = rand_ll(bits, bits, 0);
  lytG_ll *O = rand_ll(bits, 1 + rnd(bits), 0);
  const char *names[3];
  for (int32_t k = 0; k < L->nout; k++) names[k] = L->out[k].name;
  O = lytG_reshape_ins(&cx, O, L->nout, L->out);  /* O's in-dims = L's out-dims */
  (void)names;
  lytG_ll *C = lytG_compose(&cx, L, O);
  for (int t = 0; t < 8; t++) {
    uint64_t x = rnd64();
    if (lytG_apply_flat(C, x) != lytG_apply_flat(O, lytG_apply_flat(L, x)))
      check("compose = apply o apply", S(L), S(O));
  }
}

static void prop_product(void) {
  lytG_ll *a = rand_ll(1 + rnd(6), 1 + rnd(6), 0), *b = rand_ll(1 + rnd(6), 1 + rnd(6), 0);
  lytG_ll *c = rand_ll(1 + rnd(6), 1 + rnd(6), 0);
  lytG_ll *l = lytG_product(&cx, lytG_product(&cx, a, b), c);
  lytG_ll *r = lytG_product(&cx, a, lytG_product(&cx, b, c));
  if (!lytG_equal(l, r)) check("product associative", S(l), S(r));
  if (lytG_is_surjective(a) && lytG_is_surjective(b) && !lytG_is_surjective(lytG_product(&cx, a, b)))
    check("product of surjective", S(a), S(b));
  /* divide_left(B * C, B) recovers C */
  lytG_ll *bc = lytG_product(&cx, b, c);
  lytG_ll *q = lytG_try_divide_left(&cx, bc, b);
  if (q && !lytG_equal(lytG_product(&cx, b, q), bc)) check("divide_left", S(bc), S(b));
  lytG_ll *p = lytG_try_divide_right(&cx, bc, c);
  if (p && !lytG_equal(lytG_product(&cx, p, c), bc)) check("divide_right", S(bc), S(c));
}

/* divide_left(B * C, B) == C when both share their dims in one order */
static void prop_divide_exact(void) {
  int32_t ib = rnd(5), ob = 1 + rnd(5);
  lytG_ll *b = rand_ll(ib + 1, ob, 0), *c = rand_ll(1 + rnd(5), 1 + rnd(5), 0);
  /* give C the same dims as B (in and out), in the same order */
  lytG_dim in[4], out[3];
  for (int32_t i = 0; i < b->nin; i++) in[i] = (lytG_dim){ b->in[i].name, 0 };
  for (int32_t k = 0; k < b->nout; k++) out[k] = (lytG_dim){ b->out[k].name, 0 };
  for (int32_t t = 0; t < c->inbits; t++) in[rnd(b->nin)].log2++;
  for (int32_t t = 0; t < c->outbits; t++) out[rnd(b->nout)].log2++;
  c = lytG_make(&cx, b->nin, in, b->nout, out, c->col, 0);
  lytG_ll *q = lytG_divide_left(&cx, lytG_product(&cx, b, c), b);
  if (!lytG_equal(q, c)) check("divide_left(B*C, B) == C", S(q), S(c));
  lytG_ll *r = lytG_divide_right(&cx, lytG_product(&cx, c, b), b);
  if (!lytG_equal(r, c)) check("divide_right(C*B, B) == C", S(r), S(c));
}

static void prop_reshape(void) {
  lytG_ll *L = rand_ll(1 + rnd(12), 1 + rnd(12), 0);
  lytG_ll *F = lytG_flatten_outs(&cx, lytG_flatten_ins(&cx, L));
  lytG_ll *B = lytG_reshape_outs(&cx, lytG_reshape_ins(&cx, F, L->nin, L->in), L->nout, L->out);
  if (!lytG_equal(B, L)) check("reshape round trip", S(B), S(L));
  const char *o[3], *r[3];
  for (int32_t k = 0; k < L->nout; k++) o[k] = L->out[L->nout - 1 - k].name;
  for (int32_t k = 0; k < L->nout; k++) r[k] = L->out[k].name;
  lytG_ll *T = lytG_transpose_outs(&cx, lytG_transpose_outs(&cx, L, L->nout, o), L->nout, r);
  if (!lytG_equal(T, L)) check("transpose_outs round trip", S(T), S(L));
}

static void test_properties(void) {
  for (volatile int k = 0; k < 2000; k++) {
    lytA_mark m = lytA_getmark(&arena);
    if (setjmp(jb) == 0) {
      prop_invert(1 + rnd(32));
      int32_t ob = 1 + rnd(10);
      prop_pseudoinvert(ob + rnd(10), ob);
      prop_compose(1 + rnd(16));
      prop_product();
      prop_divide_exact();
      prop_reshape();
      npass++;
    } else {
      check("property run", errtext(), "no error");
    }
    lytA_release(&arena, m);
  }
}

/* ------------------------------------------------------------------ */
/* LYT_BENCH timing (not a test)                                       */
/* ------------------------------------------------------------------ */

static double now_ns(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);  /* C11; clock_gettime needs POSIX */
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void bench(void) {
  enum { N = 200000 };
  lytG_dim in[2] = { { "register", 16 }, { "lane", 16 } };
  lytG_dim out[2] = { { "dim0", 16 }, { "dim1", 16 } };
  uint64_t col[32];
  do {
    for (int j = 0; j < 32; j++) col[j] = rnd64() & 0xffffffffu;
  } while (lytG_rank_of(col, 32) != 32);
  lytG_ll *a = lytG_make(&cx, 2, in, 2, out, col, 0);
  lytG_ll *b = lytG_make(&cx, 2, out, 2, in, col, 0);
  uint64_t half[16];
  for (int j = 0; j < 16; j++) half[j] = col[j] & 0xffffu;
  lytG_ll *h = lytG_make(&cx, 1, in, 1, out, half, 0);  /* h * h is 32x32 */
  const char *what[3] = { "compose", "product", "invert" };
  for (int op = 0; op < 3; op++) {
    lytA_mark m = lytA_getmark(&arena);
    double t0 = now_ns();
    for (int i = 0; i < N; i++) {
      if (op == 0) lytG_compose(&cx, a, b);
      else if (op == 1) lytG_product(&cx, h, h);
      else lytG_invert(&cx, a);
      if ((i & 1023) == 0) lytA_release(&arena, m);
    }
    printf("bench %s 32x32: %.0f ns/op\n", what[op], (now_ns() - t0) / N);
    lytA_release(&arena, m);
  }
}

/* ------------------------------------------------------------------ */
/* conversions through shared memory (cases and PTX counts from        */
/* tests/data/ttgir/cvt: Triton 3.6's own)                             */
/* ------------------------------------------------------------------ */

static const char *smem_plan(const char *src, const char *dst, int32_t bits) {
  static char out[128];
  lytG_smem_plan p;
  lytG_cvt_smem(&cx, P(src), P(dst), bits, 90, &p);
  snprintf(out, sizeof out, "%s x%d*%lld %s x%d*%lld rounds %d", p.st.name, (int)p.st.elems,
           (long long)p.st.count, p.ld.name, (int)p.ld.elems, (long long)p.ld.count, 1 << p.reps);
  return out;
}

static void test_cvt_smem(void) {
  /* transpose_0, f32: no register in common, so scalar both ways */
  EXPECT("transpose f32",
         smem_plan("{register: [[1,0],[2,0],[0,8],[0,16],[0,32]], lane: [[4,0],[8,0],[16,0],"
                   "[32,0],[0,1]], warp: [[0,2],[0,4]]} -> {dim0: 64, dim1: 64}",
                   "{register: [[0,1],[0,2],[8,0],[16,0],[32,0]], lane: [[0,4],[0,8],[0,16],"
                   "[0,32],[1,0]], warp: [[2,0],[4,0]]} -> {dim0: 64, dim1: 64}", 32),
         "st.shared x1*32 ld.shared x1*32 rounds 1");
  /* gen_000, i8: one stmatrix .x4 of 16 elements, then two 128-bit loads */
  EXPECT("stmatrix then ld.shared",
         smem_plan("{register: [[0,1],[0,2],[16,0],[32,0]], lane: [[1,0],[2,0],[0,4],[0,0],[0,0]], "
                   "warp: [[4,0],[8,0],[0,0]]} -> {dim0: 64, dim1: 8}",
                   "{register: [[0,1],[0,2],[1,0],[2,0],[4,0]], lane: [[0,4],[0,0],[8,0],[16,0],"
                   "[32,0]], warp: [[0,0],[0,0],[0,0]]} -> {dim0: 64, dim1: 8}", 8),
         "stmatrix x16*1 ld.shared x16*2 rounds 1");
}

static const char *local_access(const char *reg, const char *mem, int32_t bits, int32_t kind) {
  static char out[128];
  lytG_smem_side sd;
  lytG_local_access(&cx, P(reg), P(mem), bits, 90, kind, 0, &sd);
  snprintf(out, sizeof out, "%s x%d*%lld", sd.name, (int)sd.elems, (long long)sd.count);
  return out;
}

static void test_local_access(void) {
  /* local/loc_040: a register along dim1 lands at offset 129 of the
  ** swizzled buffer (128 XOR 1); renumbering registers clears the 1, so
  ** Triton still writes 128 bits at a time (its PTX: 64 x st.shared.v4.b32) */
  const char *src = "{register: [[1,0],[2,0],[4,0],[0,1],[0,2],[0,4],[16,0],[32,0],[64,0]], "
                    "lane: [[8,0],[0,8],[0,16],[0,32],[0,64]], warp: []} -> {dim0: 128, dim1: 128}";
  const char *mem = "{offset: [[1,0],[2,0],[4,0],[8,0],[16,0],[32,0],[64,0],[1,1],[2,2],[0,4],"
                    "[0,8],[0,16],[0,32],[0,64]]} -> {dim0: 128, dim1: 128}";
  EXPECT("local_alloc through a swizzle", local_access(src, mem, 16, 0), "st.shared x8*64");
  /* local/loc_104: an MMA v2 B operand read from a swizzled buffer: lanes
  ** 2, 3, 4 run along the buffer's rows, so ldmatrix.trans (its PTX: 16 x
  ** ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16) */
  EXPECT("local_load to a dot operand",
         local_access("{register: [[1,0],[8,0],[16,0],[32,0],[0,16],[0,32],[0,64]], "
                      "lane: [[2,0],[4,0],[0,1],[0,2],[0,4]], warp: [[0,8],[0,0]]} -> "
                      "{dim0: 64, dim1: 128}",
                      "{offset: [[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[0,64],[1,0],[2,8],[4,16],"
                      "[8,0],[16,0],[32,0]]} -> {dim0: 64, dim1: 128}", 16, 1),
         "ldmatrix.trans x8*16");
}

int main(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  test_constructors();
  test_invariant_errors();
  test_queries();
  test_product();
  test_compose();
  test_invert_and_compose();
  test_invert();
  test_divide();
  test_quotient();
  test_shape();
  test_helpers();
  test_print();
  test_properties();
  test_cvt_smem();
  test_local_access();
  if (getenv("LYT_BENCH")) {
    if (setjmp(jb) == 0) bench();
    else check("bench", errtext(), "no error");
  }
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
