/*
** test_nested.c: unit and property tests of the IREE nested-layout core
** (lytN_) and of lytX_from_distributed.
**
** Checked: seed 004's full example element by element (the slices the
** seed spells out), the subgroup order of IREE's NestedLayoutAttr docs
** (tile [4,2], strides [1,4]: ids 0,4,1,5,2,6,3,7), IREE's checks, and on
** random layouts the three descriptions against one another: the owner
** relation from lytN_coord (IREE's formula), the Axe layout's forward
** sets (with replicas, not the base point the converter verifies), the
** linear layout's images, and the Axe layout read back from the linear
** one. Conversions may only fail where a test-side predicate says the
** layout has an element without owner or overlapping id blocks.
*/
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/axe/axe.h"
#include "harness.h"
#include "interp/nested/nested.h"

static const char *dup(const char *s) {
  char *p = lytS_alloc(&cx, strlen(s) + 1);
  strcpy(p, s);
  return p;
}

static lytN_layout *mk(int32_t rank, const int64_t t[5][LYTN_MAXRANK], const int64_t *sgs,
                       const int64_t *ts, int64_t ss, int64_t nsg) {
  const int64_t *tiles[LYTN_LEVELS] = { t[0], t[1], t[2], t[3], t[4] };
  return lytN_make(&cx, rank, tiles, sgs, ts, ss, nsg);
}

static lytN_layout *seed004(void) {
  static const int64_t t[5][LYTN_MAXRANK] = { { 2, 1 }, { 2, 4 }, { 1, 1 }, { 16, 4 }, { 1, 4 } };
  static const int64_t sgs[] = { 1, 0 }, ts[] = { 1, 16 };
  return mk(2, t, sgs, ts, 64, 4);
}

/* Seed 004: subgroup s takes row block s mod 2 of [2x1] (rows 32*(s%2) +
** 16*b0 after the batch), thread t the rows t%16 and the column group
** (t/16)%4, each holding [2x4]x[1x4] = 2x16 elements in that order. */
static const char *seed_owners(const lytN_layout *N) {
  int bad = 0;
  for (int64_t sg = 0; sg < 4; sg++)
    for (int64_t t = 0; t < 64; t++)
      for (int64_t r = 0; r < 32; r++) {
        int64_t c[2], b0 = r / 16, b1 = (r / 4) % 4, e1 = r % 4;
        lytN_coord(&cx, N, sg, t, r, c);
        int64_t row = ((sg % 2) * 2 + b0) * 16 + t % 16;
        int64_t col = (b1 * 4 + (t / 16) % 4) * 4 + e1;
        bad += c[0] != row || c[1] != col;
      }
  return bad ? "mismatch" : "ok";
}

static void test_seed004(void) {
  lytN_layout *N = seed004();
  int64_t s[12];
  EXPECT("seed regs", lytN_registers(N) == 32 ? "32" : "?", "32");
  EXPECT("seed shape", lytN_dist_shape(N, 0, s) == 2 && s[0] == 2 && s[1] == 16 ? "2x16" : "?", "2x16");
  EXPECT("seed ownership", seed_owners(N), "ok");
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytN_print_attr(&b, N);
  EXPECT("seed attr", b.p,
         "#iree_vector_ext.nested_layout<subgroup_tile = [2, 1], batch_tile = [2, 4], "
         "outer_tile = [1, 1], thread_tile = [16, 4], element_tile = [1, 4], "
         "subgroup_strides = [1, 0], thread_strides = [1, 16]>");
  EXPECT("seed axe", lytX_str(&cx, lytN_to_axe(&cx, N)),
         "S[(2,2,16,4,4,4):(64@tid,16,1@tid,4,16@tid,1)] + R[2:128@tid]");
}

/* The docs' order: virtual subgroup (i,j) of tile [4,2], strides [1,4],
** is subgroup i + 4j; listed row-major that is 0,4,1,5,2,6,3,7. */
static void test_subgroup_order(void) {
  static const int64_t t[5][LYTN_MAXRANK] = { { 4, 2 }, { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 1 } };
  static const int64_t sgs[] = { 1, 4 }, ts[] = { 0, 0 };
  lytN_layout *N = mk(2, t, sgs, ts, 1, 8);
  char got[64] = "";
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < 2; j++)
      for (int64_t sg = 0; sg < 8; sg++) {
        int64_t c[2];
        lytN_coord(&cx, N, sg, 0, 0, c);
        if (c[0] == i && c[1] == j) snprintf(got + strlen(got), 8, "%s%lld", *got ? "," : "", (long long)sg);
      }
  EXPECT("docs subgroup order", dup(got), "0,4,1,5,2,6,3,7");
}

