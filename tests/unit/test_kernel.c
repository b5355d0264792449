/*
** test_kernel.c: the tile grid of lowered kernels. The data a kernel
** moves is checked element by element elsewhere (tests/kernels.sh); that
** check cannot see which block moves which tile, so a wrong tile order
** would pass it. Here the lowered program is evaluated for every block
** and thread, and the elements each block loads and stores must be those
** of the tiles its tile ids name: tile id b + t*blocks in round t, placed
** row-major, by grid_order, by grid_group, or by the linear layout grid.
*/
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "backends/kernel.h"
#include "interp/linear/linear.h"

enum { R0 = 64, R1 = 128, T0 = 16, T1 = 16, G0 = R0 / T0, G1 = R1 / T1, TILES = G0 * G1 };

static const char *const dims[] = { "dim0", "dim1" };

/* register, lane -> a 16x16 tile: 8 registers along dim1, 32 lanes. */
static lytG_ll *dist(int by_rows) {
  static const int64_t rows_reg[] = { 0, 1, 0, 2, 0, 4 }, rows_lane[] = { 0, 8, 1, 0, 2, 0, 4, 0, 8, 0 };
  static const int64_t cols_reg[] = { 1, 0, 2, 0, 4, 0 }, cols_lane[] = { 8, 0, 0, 1, 0, 2, 0, 4, 0, 8 };
  lytG_inbases in[2] = { { "register", 3, by_rows ? rows_reg : cols_reg },
                         { "lane", 5, by_rows ? rows_lane : cols_lane } };
  int64_t sizes[2] = { T0, T1 };
  return lytG_from_bases(&cx, 2, in, 2, dims, sizes, 1);
}

/* A random invertible block -> (dim0, dim1) layout over the tile grid. */
static lytG_ll *random_grid(uint64_t *seed) {
  int64_t v[2 * 5], sizes[2] = { G0, G1 };
  for (;;) {
    for (int i = 0; i < 5; i++) {
      *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
      v[2 * i] = (int64_t)(*seed % G0), v[2 * i + 1] = (int64_t)(*seed / G0 % G1);
    }
    lytG_inbases in = { "block", 5, v };
    lytG_ll *G = lytG_from_bases(&cx, 1, &in, 2, dims, sizes, 0);
    if (lytG_is_invertible(G)) return G;
  }
}

/* The tile (c[0], c[1]) of tile id i, as the kernel's description says. */
static void tile_of(const lytK_kernel *k, int64_t i, int64_t *c) {
  if (k->grid) {
    lytG_apply(k->grid, &i, c);
  } else if (k->grid_group > 1) {
    int64_t G = k->grid_group, in = i % (G * G), grp = i / (G * G), per_row = G1 / G;
    c[0] = grp / per_row * G + in / G, c[1] = grp % per_row * G + in % G;
  } else if (k->has_grid_order) {  /* (0,1): dim0 fastest */
    c[0] = i % G0, c[1] = i / G0;
  } else {
    c[0] = i / G1, c[1] = i % G1;
  }
}

/* The block each element of in (src) and out (dst) must be moved by. */
static void want_owners(const lytK_kernel *k, int64_t blocks, int64_t *src, int64_t *dst) {
  for (int64_t i = 0; i < TILES; i++) {
    int64_t c[2];
    tile_of(k, i, c);
    for (int64_t x0 = 0; x0 < T0; x0++)
      for (int64_t x1 = 0; x1 < T1; x1++) {
        int64_t y0 = c[0] * T0 + x0, y1 = c[1] * T1 + x1;
        src[y0 * k->src_stride[0] + y1 * k->src_stride[1]] = i % blocks;
        dst[y0 * k->dst_stride[0] + y1 * k->dst_stride[1]] = i % blocks;
      }
  }
}

