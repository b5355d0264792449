/*
** backends/bank.c: shared-memory bank conflicts of an access pattern, and the
** choice of a swizzled shared layout for a kernel's staging.
**
** Banks: 32 banks of 4 bytes. A warp's access is served in wavefronts; a
** bank serves one distinct 4-byte word per wavefront (lanes reading the
** same word share it), so an access needs max over banks of the distinct
** words it touches in that bank, and at least bytes/128. Accesses of 8
** and 16 bytes per lane go in phases of 16 and 8 lanes, each counted so
** (NVIDIA: checked against Nsight Compute's counts on the H100 and H200,
** bench/gpu/wavefronts_h100.lyt and make gpu-test).
**
** AMD CDNA3 (gfx942), a wave of 64 lanes, by the same count with its own
** phases; where each rule comes from:
** - 32 banks of 4 bytes, 128 bytes a clock: ROCm rocprofiler-compute,
**   docs/conceptual/pipeline-descriptions.rst (LDS): "On CDNA
**   accelerators, the LDS contains 32 banks and each bank is 4B wide".
** - a conflict is distinct addresses in one bank in one phase; lanes
**   reading one address share it (same file; Triton's bankConflicts in
**   lib/Tools/GenericSwizzling.cpp); a phase costs the most distinct
**   dwords of a bank (Triton's unittest/Dialect/TritonGPU/SwizzleTest.cpp,
**   bruteforceBankConflictsPerWavefront64).
** - phases: 32 contiguous lanes for accesses of up to 4 bytes, 16 for 8
**   bytes (that test: threadsPerPhase = numBanks / vectorisation); 8
**   contiguous lanes for ds_write_b128 (Composable Kernel,
**   docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst: "lane0~lane7,
**   lane8~lane15 ..."); for ds_read_b128 8 lanes that are not contiguous,
**   {0-3, 20-23}, {4-7, 16-19}, {8-11, 28-31}, {12-15, 24-27} and the same
**   plus 32: phase = b5 | (b2^b4) << 1 | b3 << 2 of the lane (the same CK
**   page, and SwizzleTest.cpp: "phase[0] = t[5], phase[1] = t[2] ^ t[4],
**   phase[2] = t[3]").
** Not measured on an MI300 here: the sources differ on 4- and 8-byte
** accesses (rocRoller's newer model, shared/rocroller/lib/source/
** LDSModel.cpp, takes 16 and 8 lanes a clock, a throughput limit that
** rocprofiler-compute also gives); lyt follows Triton's grouping. gfx950
** (64 banks for 8- and 16-byte reads) is not modelled.
*/
#include <string.h>

#include "backends/kernel.h"

/* The distinct 4-byte words one phase of an access touches, per bank. */
typedef struct banks {
  int64_t word[32][128];
  int32_t n[32];
  int64_t bytes;
} banks;

static void touch(banks *B, int64_t byte, int64_t len) {
  for (int64_t w = byte / 4; w <= (byte + len - 1) / 4; w++) {
    int32_t bank = (int32_t)(w % 32), seen = 0;
    for (int32_t i = 0; i < B->n[bank] && !seen; i++) seen = B->word[bank][i] == w;
    if (!seen && B->n[bank] < 128) B->word[bank][B->n[bank]++] = w;
  }
  B->bytes += len;
}

/* The phase lane l of an access of len bytes a lane is served in: runs of
** 128 bytes' worth of lanes, except CDNA3's ds_read_b128 (see above). */
static int64_t phase_of(int64_t l, int64_t len, lytK_model m, int load) {
  if (m == LYTK_MODEL_CDNA3 && len == 16 && load)
    return (l >> 5 & 1) | ((l >> 2 ^ l >> 4) & 1) << 1 | (l >> 3 & 1) << 2 | (l >> 6) << 3;
  return len > 4 ? l / (128 / len) : l / 32;
}

/* Adds one warp-level access to c. Lane l (of n) moves vec elements of
** eb bytes at the byte offsets off[l*vec ..] (a negative first one: the
** lane is off). The lanes are served in phases (phase_of), one after the
** other: a phase costs the most words one bank serves in it, at least its
** bytes/128; the ideal is the warp's bytes/128. */
static void warp_access(lytK_conflicts *c, banks *B, const int64_t *off, int64_t n, int32_t vec,
                        int32_t eb, lytK_model m, int load) {
  int64_t len = (int64_t)vec * eb, bytes = 0, waves = 0, phases = 0, ph[64];
  for (int64_t l = 0; l < n; l++) {  /* each lane's phase, once */
    ph[l] = phase_of(l, len, m, load);
    if (ph[l] >= phases) phases = ph[l] + 1;
  }
  for (int64_t q = 0; q < phases; q++) {
    memset(B->n, 0, sizeof B->n);
    B->bytes = 0;
    for (int64_t l = 0; l < n; l++)
      if (ph[l] == q && off[l * vec] >= 0)
        for (int32_t k = 0; k < vec; k++) touch(B, off[l * vec + k], eb);
    int64_t most = 0, ideal = (B->bytes + 127) / 128;
    for (int32_t b = 0; b < 32; b++) most = B->n[b] > most ? B->n[b] : most;
    waves += most > ideal ? most : ideal;
    bytes += B->bytes;
  }
  if (!bytes) return;
  c->accesses++;
  c->wavefronts += waves;
  c->ideal += (bytes + 127) / 128;
  c->conflicts = c->wavefronts - c->ideal;
}