static const char *make_text(int32_t rank, const int64_t t[5][LYTN_MAXRANK], const int64_t *sgs,
                             const int64_t *ts, int64_t ss, int64_t nsg) {
  lytS_buf b;
  lytS_buf_init(&b, &cx);
  lytN_print(&b, mk(rank, t, sgs, ts, ss, nsg));
  return b.p;
}

static void test_checks(void) {
  static const int64_t t[5][LYTN_MAXRANK] = { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 4, 4 }, { 1, 1 } };
  static const int64_t z[] = { 0, 0 }, ov[] = { 3, 1 }, ok[] = { 4, 1 };
  static const int64_t t1[5][LYTN_MAXRANK] = { { 1, 1 }, { 1, 1 }, { 1, 1 }, { 1, 4 }, { 1, 1 } };
  static const int64_t n1[] = { 7, 1 };
  EXPECT_ERR("overlap", make_text(2, t, z, ov, 0, 0), "overlapping thread_strides: stride 3");
  EXPECT("default sizes", make_text(2, t, z, ok, 0, 0),
         "nested(subgroup_tile=(1,1), batch_tile=(1,1), outer_tile=(1,1), thread_tile=(4,4), "
         "element_tile=(1,1), subgroup_strides=(0,0), thread_strides=(4,1), subgroup_size=16, subgroups=1)");
  EXPECT("size-1 stride normalized", make_text(2, t1, n1, n1, 0, 0),
         "nested(subgroup_tile=(1,1), batch_tile=(1,1), outer_tile=(1,1), thread_tile=(1,4), "
         "element_tile=(1,1), subgroup_strides=(0,0), thread_strides=(0,1), subgroup_size=4, subgroups=1)");
  static const int64_t bad[5][LYTN_MAXRANK] = { { 1 }, { 0 }, { 1 }, { 1 }, { 1 } };
  EXPECT_ERR("tile 0", make_text(1, bad, z, z, 0, 0), "batch_tile[0] must be at least 1");
  static const int64_t neg[] = { -1 };
  EXPECT_ERR("negative", make_text(1, t, neg, z, 0, 0), "subgroup_strides[0] must be >= 0");
  /* IREE's "derived thread config" consumer layout: accepted, not convertible */
  lytN_layout *D = mk(2, t, z, z, 64, 1);
  EXPECT_ERR("holes axe", lytX_str(&cx, lytN_to_axe(&cx, D)), "thread_tile[0] = 4 has stride 0");
  EXPECT_ERR("holes linear", lytG_str(&cx, lytN_to_linear(&cx, D)), "thread_tile[0] = 4 has stride 0");
  EXPECT_ERR("small workgroup", lytX_str(&cx, lytN_to_axe(&cx, mk(2, t, z, ok, 4, 2))),
             "reach 16 threads but the workgroup has 8");
  static const int64_t t3[5][LYTN_MAXRANK] = { { 1 }, { 1 }, { 1 }, { 3 }, { 1 } };
  static const int64_t one[] = { 1 };
  EXPECT_ERR("not pow2", lytG_str(&cx, lytN_to_linear(&cx, mk(1, t3, z, one, 0, 0))),
             "thread_tile[0] = 3 is not a power of two");
  EXPECT_ERR("range", (lytN_coord(&cx, seed004(), 4, 0, 0, (int64_t[2]){ 0 }), "ok"),
             "subgroup 4 is out of range [0, 4)");
}

/* ------------------------------------------------------------------ */
/* random layouts: owner relation vs Axe vs linear                     */
/* ------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static int64_t rnd(int64_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (int64_t)(rng % (uint64_t)n);
}

/* Strides for one level: the dims with tile > 1 in a random order, each a
** multiple (x1 or x2, the gap) of the block below it. */
static int64_t level_strides(int32_t rank, const int64_t *tile, int64_t *st, int pow2) {
  int32_t perm[LYTN_MAXRANK];
  for (int32_t d = 0; d < rank; d++) perm[d] = d;
  for (int32_t d = rank - 1; d > 0; d--) {
    int32_t k = (int32_t)rnd(d + 1), x = perm[d];
    perm[d] = perm[k], perm[k] = x;
  }
  int64_t prev = 1;
  for (int32_t i = 0; i < rank; i++) {
    int32_t d = perm[i];
    if (tile[d] == 1) { st[d] = rnd(2) ? 0 : 5; continue; }  /* normalized to 0 */
    st[d] = prev * (rnd(3) == 0 ? (pow2 ? 2 : 3) : 1);
    prev = st[d] * tile[d];
  }
  return prev;
}