/* The block each element is loaded (src) and stored (dst) by in the
** program; -2 where two blocks touch one element. */
static void got_owners(const lytK_program *P, int64_t *src, int64_t *dst) {
  int64_t *v = malloc(sizeof *v * (size_t)P->nnodes);
  for (int64_t b = 0; b < P->blocks; b++)
    for (int64_t t = 0; t < P->threads; t++) {
      lytK_eval_nodes(P, t, b, v);
      for (int32_t i = 0; i < P->nops; i++) {
        const lytK_op *o = &P->op[i];
        if ((o->kind != LYTK_LDG && o->kind != LYTK_STG) || (o->pred >= 0 && v[o->pred])) continue;
        int64_t *own = o->kind == LYTK_LDG ? src : dst, at = (v[o->addr] ^ o->xor_k) + o->add_k;
        for (int32_t e = 0; e < o->vec; e++)
          own[at + e] = own[at + e] == -1 || own[at + e] == b ? b : -2;
      }
    }
  free(v);
}

/* "ok", or where the program's owners differ from the description's. */
static const char *owners(const lytK_kernel *k) {
  static char msg[128];
  lytK_program *P = lytK_lower(&cx, k);
  int64_t n = R0 * R1, *want = malloc(sizeof *want * 4 * (size_t)n), *got = want + 2 * n;
  for (int64_t i = 0; i < 4 * n; i++) want[i] = -1;
  want_owners(k, P->blocks, want, want + n);
  got_owners(P, got, got + n);
  snprintf(msg, sizeof msg, "ok");
  for (int64_t i = 0; i < 2 * n; i++)
    if (want[i] != got[i]) {
      snprintf(msg, sizeof msg, "%s element %lld: block %lld, want %lld", i < n ? "in" : "out",
               (long long)(i % n), (long long)got[i], (long long)want[i]);
      break;
    }
  free(want);
  return msg;
}

static lytK_kernel transpose(void) {
  lytK_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "t", k.elem = "f32", k.elem_bytes = 4, k.rank = 2;
  k.shape[0] = R0, k.shape[1] = R1, k.tile[0] = T0, k.tile[1] = T1;
  k.src_stride[0] = R1, k.src_stride[1] = 1, k.dst_stride[0] = 1, k.dst_stride[1] = R0;
  k.load = dist(1), k.store = dist(0);
  k.smem = lytK_pick_smem(&cx, &k);
  return k;
}

static void expect_ok(const char *name, const lytK_kernel *k) { EXPECT(name, owners(k), "ok"); }

static void test_orders(void) {
  uint64_t seed = 0x9e3779b97f4a7c15u;
  for (int t = 1; t <= 2; t++) {
    lytK_kernel k = transpose();
    k.tiles_per_block = t;
    expect_ok("row-major", &k);
    k.has_grid_order = 1, k.grid_order[0] = 0, k.grid_order[1] = 1;
    expect_ok("grid_order (0,1)", &k);
    k.has_grid_order = 0, k.grid_group = 2;
    expect_ok("grid_group 2", &k);
    k.grid_group = 0;
    for (int i = 0; i < 20; i++) {
      k.grid = random_grid(&seed);
      expect_ok("random grid", &k);
    }
    k.store = NULL;  /* a copy: no staging */
    expect_ok("random grid, copy", &k);
  }
}

static void test_grid_errors(void) {
  static const int64_t swap[] = { 0, 1, 0, 2, 0, 4, 1, 0, 1, 0 }, few[] = { 0, 1, 0, 2, 1, 0 };
  int64_t sizes[2] = { G0, G1 };
  lytG_inbases in = { "block", 5, swap };
  lytK_kernel k = transpose();
  k.grid = lytG_from_bases(&cx, 1, &in, 2, dims, sizes, 0);
  EXPECT_ERR("not invertible", owners(&k), "not invertible");
  in.n = 3, in.v = few;
  int64_t small[2] = { 2, 4 };
  k.grid = lytG_from_bases(&cx, 1, &in, 2, dims, small, 0);
  EXPECT_ERR("too few blocks", owners(&k), "in-dim block of size 32");
  k = transpose();
  in.n = 5, in.v = swap;
  k.grid = lytG_from_bases(&cx, 1, &in, 2, dims, sizes, 0);
  k.grid_group = 2;
  EXPECT_ERR("with grid_group", owners(&k), "grid takes the place of");
}

int main(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  test_orders();
  test_grid_errors();
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
