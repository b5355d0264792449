/*
** backends/dist.c: a distributed layout (register, lane, warp -> tile) read as
** threads and registers; see backends/kernel.h.
*/
#include "backends/kernel.h"

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

uint64_t lytK_col(const lytK_dist *g, int thread, int32_t b) {
  int32_t d = thread ? (b < g->lanebits ? g->ilane : g->iwarp) : g->ireg;
  int32_t at = thread && b >= g->lanebits ? b - g->lanebits : b;
  return g->L->col[lytG_in_offset(g->L, d) + at];
}

int64_t lytK_regs(const lytK_dist *g) { return INT64_C(1) << g->regbits; }
int64_t lytK_threads(const lytK_dist *g) { return INT64_C(1) << (g->lanebits + g->warpbits); }

/* The offset of one basis bit: register bit b (thread = 0) or thread bit b. */
static int64_t basis_offset(const lytK_dist *g, const lytG_ll *S, int thread, int32_t b) {
  int64_t x[LYT_LL_MAXDIMS], o;
  lytK_coord(g, thread ? 0 : INT64_C(1) << b, thread ? INT64_C(1) << b : 0, x);
  lytG_apply(S, x, &o);
  return o;
}

/* Both layouts are linear over GF(2): an index's offset is the XOR of the
** offsets of its bits, each index built from one with its top bit clear. */
void lytK_offsets(const lytK_dist *g, const lytG_ll *S, int thread, int64_t *o) {
  int32_t bits = thread ? g->lanebits + g->warpbits : g->regbits;
  o[0] = 0;
  for (int32_t b = 0; b < bits; b++) {
    int64_t ob = basis_offset(g, S, thread, b), h = INT64_C(1) << b;
    for (int64_t i = 0; i < h; i++) o[h + i] = o[i] ^ ob;
  }
}

/* The vector's own bits must give offsets 1, 2, 4.. and every other bit
** must keep the low log2(vec) offset bits clear. */
int32_t lytK_vec_bit(const lytK_dist *g, const lytG_ll *S, int32_t vec) {
  int32_t k = 0, tb = g->lanebits + g->warpbits;
  int64_t ro[LYT_LL_MAXBITS], tlow = 0;  /* register bits' offsets; threads' offset bits, ORed */
  while ((1 << k) < vec) k++;
  for (int32_t b = 0; b < g->regbits; b++) ro[b] = basis_offset(g, S, 0, b);
  for (int32_t b = 0; b < tb; b++) tlow |= basis_offset(g, S, 1, b);
  if (tlow & (vec - 1)) return -1;
  for (int32_t a = 0; a + k <= g->regbits; a++) {
    int ok = 1;
    for (int32_t b = 0; b < g->regbits && ok; b++)
      ok = b >= a && b < a + k ? ro[b] == INT64_C(1) << (b - a) : (ro[b] & (vec - 1)) == 0;
    if (ok) return a;
  }
  return -1;
}