/* The test's own reading of a layout: is an element without owner? Do the
** tid blocks overlap or not tile the workgroup? */
static int has_holes(const lytN_layout *N, int64_t size) {
  char *seen = lytS_alloc(&cx, (size_t)size);
  memset(seen, 0, (size_t)size);
  int64_t c[LYTN_MAXRANK], n = 0;
  for (int64_t tid = 0; tid < lytN_threads(N); tid++)
    for (int64_t r = 0; r < lytN_registers(N); r++) {
      lytN_coord(&cx, N, tid / N->subgroup_size, tid % N->subgroup_size, r, c);
      int64_t f = 0;
      for (int32_t d = 0; d < N->rank; d++) f = f * lytN_dim(N, d) + c[d];
      n += !seen[f];
      seen[f] = 1;
    }
  return n != size;
}

static int tid_blocks_bad(const lytN_layout *N) {
  int64_t s[2 * LYTN_MAXRANK], e[2 * LYTN_MAXRANK];
  int32_t k = 0;
  for (int32_t d = 0; d < N->rank; d++) {
    if (N->tile[LYTN_SUBGROUP][d] > 1) s[k] = N->sg_stride[d] * N->subgroup_size, e[k++] = N->tile[LYTN_SUBGROUP][d];
    if (N->tile[LYTN_THREAD][d] > 1) s[k] = N->th_stride[d], e[k++] = N->tile[LYTN_THREAD][d];
  }
  for (int32_t i = 0; i < k; i++)  /* selection sort by stride */
    for (int32_t j = i + 1; j < k; j++)
      if (s[j] < s[i]) {
        int64_t a = s[i], b = e[i];
        s[i] = s[j], e[i] = e[j], s[j] = a, e[j] = b;
      }
  int64_t prev = 1;
  for (int32_t i = 0; i < k; i++) {
    if (s[i] % prev) return 1;
    prev = s[i] * e[i];
  }
  return lytN_threads(N) % prev != 0;
}

/* Axe forward of every element == the owners IREE's formula gives it. */
static int axe_agrees(const lytN_layout *N, const lytX_layout *A, int64_t size) {
  int64_t shape[LYTN_MAXRANK], c[LYTN_MAXRANK];
  for (int32_t d = 0; d < N->rank; d++) shape[d] = lytN_dim(N, d);
  int64_t nt = lytN_threads(N), nr = lytN_registers(N);
  int64_t *owner = lytS_alloc(&cx, sizeof *owner * (size_t)(nt * nr));
  for (int64_t tid = 0; tid < nt; tid++)
    for (int64_t r = 0; r < nr; r++) {
      lytN_coord(&cx, N, tid / N->subgroup_size, tid % N->subgroup_size, r, c);
      int64_t f = 0;
      for (int32_t d = 0; d < N->rank; d++) f = f * shape[d] + c[d];
      owner[tid * nr + r] = f;
    }
  int64_t *count = lytS_alloc(&cx, sizeof *count * (size_t)size);
  memset(count, 0, sizeof *count * (size_t)size);
  for (int64_t k = 0; k < nt * nr; k++) count[owner[k]]++;
  const char *names[2] = { "tid", LYTX_MEM };
  for (int64_t f = 0; f < size; f++) {
    lytX_points p = lytX_apply_flat(&cx, A, f);
    p = lytX_points_reorder(&cx, &p, 2, names);
    if (p.n != count[f]) return 0;
    for (int32_t i = 0; i < p.n; i++) {
      int64_t tid = p.v[2 * i], r = p.v[2 * i + 1];
      if (tid < 0 || tid >= nt || r < 0 || r >= nr || owner[tid * nr + r] != f) return 0;
    }
  }
  return 1;
}

/* Linear images == IREE's formula; the Axe layout read back from the
** linear one has the same owners with tid split into lane and warp. */
static int linear_agrees(const lytN_layout *N, const lytG_ll *G, int64_t size) {
  int64_t c[LYTN_MAXRANK], g[LYTN_MAXRANK];
  for (int64_t sg = 0; sg < N->subgroups; sg++)
    for (int64_t l = 0; l < N->subgroup_size; l++)
      for (int64_t r = 0; r < lytN_registers(N); r++) {
        int64_t in[3] = { r, l, sg };
        lytN_coord(&cx, N, sg, l, r, c);
        lytG_apply(G, in, g);
        if (memcmp(c, g, sizeof(int64_t) * (size_t)N->rank)) return 0;
      }
  lytX_layout *B = lytX_from_distributed(&cx, G);
  const char *names[3] = { "register", "lane", "warp" };
  for (int64_t f = 0; f < size; f++) {
    lytX_points p = lytX_apply_flat(&cx, B, f);
    p = lytX_points_reorder(&cx, &p, 3, names);
    for (int32_t i = 0; i < p.n; i++) {
      lytN_coord(&cx, N, p.v[3 * i + 2], p.v[3 * i + 1], p.v[3 * i], c);
      int64_t h = 0;
      for (int32_t d = 0; d < N->rank; d++) h = h * lytN_dim(N, d) + c[d];
      if (h != f) return 0;
    }
  }
  return 1;
}

