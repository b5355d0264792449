/*
** bank.c: shared-memory bank conflicts of an access pattern, and the
** choice of a swizzled shared layout for a kernel's staging.
**
** Banks: 32 banks of 4 bytes (NVIDIA; AMD's LDS on gfx90a/gfx942 has the
** same 32 x 4 B structure). A warp's access is served in wavefronts; a
** bank serves one distinct 4-byte word per wavefront (lanes reading the
** same word share it), so the access needs max over banks of the
** distinct words it touches in that bank, and at least bytes/128.
*/
#include <string.h>

#include "kernel.h"

/* Wavefronts of one warp-level access: lanes [t0, t0+n) each moving vec
** elements starting at register r. */
static int64_t wavefronts(const lytK_dist *a, const lytG_ll *S, int32_t elem_bytes, int32_t vec,
                          int64_t t0, int64_t n, int64_t r, int64_t *bytes) {
  int64_t words[32][128];
  int32_t nw[32] = { 0 };
  int64_t most = 0, x[LYT_LL_MAXDIMS], off;
  *bytes = 0;
  for (int64_t t = t0; t < t0 + n; t++)
    for (int32_t k = 0; k < vec; k++) {
      lytK_coord(a, r + k, t, x);
      lytG_apply(S, x, &off);
      for (int64_t b = off * elem_bytes / 4; b <= (off * elem_bytes + elem_bytes - 1) / 4; b++) {
        int32_t bank = (int32_t)(b % 32), seen = 0;
        for (int32_t i = 0; i < nw[bank] && !seen; i++) seen = words[bank][i] == b;
        if (!seen && nw[bank] < 128) words[bank][nw[bank]++] = b;
      }
      *bytes += elem_bytes;
    }
  for (int32_t b = 0; b < 32; b++) most = nw[b] > most ? nw[b] : most;
  return most;
}

lytK_conflicts lytK_bank_conflicts(lytS_ctx *cx, const lytG_ll *dist, const lytG_ll *smem,
                                   int32_t elem_bytes, int32_t vec, int32_t lanes_per_warp) {
  lytK_dist a = lytK_dist_of(dist);
  int64_t regs = lytK_regs(&a), threads = lytK_threads(&a);
  if (vec < 1 || regs % vec || (vec & (vec - 1)) || (int64_t)vec * elem_bytes > 16)
    lytS_fail(cx, LYT_ERRRUN, "bank_conflicts: vec = %d must be a power of two dividing the %lld "
              "registers, at most 16 bytes", (int)vec, (long long)regs);
  if (lanes_per_warp < 1 || lanes_per_warp > 64)
    lytS_fail(cx, LYT_ERRRUN, "bank_conflicts: a warp has 1 to 64 lanes");
  if (smem->nout != 1 || dist->nout != smem->nin)
    lytS_fail(cx, LYT_ERRRUN, "bank_conflicts: the shared layout must map the distributed "
              "layout's out-dims (%d) to one offset", (int)dist->nout);
  lytK_conflicts c = { 0, 0, 0, 0 };
  for (int64_t t0 = 0; t0 < threads; t0 += lanes_per_warp)
    for (int64_t r = 0; r < regs; r += vec) {
      int64_t bytes, n = threads - t0 < lanes_per_warp ? threads - t0 : lanes_per_warp;
      int64_t w = wavefronts(&a, smem, elem_bytes, vec, t0, n, r, &bytes);
      int64_t ideal = (bytes + 127) / 128;
      c.accesses++;
      c.wavefronts += w > ideal ? w : ideal;
      c.ideal += ideal;
    }
  c.conflicts = c.wavefronts - c.ideal;
  return c;
}

/* ------------------------------------------------------------------ */
/* choosing the shared layout                                          */
/* ------------------------------------------------------------------ */

/* The row-major tile (last dim fastest) with offset bit p XORed with the
** offset bits in mask[p] (for p below 64): a general GF(2) swizzle of the
** row-major offset. */
static lytG_ll *swizzled(lytS_ctx *cx, const lytK_kernel *k, const uint64_t *mask) {
  lytG_dim in[LYTK_MAXRANK], out = { "offset", 0 };
  uint64_t col[64];
  int32_t j = 0, bits[LYTK_MAXRANK];
  for (int32_t d = 0; d < k->rank; d++) {
    int32_t lg = lytS_ceil_log2(k->tile[d]);
    in[d] = (lytG_dim){ lytG_std_dim_name(d), lg };
    bits[d] = lg;
    out.log2 += lg;
  }
  for (int32_t d = 0; d < k->rank; d++) {
    int32_t at = 0;  /* the offset bit of this dim's bit 0: the dims after it are below */
    for (int32_t e = d + 1; e < k->rank; e++) at += bits[e];
    for (int32_t i = 0; i < bits[d]; i++) {
      int32_t q = at + i;
      uint64_t w = UINT64_C(1) << q;
      for (int32_t p = 0; p < out.log2; p++)
        if (mask[p] >> q & 1) w |= UINT64_C(1) << p;
      col[j++] = w;
    }
  }
  return lytG_make(cx, k->rank, in, 1, &out, col, 1);
}

