/*
** linear/cvt.c: what Triton 3.6 does to lower a ttg.convert_layout
** between two distributed layouts, decided the way its lowering decides
** (facts from Triton's minimalCvtLayout, cvtNeedsWarpShuffle and
** getWarpLayoutConvertDecomposition; invert_and_compose and quotient as
** shared/reference/triton_linear_layout.md has them).
**
** The conversion is src^-1 o dst (Triton's dst.invertAndCompose(src)): for
** each hardware index of the destination, the source's hardware index that
** holds the same element. Its
** slowest hardware dims (block, then warp, lane, register) are quotiented
** away while the conversion is the identity on them; the first one left
** says how far data must travel. Lanes alone go through warp shuffles
** unless the permutation of register and lane bits needs two or more
** register<->lane transpositions, when shared memory is cheaper.
*/
#include <string.h>

#include "interp/linear/linear.h"

static const char *const HW[] = { "register", "lane", "warp", "block" };

lytG_ll *lytG_minimal_cvt(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst) {
  lytG_ll *comp = lytG_invert_and_compose(cx, dst, src);
  /* only the trailing in-dims both layouts share, slowest first */
  for (int32_t i = 0; i < src->nin && i < dst->nin; i++) {
    const char *d = src->in[src->nin - 1 - i].name;
    if (strcmp(d, dst->in[dst->nin - 1 - i].name) != 0) break;
    lytG_ll *q = lytG_try_quotient(cx, comp, 1, &d);
    if (!q) break;
    comp = q;
  }
  return comp;
}

/* The register and lane columns of L, broadcast registers (zero bases)
** dropped, each dim padded with zero columns to nreg / nlane bits. */
static void reg_lane_cols(const lytG_ll *L, int32_t nreg, int32_t nlane, uint64_t *cols) {
  memset(cols, 0, sizeof *cols * (size_t)(nreg + nlane));
  int32_t r = lytG_in_index(L, HW[0]), l = lytG_in_index(L, HW[1]), k = 0;
  for (int32_t t = 0; r >= 0 && t < L->in[r].log2; t++) {
    uint64_t w = L->col[lytG_in_offset(L, r) + t];
    if (w) cols[k++] = w;
  }
  for (int32_t t = 0; l >= 0 && t < L->in[l].log2; t++)
    cols[nreg + t] = L->col[lytG_in_offset(L, l) + t];
}

static int32_t nonzero_regs(const lytG_ll *L) {
  int32_t r = lytG_in_index(L, HW[0]), n = 0;
  for (int32_t t = 0; r >= 0 && t < L->in[r].log2; t++) n += L->col[lytG_in_offset(L, r) + t] != 0;
  return n;
}

static int32_t lane_bits(const lytG_ll *L) {
  int32_t l = lytG_in_index(L, HW[1]);
  return l >= 0 ? L->in[l].log2 : 0;
}

static lytG_ll *reg_lane_layout(lytS_ctx *cx, const lytG_ll *L, int32_t nreg, int32_t nlane) {
  lytG_dim in[2] = { { HW[0], nreg }, { HW[1], nlane } };
  uint64_t cols[LYT_LL_MAXBITS];
  reg_lane_cols(L, nreg, nlane, cols);
  return lytG_make(cx, 2, in, L->nout, L->out, cols, 0);
}

/* The register<->lane transpositions Triton factors out of the
** permutation P of register and lane bits that takes src to dst (its
** getWarpLayoutConvertDecomposition): one per maximal run of lane bits
** inside a cycle of P that also moves register bits. -1 if P is not a
** permutation, which a conversion within warps never gives. */
static int32_t mixed_transpositions(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst) {
  int32_t nreg = nonzero_regs(src), nlane = lane_bits(src);
  if (nonzero_regs(dst) > nreg) nreg = nonzero_regs(dst);
  if (lane_bits(dst) > nlane) nlane = lane_bits(dst);
  int32_t n = nreg + nlane;
  lytG_ll *S = reg_lane_layout(cx, src, nreg, nlane), *T = reg_lane_layout(cx, dst, nreg, nlane);
  lytG_ll *P = lytG_invert_and_compose(cx, S, T);
  /* Zero columns pair up: a bit free in both stays put; the k-th bit free
  ** only in src goes where the k-th bit free only in dst is. */
  int32_t sfree[LYT_LL_MAXBITS], dfree[LYT_LL_MAXBITS], ns = 0, nd = 0;
  uint64_t next[LYT_LL_MAXBITS];
  for (int32_t j = 0; j < n; j++) {
    next[j] = P->col[j];
    if (!S->col[j] && !T->col[j]) next[j] = (uint64_t)1 << j;
    else if (!S->col[j]) sfree[ns++] = j;
    else if (!T->col[j]) dfree[nd++] = j;
  }
  for (int32_t k = 0; k < ns && k < nd; k++) next[sfree[k]] = (uint64_t)1 << dfree[k];
  /* Walk the cycles, register bits first, so a cycle with register bits
  ** starts at one; count its register->lane steps. */
  uint64_t seen = 0;
  int32_t count = 0;
  for (int32_t j = 0; j < n; j++) {
    int32_t cur = j, steps = 0;
    while (!((seen >> cur) & 1)) {
      seen |= (uint64_t)1 << cur;
      uint64_t w = next[cur];
      if (!w || (w & (w - 1)) || ++steps > n) return -1;
      int32_t nx = __builtin_ctzll(w);
      count += cur < nreg && nx >= nreg;
      cur = nx;
    }
  }
  return count;
}

void lytG_cvt_plan(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst, lytG_cvt *out) {
  memset(out, 0, sizeof *out);
  out->minimal = lytG_minimal_cvt(cx, src, dst);
  out->transpositions = -1;
  const lytG_ll *m = out->minimal;
  if (lytG_in_index(m, HW[3]) >= 0) out->kind = LYTG_CVT_CTAS;
  else if (lytG_in_index(m, HW[2]) >= 0) out->kind = LYTG_CVT_SHARED;
  else if (lytG_in_index(m, HW[1]) >= 0) {
    out->transpositions = mixed_transpositions(cx, src, dst);
    int lanes_only = m->nout == 2 && strcmp(m->out[0].name, HW[0]) == 0 &&
                     strcmp(m->out[1].name, HW[1]) == 0;
    out->kind = lanes_only && out->transpositions >= 0 && out->transpositions < 2
                    ? LYTG_CVT_SHUFFLE : LYTG_CVT_SHARED;
  } else if (lytG_in_index(m, HW[0]) >= 0) out->kind = LYTG_CVT_REGISTERS;
  else out->kind = LYTG_CVT_NONE;
}

const char *lytG_cvt_name(lytG_cvt_kind k) {
  static const char *const names[] = { "none", "registers", "shuffle", "shared", "ctas" };
  return names[k];
}