static void check_axe(const char *name, const lytN_layout *N, int64_t size, int ok) {
  if (setjmp(jb) == 0) {
    lytX_layout *A = lytN_to_axe(&cx, N);
    check(name, ok ? (axe_agrees(N, A, size) ? "axe agrees" : "axe differs") : "converted",
          ok ? "axe agrees" : "an error");
  } else {
    check(name, ok ? errtext() : "error", ok ? "an Axe layout" : "error");
  }
}

static void check_linear(const char *name, const lytN_layout *N, int64_t size, int ok) {
  if (setjmp(jb) == 0) {
    lytG_ll *G = lytN_to_linear(&cx, N);
    check(name, ok ? (linear_agrees(N, G, size) ? "linear agrees" : "linear differs")
                   : "converted",
          ok ? "linear agrees" : "an error");
  } else {
    check(name, ok ? errtext() : "error", ok ? "a linear layout" : "error");
  }
}

static lytN_layout *random_layout(int pow2) {
  int32_t rank = 1 + (int32_t)rnd(3);
  int64_t t[5][LYTN_MAXRANK], sgs[LYTN_MAXRANK], ts[LYTN_MAXRANK];
  static const int64_t p2[] = { 1, 2, 4, 1, 2 }, any[] = { 1, 2, 3, 4, 5 };
  int64_t size;
  do {  /* at most 2048 elements, so that the checks stay brute force */
    size = 1;
    for (int l = 0; l < 5; l++)
      for (int32_t d = 0; d < rank; d++) size *= t[l][d] = (pow2 ? p2 : any)[rnd(5)];
  } while (size > 2048);
  int64_t th = level_strides(rank, t[LYTN_THREAD], ts, pow2);
  int64_t sg = level_strides(rank, t[LYTN_SUBGROUP], sgs, pow2);
  /* mostly a subgroup as wide as the threads reach; sometimes wider
  ** (idle lanes hold copies) or half as wide (threads span subgroups) */
  int64_t ss = th, k = rnd(4);
  if (k == 1) ss = th * 2;
  if (k == 2 && th % 2 == 0) ss = th / 2;
  int64_t nsg = (sg > (th + ss - 1) / ss ? sg : (th + ss - 1) / ss) * (rnd(3) == 0 ? 2 : 1);
  if (rnd(8) == 0 && t[LYTN_THREAD][0] > 1) ts[0] = 0;  /* a hole */
  if (setjmp(jb)) {
    check("random nested", errtext(), "a valid layout (the generator's strides are IREE-valid)");
    return NULL;
  }
  return mk(rank, (const int64_t(*)[LYTN_MAXRANK])t, sgs, ts, ss, nsg);
}

static void random_case(int i) {
  char name[64];
  snprintf(name, sizeof name, "random nested %d", i);
  lytA_mark m = lytA_getmark(&arena);
  int pow2 = i % 2 == 0;
  lytN_layout *N = random_layout(pow2);
  if (N) {
    int64_t size = 1;
    for (int32_t d = 0; d < N->rank; d++) size *= lytN_dim(N, d);
    int owned = !has_holes(N, size);
    check_axe(dup(name), N, size, owned && !tid_blocks_bad(N));
    if (pow2) check_linear(dup(name), N, size, owned);
  }
  lytA_release(&arena, m);
}

/* lytX_from_distributed's refusals. */
static void test_from_distributed(void) {
  static const int64_t sw[] = { 1, 1, 2, 0 };  /* register: bit0 -> (1,1): a swizzle */
  static const int64_t two[] = { 1, 0, 1, 0, 2, 0 };  /* two bits onto dim0 bit 0 */
  static const int64_t hole[] = { 1, 0 };
  const char *outs[2] = { "dim0", "dim1" };
  lytG_inbases a = { "register", 2, sw }, b = { "register", 3, two }, c = { "register", 1, hole };
  int64_t sz[2] = { 4, 2 };  /* not surjective where that is not the point */
  EXPECT_ERR("swizzle", lytX_str(&cx, lytX_from_distributed(&cx, lytG_from_bases(&cx, 1, &a, 2, outs, sz, 0))),
             "register bit 0 gives several output bits");
  EXPECT_ERR("xor", lytX_str(&cx, lytX_from_distributed(&cx, lytG_from_bases(&cx, 1, &b, 2, outs, sz, 0))),
             "register bit 0 and register bit 1 both give bit 0 of dim0");
  EXPECT_ERR("hole", lytX_str(&cx, lytX_from_distributed(&cx, lytG_from_bases(&cx, 1, &c, 2, outs, sz, 0))),
             "no input bit gives bit 1 of dim0");
}

int main(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  test_seed004();
  test_subgroup_order();
  test_checks();
  test_from_distributed();
  for (int i = 0; i < 400; i++) random_case(i);
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
