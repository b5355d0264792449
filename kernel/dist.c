/*
** dist.c: a distributed layout (register, lane, warp -> tile) read as
** threads and registers; see kernel.h.
*/
#include "kernel.h"

static int32_t bits_of(const lytG_ll *L, int32_t i) { return i < 0 ? 0 : L->in[i].log2; }

lytK_dist lytK_dist_of(const lytG_ll *L) {
  lytK_dist g = { L, lytG_in_index(L, "register"), lytG_in_index(L, "lane"),
                  lytG_in_index(L, "warp"), 0, 0, 0 };
  g.regbits = bits_of(L, g.ireg), g.lanebits = bits_of(L, g.ilane);
  g.warpbits = bits_of(L, g.iwarp);
  return g;
}

void lytK_coord(const lytK_dist *g, int64_t r, int64_t t, int64_t *x) {
  int64_t in[LYT_LL_MAXDIMS] = { 0 };
  if (g->ireg >= 0) in[g->ireg] = r;
  if (g->ilane >= 0) in[g->ilane] = t & ((INT64_C(1) << g->lanebits) - 1);
  if (g->iwarp >= 0) in[g->iwarp] = t >> g->lanebits;
  lytG_apply(g->L, in, x);
}

int64_t lytK_regs(const lytK_dist *g) { return INT64_C(1) << g->regbits; }
int64_t lytK_threads(const lytK_dist *g) { return INT64_C(1) << (g->lanebits + g->warpbits); }