/* A vector takes the registers lytK_vec_bit finds (as the lowering does),
** else consecutive ones. */
lytK_conflicts lytK_bank_conflicts(lytS_ctx *cx, const lytG_ll *dist, const lytG_ll *smem,
                                   int32_t elem_bytes, int32_t vec, int32_t lanes_per_warp,
                                   int load) {
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
  int32_t bit = lytK_vec_bit(&a, smem, vec);
  int64_t step = INT64_C(1) << (bit > 0 ? bit : 0), span = (int64_t)(vec - 1) * step;
  lytK_conflicts c = { 0, 0, 0, 0 };
  int64_t *ro = lytS_alloc(cx, sizeof *ro * (size_t)(regs + threads)), *to = ro + regs;
  lytK_offsets(&a, smem, 0, ro);
  lytK_offsets(&a, smem, 1, to);
  banks *B = lytS_alloc(cx, sizeof *B);
  int64_t *off = lytS_alloc(cx, sizeof *off * (size_t)(lanes_per_warp * vec));
  for (int64_t t0 = 0; t0 < threads; t0 += lanes_per_warp)
    for (int64_t r = 0; r < regs; r++) {
      if (r & span) continue;  /* not the first register of its vector */
      int64_t n = threads - t0 < lanes_per_warp ? threads - t0 : lanes_per_warp;
      for (int64_t l = 0; l < n; l++)
        for (int32_t k = 0; k < vec; k++) off[l * vec + k] = (ro[r + k * step] ^ to[t0 + l]) * elem_bytes;
      warp_access(&c, B, off, n, vec, elem_bytes, lanes_per_warp == 64 ? LYTK_MODEL_CDNA3 : LYTK_MODEL_NVIDIA, load);
    }
  return c;
}

/* The same count over a lowered program's shared accesses in block 0,
** from the addresses its nodes compute (warps of 32 threads, or waves of
** 64 by P's model; predicated-off lanes left out): what the kernel costs,
** and a check of the lowering against the layout-level count above. */
lytK_conflicts lytK_program_conflicts(lytS_ctx *cx, const lytK_program *P) {
  int64_t N = P->nnodes, W = P->model == LYTK_MODEL_CDNA3 ? 64 : 32;
  int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)(W * N));  /* one warp's node values */
  int64_t *off = lytS_alloc(cx, sizeof *off * (size_t)W * 16);
  banks *B = lytS_alloc(cx, sizeof *B);
  lytK_conflicts c = { 0, 0, 0, 0 };
  for (int64_t t0 = 0; t0 < P->threads; t0 += W) {
    int64_t n = P->threads - t0 < W ? P->threads - t0 : W;
    for (int64_t t = 0; t < n; t++) lytK_eval_nodes(P, t0 + t, 0, v + t * N);
    int64_t trips = 1;  /* an access in a loop counts once per trip */
    for (int32_t i = 0; i < P->nops; i++) {
      const lytK_op *o = &P->op[i];
      if (o->kind == LYTK_LOOP || o->kind == LYTK_END) trips = o->kind == LYTK_LOOP ? o->vec : 1;
      int matrix = o->kind == LYTK_LDSM || o->kind == LYTK_STSM;
      if (o->kind != LYTK_LDS && o->kind != LYTK_STS && !matrix) continue;
      lytK_conflicts before = c;
      /* ldmatrix/stmatrix: lane t's row of 8 elements, from the first 8*vec lanes */
      int64_t lanes = matrix ? (8 * o->vec < n ? 8 * o->vec : n) : n;
      int32_t vec = matrix ? 16 / P->elem_bytes : o->vec;
      for (int64_t t = 0; t < lanes; t++) {
        const int64_t *x = v + t * N;
        int64_t at = ((x[o->addr] ^ o->xor_k) + o->add_k) * P->elem_bytes;
        for (int32_t k = 0; k < vec; k++)
          off[t * vec + k] = o->pred >= 0 && x[o->pred] ? -1 : at + (int64_t)k * P->elem_bytes;
      }
      warp_access(&c, B, off, lanes, vec, P->elem_bytes, P->model,
                  o->kind == LYTK_LDS || o->kind == LYTK_LDSM);
      c.accesses += (trips - 1) * (c.accesses - before.accesses);
      c.wavefronts += (trips - 1) * (c.wavefronts - before.wavefronts);
      c.ideal += (trips - 1) * (c.ideal - before.ideal);
      c.conflicts += (trips - 1) * (c.conflicts - before.conflicts);
    }
  }
  return c;
}