typedef struct score { int32_t vec; int64_t conflicts; } score;

/* The widest vec at which every group of vec registers is contiguous and
** aligned in S, for every thread: what lower.c's AxisInfo query finds,
** computed directly because the search calls it hundreds of times. */
static int32_t smem_vec(const lytK_kernel *k, const lytG_ll *L, const lytG_ll *S) {
  lytK_dist a = lytK_dist_of(L);
  int64_t regs = lytK_regs(&a), threads = lytK_threads(&a);
  int32_t best = 1;
  for (int32_t v = 2; v <= regs && v * k->elem_bytes <= 16; v *= 2) {
    int ok = 1;
    for (int64_t t = 0; t < threads && ok; t++)
      for (int64_t r = 0; r < regs && ok; r += v) {
        int64_t x[LYT_LL_MAXDIMS], o0, o;
        lytK_coord(&a, r, t, x);
        lytG_apply(S, x, &o0);
        ok = o0 % v == 0;
        for (int32_t i = 1; i < v && ok; i++) {
          lytK_coord(&a, r + i, t, x);
          lytG_apply(S, x, &o);
          ok = o == o0 + i;
        }
      }
    if (!ok) break;
    best = v;
  }
  return best;
}

static score evaluate(lytS_ctx *cx, const lytK_kernel *k, const lytG_ll *S) {
  const lytG_ll *st = k->store ? k->store : k->load;
  int32_t v1 = smem_vec(k, k->load, S), v2 = smem_vec(k, st, S);
  lytK_conflicts a = lytK_bank_conflicts(cx, k->load, S, k->elem_bytes, v1, 32);
  lytK_conflicts b = lytK_bank_conflicts(cx, st, S, k->elem_bytes, v2, 32);
  return (score){ v1 + v2, a.conflicts + b.conflicts };
}

/* Which offset bits may be XORed, and with what: the bits that pick a
** bank above the widest shared vector (bits [m, window)) take any one or
** two of the bits above the bank window (the "row" bits). Coordinate
** descent over those choices, a few sweeps, from the plain row-major
** tile; a candidate is better with wider vectors, then fewer conflicts. */
lytG_ll *lytK_pick_smem(lytS_ctx *cx, const lytK_kernel *k) {
  uint64_t mask[64] = { 0 };
  int32_t total = 0, window = 0, m = 0;
  int64_t size = 1;
  for (int32_t d = 0; d < k->rank; d++) size *= k->tile[d];
  total = lytS_ceil_log2(size);
  while ((INT64_C(1) << window) * k->elem_bytes < 128 && window < total) window++;
  lytG_ll *best = swizzled(cx, k, mask);
  score bs = evaluate(cx, k, best);
  {  /* the widest vectors the plain tile allows stay below bit m */
    const lytG_ll *st = k->store ? k->store : k->load;
    int32_t v = smem_vec(k, k->load, best), w = smem_vec(k, st, best);
    while ((1 << m) < (v > w ? v : w)) m++;
  }
  uint64_t opts[1 + 64 + 64 * 63 / 2];
  int32_t nopt = 0;
  opts[nopt++] = 0;
  for (int32_t a = window; a < total; a++) {
    opts[nopt++] = UINT64_C(1) << a;
    for (int32_t b = a + 1; b < total; b++) opts[nopt++] = (UINT64_C(1) << a) | (UINT64_C(1) << b);
  }
  for (int sweep = 0; sweep < 3 && bs.conflicts > 0; sweep++)
    for (int32_t p = m; p < window; p++) {
      uint64_t keep = mask[p];
      for (int32_t o = 0; o < nopt; o++) {
        mask[p] = opts[o];
        lytG_ll *S = swizzled(cx, k, mask);
        score sc = evaluate(cx, k, S);
        if (sc.vec > bs.vec || (sc.vec == bs.vec && sc.conflicts < bs.conflicts))
          best = S, bs = sc, keep = opts[o];
      }
      mask[p] = keep;
    }
  return best;
}