/* The whole grid's: block 0's times the blocks (shared accesses are
** predicated by thread only, never by block). */
lytK_conflicts lytK_grid_conflicts(lytS_ctx *cx, const lytK_program *P) {
  lytK_conflicts c = lytK_program_conflicts(cx, P);
  c.accesses *= P->blocks, c.wavefronts *= P->blocks, c.ideal *= P->blocks, c.conflicts *= P->blocks;
  return c;
}

/* ------------------------------------------------------------------ */
/* choosing the shared layout                                          */
/* ------------------------------------------------------------------ */

/* The tile with its coordinate bits at offset bits in the order `place`
** (place[q]: the coordinate bit, numbered dim0's bits first, at offset
** bit q), and offset bit p XORed with the offset bits in mask[p] (for p
** below 64): a general GF(2) swizzle. */
static lytG_ll *swizzled(lytS_ctx *cx, const lytK_kernel *k, const int32_t *place,
                         const uint64_t *mask) {
  lytG_dim in[LYTK_MAXRANK], out = { "offset", 0 };
  uint64_t col[64];
  for (int32_t d = 0; d < k->rank; d++) {
    in[d] = (lytG_dim){ lytG_std_dim_name(d), lytS_ceil_log2(k->tile[d]) };
    out.log2 += in[d].log2;
  }
  for (int32_t q = 0; q < out.log2; q++) {
    uint64_t w = UINT64_C(1) << q;
    for (int32_t p = 0; p < out.log2; p++)
      if (mask[p] >> q & 1) w |= UINT64_C(1) << p;
    col[place[q]] = w;
  }
  return lytG_make(cx, k->rank, in, 1, &out, col, 1);
}

/* The row-major order (last dim fastest), except that the low `lo` bits
** of dim `first` come before all others: a vector down another dim than
** the last. */
static void base_order(const lytK_kernel *k, int32_t first, int32_t lo, int32_t *place) {
  int32_t at[LYTK_MAXRANK + 1], n = 0;
  at[0] = 0;
  for (int32_t d = 0; d < k->rank; d++) at[d + 1] = at[d] + lytS_ceil_log2(k->tile[d]);
  for (int32_t i = 0; i < lo; i++) place[n++] = at[first] + i;
  for (int32_t d = k->rank - 1; d >= 0; d--)
    for (int32_t i = d == first ? lo : 0; i < at[d + 1] - at[d]; i++) place[n++] = at[d] + i;
}

typedef struct score { int32_t vec; int64_t conflicts; } score;

/* The widest vec at which some vec registers of every thread are
** contiguous and aligned in S (lytK_vec_bit): what backends/lower.c's AxisInfo
** query finds, computed directly because the search calls it hundreds of
** times. */
static int32_t smem_vec(const lytK_kernel *k, const lytG_ll *L, const lytG_ll *S) {
  lytK_dist a = lytK_dist_of(L);
  int32_t best = 1;
  for (int32_t v = 2; v <= lytK_regs(&a) && v * k->elem_bytes <= 16; v *= 2) {
    if (lytK_vec_bit(&a, S, v) < 0) break;
    best = v;
  }
  return best;
}

static score evaluate(lytS_ctx *cx, const lytK_kernel *k, const lytG_ll *S) {
  const lytG_ll *st = k->store ? k->store : k->load;
  int32_t v1 = smem_vec(k, k->load, S), v2 = smem_vec(k, st, S);
  lytK_conflicts a = lytK_bank_conflicts(cx, k->load, S, k->elem_bytes, v1, 32, 0);
  lytK_conflicts b = lytK_bank_conflicts(cx, st, S, k->elem_bytes, v2, 32, 1);
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
  /* the base: row-major, unless a few low bits of another dim first make
  ** wider vectors (registers that run down a column on both sides) */
  int32_t place[64], cand[64];
  base_order(k, 0, 0, place);
  lytG_ll *best = swizzled(cx, k, place, mask);
  score bs = evaluate(cx, k, best);
  for (int32_t d = 0; d < k->rank - 1; d++)
    for (int32_t lo = 1; (k->elem_bytes << lo) <= 16 && (INT64_C(1) << lo) <= k->tile[d]; lo++) {
      base_order(k, d, lo, cand);
      lytG_ll *S = swizzled(cx, k, cand, mask);
      score sc = evaluate(cx, k, S);
      if (sc.vec > bs.vec) best = S, bs = sc, memcpy(place, cand, sizeof place);
    }
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
        lytG_ll *S = swizzled(cx, k, place, mask);
        score sc = evaluate(cx, k, S);
        if (sc.vec > bs.vec || (sc.vec == bs.vec && sc.conflicts < bs.conflicts))
          best = S, bs = sc, keep = opts[o];
      }
      mask[p] = keep;
    }
  return best;
}
