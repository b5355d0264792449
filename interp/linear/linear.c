/*
** linear/linear.c: the GF(2) layout core (lytG_): construction, queries,
** apply, product and composition.
**
** A layout is kept as one 64-bit word per input bit (see linear/linear.h), so
** every operation here is a loop over at most 64 words with shifts and
** masks: no per-bit arrays. Triton states its invariants with asserts
** and report_fatal_error; the 3.6 wheels keep asserts on, so each one is
** an lytS_fail here with a message naming the broken condition.
*/
#include "interp/linear/linear.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* small helpers                                                       */
/* ------------------------------------------------------------------ */

lytG_ll *lytG_new(lytS_ctx *cx) {
  lytG_ll *L = lytS_alloc(cx, sizeof *L);
  memset(L, 0, sizeof *L);
  return L;
}

/* A layout with these dims (inbits and outbits input and output bits in
** all), its columns past inbits zero and the first inbits for the caller
** to write, then lytG_finish_known: what the hot operations (compose,
** invert) build, at the cost of what they use rather than of the whole
** struct. */
lytG_ll *lytG_shell(lytS_ctx *cx, int32_t nin, const lytG_dim *in, int32_t inbits,
                    int32_t nout, const lytG_dim *out, int32_t outbits) {
  lytG_ll *L = lytS_alloc(cx, sizeof *L);
  L->nin = nin;
  L->nout = nout;
  L->inbits = inbits;
  L->outbits = outbits;
  memcpy(L->in, in, sizeof *in * (size_t)nin);
  memcpy(L->out, out, sizeof *out * (size_t)nout);
  memset(L->col + inbits, 0, sizeof *L->col * (size_t)(LYT_LL_MAXBITS - inbits));
  return L;
}

static int32_t in_off(const lytG_ll *L, int32_t i) {
  int32_t o = 0;
  for (int32_t d = 0; d < i; d++) o += L->in[d].log2;
  return o;
}

static int32_t out_off(const lytG_ll *L, int32_t k) {
  int32_t o = 0;
  for (int32_t d = 0; d < k; d++) o += L->out[d].log2;
  return o;
}

uint64_t lytG_field(const lytG_ll *L, uint64_t w, int32_t k) {
  return (w >> out_off(L, k)) & lytG_mask(L->out[k].log2);
}

/* An arena string formatted like printf; for messages built in parts. */
static const char *fmt(lytS_ctx *cx, const char *f, ...) LYT_PRINTF(2, 3);
static const char *fmt(lytS_ctx *cx, const char *f, ...) {
  char *p = lytS_alloc(cx, LYT_MSG_MAX);
  va_list ap;
  va_start(ap, f);
  vsnprintf(p, LYT_MSG_MAX, f, ap);
  va_end(ap);
  return p;
}

const char *lytG_names_str(lytS_ctx *cx, int32_t n, const char *const *names) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_buf_puts(&b, "[");
  for (int32_t i = 0; i < n; i++) {
    if (i) lytS_buf_puts(&b, ", ");
    lytS_buf_puts(&b, names[i]);
  }
  lytS_buf_puts(&b, "]");
  return b.p;
}

static const char *dims_str(lytS_ctx *cx, int32_t n, const lytG_dim *d) {
  const char *names[LYT_LL_MAXDIMS];
  for (int32_t i = 0; i < n; i++) names[i] = d[i].name;
  return lytG_names_str(cx, n, names);
}

const char *lytG_in_names(lytS_ctx *cx, const lytG_ll *L) {
  return dims_str(cx, L->nin, L->in);
}

const char *lytG_out_names(lytS_ctx *cx, const lytG_ll *L) {
  return dims_str(cx, L->nout, L->out);
}

/* Gaussian elimination on a copy of the columns: each nonzero column
** clears its lowest bit from the later ones, branch-free so the inner
** loop vectorizes (this is the hot spot of every constructor). */
int32_t lytG_rank_of(const uint64_t *cols, int32_t n) {
  uint64_t c[LYT_LL_MAXBITS];
  memcpy(c, cols, sizeof c[0] * (size_t)n);
  int32_t r = 0;
  for (int32_t i = 0; i < n; i++) {
    uint64_t v = c[i];
    if (!v) continue;
    r++;
    uint64_t p = v & (0 - v);
    for (int32_t j = i + 1; j < n; j++) c[j] ^= v & (0 - (uint64_t)((c[j] & p) != 0));
  }
  return r;
}

/* ------------------------------------------------------------------ */
/* validation shared by every constructor                              */
/* ------------------------------------------------------------------ */

/* Names must be non-NULL and distinct within one list. */
static const char *check_names(lytS_ctx *cx, int32_t n, const lytG_dim *d, const char *kind) {
  if (n < 0 || n > LYT_LL_MAXDIMS)
    return fmt(cx, "a linear layout has at most %d %s-dims, got %d", LYT_LL_MAXDIMS, kind,
               (int)n);
  for (int32_t i = 0; i < n; i++) {
    if (!d[i].name) return fmt(cx, "%s-dim %d has no name", kind, (int)i);
    for (int32_t j = 0; j < i; j++)
      if (strcmp(d[i].name, d[j].name) == 0)
        return fmt(cx, "duplicate %s-dim name '%s'", kind, d[i].name);
  }
  return NULL;
}

/* Bit totals; each dim's size must stay an int64. */
static const char *check_bits(lytS_ctx *cx, int32_t n, const lytG_dim *d, const char *kind,
                              int32_t *total) {
  int32_t t = 0;
  for (int32_t i = 0; i < n; i++) {
    if (d[i].log2 < 0 || d[i].log2 > LYT_LL_MAXLOG2)
      return fmt(cx, "%s-dim '%s' has size 2^%d; at most 2^%d is supported", kind, d[i].name,
                 (int)d[i].log2, LYT_LL_MAXLOG2);
    t += d[i].log2;
  }
  if (t > LYT_LL_MAXBITS)
    return fmt(cx, "linear layout too large: %d %sput bits, at most %d (Triton's 64-bit "
               "matrix limit)", (int)t, kind, LYT_LL_MAXBITS);
  *total = t;
  return NULL;
}

static const char *not_surjective(lytS_ctx *cx, const lytG_ll *L, const char *what) {
  return fmt(cx, "%s: layout is expected to be surjective (every out coordinate reached by "
             "some in coordinate), but its rank is %d of %d output bits: %s", what,
             (int)L->rank, (int)L->outbits, lytG_str(cx, L));
}

/* Every check of lytG_finish, as a message instead of a failure. */
/* rank < 0: compute it; otherwise the caller knows it (product, invert). */
static const char *finish_r(lytS_ctx *cx, lytG_ll *L, int require_surjective,
                            const char *what, int32_t rank) {
  const char *m;
  if ((m = check_names(cx, L->nin, L->in, "in"))) return m;
  if ((m = check_names(cx, L->nout, L->out, "out"))) return m;
  if ((m = check_bits(cx, L->nin, L->in, "in", &L->inbits))) return m;
  if ((m = check_bits(cx, L->nout, L->out, "out", &L->outbits))) return m;
  uint64_t om = lytG_mask(L->outbits);
  for (int32_t j = 0; j < LYT_LL_MAXBITS; j++) {
    if (j >= L->inbits) L->col[j] = 0;
    else if (L->col[j] & ~om)
      return fmt(cx, "%s: basis %d has bits beyond the output dims", what, (int)j);
  }
  /* The rank costs a 64x64 elimination: computed here only when the
  ** surjectivity check needs it, otherwise on the first query. */
  L->rank = rank >= 0 ? rank : require_surjective ? lytG_rank_of(L->col, L->inbits) : -1;
  L->require_surjective = (uint8_t)(require_surjective != 0);
  if (require_surjective && L->rank != L->outbits) return not_surjective(cx, L, what);
  return NULL;
}

const char *lytG_finish_msg(lytS_ctx *cx, lytG_ll *L, int require_surjective,
                            const char *what) {
  return finish_r(cx, L, require_surjective, what, -1);
}

void lytG_finish_rank(lytS_ctx *cx, lytG_ll *L, int require_surjective, const char *what,
                      int32_t rank) {
  const char *m = finish_r(cx, L, require_surjective, what, rank);
  if (m) lytS_fail(cx, LYT_ERRRUN, "%s", m);
}

void lytG_finish_known(lytG_ll *L, int32_t rank, int require_surjective) {
  L->rank = rank;
  L->require_surjective = (uint8_t)(require_surjective != 0);
}

void lytG_finish(lytS_ctx *cx, lytG_ll *L, int require_surjective, const char *what) {
  lytG_finish_rank(cx, L, require_surjective, what, -1);
}

/* ------------------------------------------------------------------ */
/* constructors                                                        */
/* ------------------------------------------------------------------ */

lytG_ll *lytG_empty(lytS_ctx *cx) {
  lytG_ll *L = lytG_new(cx);
  lytG_finish(cx, L, 1, "empty");
  return L;
}

static int32_t log2_pow2(lytS_ctx *cx, int64_t size, const char *what) {
  if (size <= 0 || (size & (size - 1)))
    lytS_fail(cx, LYT_ERRRUN, "%s: size %lld is not a power of 2", what, (long long)size);
  return (int32_t)__builtin_ctzll((uint64_t)size);
}

/* Triton's strided1D: bases stride*2^i, out size stride*size, surjectivity
** required only when stride == 1 (the constructor then checks it). */
static lytG_ll *strided(lytS_ctx *cx, int64_t size, int64_t stride, const char *in,
                        const char *out, const char *what) {
  if (size == 0) return lytG_empty(cx);
  int32_t n = log2_pow2(cx, size, what);
  int64_t outsize = lytS_mul(cx, stride, size);
  if (stride < 0) lytS_fail(cx, LYT_ERRRUN, "%s: negative stride %lld", what, (long long)stride);
  int32_t ob = log2_pow2(cx, outsize, "strided_1d: out");
  lytG_ll *L = lytG_new(cx);
  L->nin = L->nout = 1;
  L->in[0] = (lytG_dim){ in, n };
  L->out[0] = (lytG_dim){ out, ob };
  for (int32_t i = 0; i < n; i++) L->col[i] = (uint64_t)stride << i;
  lytG_finish(cx, L, stride == 1, what);
  return L;
}

lytG_ll *lytG_strided_1d(lytS_ctx *cx, int64_t size, int64_t stride, const char *in,
                         const char *out) {
  return strided(cx, size, stride, in, out, "strided_1d");
}

lytG_ll *lytG_identity_1d(lytS_ctx *cx, int64_t size, const char *in, const char *out) {
  return strided(cx, size, 1, in, out, "identity_1d");
}

lytG_ll *lytG_zeros_1d(lytS_ctx *cx, int64_t size, const char *in, const char *out,
                       int64_t out_size) {
  if (size == 0) return lytG_empty(cx);
  int32_t n = log2_pow2(cx, size, "zeros_1d");
  int32_t ob = log2_pow2(cx, out_size, "zeros_1d: out");
  lytG_ll *L = lytG_new(cx);
  L->nin = L->nout = 1;
  L->in[0] = (lytG_dim){ in, n };
  L->out[0] = (lytG_dim){ out, ob };
  lytG_finish(cx, L, out_size == 1, "zeros_1d");
  return L;
}

/* LLVM's NextPowerOf2: strictly greater than v (0 -> 1, 4 -> 8). */
static int32_t next_pow2_log2(uint64_t v) {
  return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

/* The checks of Triton's checkInvariants on explicit bases, in its order. */
static const char *bases_msg(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins, int32_t nout,
                             const char *const *outs, const int64_t *out_sizes, lytG_ll *L) {
  if (nin < 0 || nin > LYT_LL_MAXDIMS || nout < 0 || nout > LYT_LL_MAXDIMS)
    return fmt(cx, "a linear layout has at most %d in-dims and %d out-dims, got %d and %d",
               LYT_LL_MAXDIMS, LYT_LL_MAXDIMS, (int)nin, (int)nout);
  L->nin = nin;
  L->nout = nout;
  for (int32_t i = 0; i < nin; i++) {
    if (ins[i].n < 0 || ins[i].n > LYT_LL_MAXBITS)
      return fmt(cx, "in-dim '%s': bad number of bases %d", ins[i].name ? ins[i].name : "?",
                 (int)ins[i].n);
    L->in[i] = (lytG_dim){ ins[i].name, ins[i].n };
  }
  for (int32_t k = 0; k < nout; k++) L->out[k] = (lytG_dim){ outs[k], 0 };
  const char *m;
  if ((m = check_names(cx, nin, L->in, "in"))) return m;
  if ((m = check_names(cx, nout, L->out, "out"))) return m;
  for (int32_t i = 0; i < nin; i++)
    for (int64_t e = 0; e < (int64_t)ins[i].n * nout; e++)
      if (ins[i].v[e] < 0)
        return fmt(cx, "invalid bases: expected all basis values to be non-negative, but "
                   "found %lld for in-dim '%s'", (long long)ins[i].v[e], ins[i].name);
  for (int32_t k = 0; k < nout; k++) {
    if (!out_sizes) continue;
    int64_t s = out_sizes[k];
    if (s <= 0 || (s & (s - 1)))
      return fmt(cx, "invalid out-dim size %lld for out-dim '%s': out-dim sizes must be "
                 "powers of 2", (long long)s, outs[k]);
    L->out[k].log2 = __builtin_ctzll((uint64_t)s);
  }
  if (!out_sizes)  /* Triton's names-only constructor infers sizes */
    for (int32_t i = 0; i < nin; i++)
      for (int64_t e = 0; e < (int64_t)ins[i].n * nout; e++) {
        int32_t k = (int32_t)(e % nout), lg = next_pow2_log2((uint64_t)ins[i].v[e]);
        if (lg > L->out[k].log2) L->out[k].log2 = lg;
      }
  for (int32_t i = 0; i < nin; i++)
    for (int64_t e = 0; e < (int64_t)ins[i].n * nout; e++) {
      int32_t k = (int32_t)(e % nout);
      if (L->out[k].log2 < 63 && ins[i].v[e] >= ((int64_t)1 << L->out[k].log2))
        return fmt(cx, "invalid basis %lld for in-dim '%s' and out-dim '%s': basis must be "
                   "less than the out-dim size %lld", (long long)ins[i].v[e], ins[i].name,
                   outs[k], (long long)((int64_t)1 << L->out[k].log2));
    }
  return NULL;
}

/* Packs validated bases into columns (sizes known, components in range). */
static void pack_bases(lytG_ll *L, const lytG_inbases *ins) {
  int32_t j = 0;
  for (int32_t i = 0; i < L->nin; i++)
    for (int32_t b = 0; b < ins[i].n; b++, j++) {
      uint64_t w = 0;
      for (int32_t k = 0, off = 0; k < L->nout; off += L->out[k].log2, k++)
        w |= (uint64_t)ins[i].v[(int64_t)b * L->nout + k] << off;
      L->col[j] = w;
    }
}

static const char *from_bases_msg(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins,
                                  int32_t nout, const char *const *outs,
                                  const int64_t *out_sizes, int require_surjective,
                                  lytG_ll *L) {
  const char *m = bases_msg(cx, nin, ins, nout, outs, out_sizes, L);
  if (m) return m;
  int32_t t;
  if ((m = check_bits(cx, L->nin, L->in, "in", &t))) return m;
  if ((m = check_bits(cx, L->nout, L->out, "out", &t))) return m;
  pack_bases(L, ins);
  return lytG_finish_msg(cx, L, out_sizes ? require_surjective : 1, "from_bases");
}

lytG_ll *lytG_from_bases(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins, int32_t nout,
                         const char *const *outs, const int64_t *out_sizes,
                         int require_surjective) {
  lytG_ll *L = lytG_new(cx);
  const char *m = from_bases_msg(cx, nin, ins, nout, outs, out_sizes, require_surjective, L);
  if (m) lytS_fail(cx, LYT_ERRRUN, "%s", m);
  return L;
}

lytG_ll *lytG_try_from_bases(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins,
                             int32_t nout, const char *const *outs,
                             const int64_t *out_sizes, int require_surjective) {
  lytG_ll *L = lytG_new(cx);
  const char *m = from_bases_msg(cx, nin, ins, nout, outs, out_sizes, require_surjective, L);
  if (!m) return L;
  snprintf(cx->msg, sizeof cx->msg, "%s", m);
  return NULL;
}

lytG_ll *lytG_make(lytS_ctx *cx, int32_t nin, const lytG_dim *in, int32_t nout,
                   const lytG_dim *out, const uint64_t *col, int require_surjective) {
  if (nin < 0 || nin > LYT_LL_MAXDIMS || nout < 0 || nout > LYT_LL_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "a linear layout has at most %d in-dims and out-dims",
              LYT_LL_MAXDIMS);
  lytG_ll *L = lytG_new(cx);
  L->nin = nin;
  L->nout = nout;
  memcpy(L->in, in, sizeof *in * (size_t)nin);
  memcpy(L->out, out, sizeof *out * (size_t)nout);
  int32_t t = 0;
  const char *m = check_bits(cx, nin, L->in, "in", &t);
  if (m) lytS_fail(cx, LYT_ERRRUN, "%s", m);
  memcpy(L->col, col, sizeof *col * (size_t)t);
  lytG_finish(cx, L, require_surjective, "make");
  return L;
}

lytG_ll *lytG_copy(lytS_ctx *cx, const lytG_ll *L) {
  lytG_ll *R = lytS_alloc(cx, sizeof *R);
  *R = *L;
  return R;
}

/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */

int32_t lytG_in_index(const lytG_ll *L, const char *name) {
  for (int32_t i = 0; i < L->nin; i++)
    if (strcmp(L->in[i].name, name) == 0) return i;
  return -1;
}

int32_t lytG_out_index(const lytG_ll *L, const char *name) {
  for (int32_t k = 0; k < L->nout; k++)
    if (strcmp(L->out[k].name, name) == 0) return k;
  return -1;
}

int32_t lytG_in_index_x(lytS_ctx *cx, const lytG_ll *L, const char *name) {
  int32_t i = lytG_in_index(L, name);
  if (i < 0)
    lytS_fail(cx, LYT_ERRRUN, "in-dim '%s' is not in the layout (in-dims %s)", name,
              lytG_in_names(cx, L));
  return i;
}

int32_t lytG_out_index_x(lytS_ctx *cx, const lytG_ll *L, const char *name) {
  int32_t k = lytG_out_index(L, name);
  if (k < 0)
    lytS_fail(cx, LYT_ERRRUN, "out-dim '%s' is not in the layout (out-dims %s)", name,
              lytG_out_names(cx, L));
  return k;
}

int32_t lytG_in_offset(const lytG_ll *L, int32_t i) { return in_off(L, i); }
int32_t lytG_out_offset(const lytG_ll *L, int32_t k) { return out_off(L, k); }
int64_t lytG_in_size(const lytG_ll *L, int32_t i) { return (int64_t)1 << L->in[i].log2; }
int64_t lytG_out_size(const lytG_ll *L, int32_t k) { return (int64_t)1 << L->out[k].log2; }

int64_t lytG_basis(const lytG_ll *L, int32_t i, int32_t bit, int32_t k) {
  return (int64_t)lytG_field(L, L->col[in_off(L, i) + bit], k);
}

void lytG_unflatten_out(const lytG_ll *L, uint64_t w, int64_t *vals) {
  for (int32_t k = 0; k < L->nout; k++) {
    vals[k] = (int64_t)(w & lytG_mask(L->out[k].log2));
    w = L->out[k].log2 >= 64 ? 0 : w >> L->out[k].log2;
  }
}

int32_t lytG_rank(const lytG_ll *L) {
  return L->rank >= 0 ? L->rank : lytG_rank_of(L->col, L->inbits);
}

int lytG_is_surjective(const lytG_ll *L) { return lytG_rank(L) == L->outbits; }
int lytG_is_injective(const lytG_ll *L) { return lytG_rank(L) == L->inbits; }
int lytG_is_invertible(const lytG_ll *L) {
  return lytG_is_surjective(L) && L->inbits == L->outbits;
}

/* getNumConsecutiveInOut: the identity prefix of the first in-dim on the
** first out-dim, capped by the lowest first-out-dim bit any other basis
** touches (ctz(0) counts as 31, as upstream writes it). */
int64_t lytG_num_consecutive(const lytG_ll *L) {
  if (L->nin == 0 || L->nout == 0) return 1;
  int32_t n0 = L->in[0].log2, consec = 0;
  /* (2^i, 0, ..., 0) needs 2^i inside the first out-dim */
  while (consec < n0 && consec < L->out[0].log2 && L->col[consec] == (uint64_t)1 << consec)
    consec++;
  uint64_t other = 0, m0 = lytG_mask(L->out[0].log2);
  for (int32_t j = consec; j < L->inbits; j++) other |= L->col[j] & m0;
  int32_t tz = other ? __builtin_ctzll(other) : 31;
  return (int64_t)1 << (consec < tz ? consec : tz);
}

/* Component-wise equality of two columns whose out-dims have equal names. */
static int cols_equal(const lytG_ll *a, const lytG_ll *b, uint64_t ca, uint64_t cb) {
  if (a->outbits == b->outbits) {
    int same = 1;
    for (int32_t k = 0; k < a->nout && same; k++) same = a->out[k].log2 == b->out[k].log2;
    if (same) return ca == cb;
  }
  for (int32_t k = 0; k < a->nout; k++)
    if (lytG_field(a, ca, k) != lytG_field(b, cb, k)) return 0;
  return 1;
}

int lytG_equal_ignoring_out_sizes(const lytG_ll *a, const lytG_ll *b) {
  if (a->nout != b->nout || a->nin != b->nin) return 0;
  for (int32_t k = 0; k < a->nout; k++)
    if (strcmp(a->out[k].name, b->out[k].name) != 0) return 0;
  for (int32_t i = 0; i < a->nin; i++)
    if (strcmp(a->in[i].name, b->in[i].name) != 0 || a->in[i].log2 != b->in[i].log2) return 0;
  for (int32_t j = 0; j < a->inbits; j++)
    if (!cols_equal(a, b, a->col[j], b->col[j])) return 0;
  return 1;
}

int lytG_equal(const lytG_ll *a, const lytG_ll *b) {
  if (!lytG_equal_ignoring_out_sizes(a, b)) return 0;
  for (int32_t k = 0; k < a->nout; k++)
    if (a->out[k].log2 != b->out[k].log2) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* apply                                                               */
/* ------------------------------------------------------------------ */

uint64_t lytG_apply_flat(const lytG_ll *L, uint64_t x) {
  uint64_t r = 0;
  x &= lytG_mask(L->inbits);
  while (x) {
    r ^= L->col[__builtin_ctzll(x)];
    x &= x - 1;
  }
  return r;
}

/* out[j] = L(in[j]) for n flat inputs. For many inputs, tables of the
** XORs of every 4-bit group of columns (16 words a group, 15 XORs to
** build) turn each application into one lookup per group instead of one
** XOR per set bit: about 5x fewer operations on 32-bit layouts. Columns
** past inbits are zero, so every group reads four. */
void lytG_apply_many(const lytG_ll *L, const uint64_t *in, uint64_t *out, int32_t n) {
  int32_t groups = (L->inbits + 3) / 4;
  if (n < 8 || groups == 0) {
    for (int32_t j = 0; j < n; j++) out[j] = lytG_apply_flat(L, in[j]);
    return;
  }
  uint64_t t[16][16];
  for (int32_t g = 0; g < groups; g++) {
    /* Every entry is computed from registers and stored once: reading
    ** back entries just stored (u[4 + v] = u[v] ^ c2) stalls on store
    ** forwarding, and that was most of a 32-bit compose. */
    const uint64_t *c = &L->col[4 * g];
    uint64_t c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c01 = c0 ^ c1, *u = t[g];
    uint64_t c02 = c0 ^ c2, c12 = c1 ^ c2, c012 = c01 ^ c2;
    u[0] = 0, u[1] = c0, u[2] = c1, u[3] = c01;
    u[4] = c2, u[5] = c02, u[6] = c12, u[7] = c012;
    u[8] = c3, u[9] = c0 ^ c3, u[10] = c1 ^ c3, u[11] = c01 ^ c3;
    u[12] = c2 ^ c3, u[13] = c02 ^ c3, u[14] = c12 ^ c3, u[15] = c012 ^ c3;
  }
  uint64_t m = lytG_mask(L->inbits);
  if (groups <= 4) {  /* up to 16 bits: four lookups, unrolled */
    for (int32_t g = groups; g < 4; g++) memset(t[g], 0, sizeof t[g]);
    for (int32_t j = 0; j < n; j++) {
      uint64_t x = in[j] & m;
      out[j] = t[0][x & 15] ^ t[1][x >> 4 & 15] ^ t[2][x >> 8 & 15] ^ t[3][x >> 12 & 15];
    }
    return;
  }
  if (groups <= 8) {  /* up to 32 bits (every warp-level layout): eight lookups, unrolled */
    for (int32_t g = groups; g < 8; g++) memset(t[g], 0, sizeof t[g]);
    for (int32_t j = 0; j < n; j++) {
      uint64_t x = in[j] & m;
      out[j] = t[0][x & 15] ^ t[1][x >> 4 & 15] ^ t[2][x >> 8 & 15] ^ t[3][x >> 12 & 15] ^
               t[4][x >> 16 & 15] ^ t[5][x >> 20 & 15] ^ t[6][x >> 24 & 15] ^ t[7][x >> 28 & 15];
    }
    return;
  }
  for (int32_t j = 0; j < n; j++) {
    uint64_t x = in[j] & m, r = 0;
    for (int32_t g = 0; g < groups; g++) r ^= t[g][(x >> (4 * g)) & 15];
    out[j] = r;
  }
}

void lytG_apply(const lytG_ll *L, const int64_t *vals, int64_t *out) {
  uint64_t x = 0;
  for (int32_t i = 0, off = 0; i < L->nin; off += L->in[i].log2, i++)
    x |= ((uint64_t)vals[i] & lytG_mask(L->in[i].log2)) << off;
  lytG_unflatten_out(L, lytG_apply_flat(L, x), out);
}

void lytG_apply_checked(lytS_ctx *cx, const lytG_ll *L, const int64_t *vals, int64_t *out) {
  for (int32_t i = 0; i < L->nin; i++)
    if (vals[i] < 0 || (uint64_t)vals[i] > lytG_mask(L->in[i].log2))
      lytS_fail(cx, LYT_ERRRUN, "apply: value %lld of in-dim '%s' is outside [0, %lld)",
                (long long)vals[i], L->in[i].name, (long long)lytG_in_size(L, i));
  lytG_apply(L, vals, out);
}

/* ------------------------------------------------------------------ */
/* moving output fields between layouts                                */
/* ------------------------------------------------------------------ */

/* Moves each out-dim field of a source word to a destination offset. */
typedef struct remap {
  int32_t n;
  int32_t src[LYT_LL_MAXDIMS], len[LYT_LL_MAXDIMS], dst[LYT_LL_MAXDIMS];
  int ident;  /* the move is the identity: skip it */
} remap;

static uint64_t remap_word(const remap *r, uint64_t w) {
  if (r->ident) return w;
  uint64_t o = 0;
  for (int32_t k = 0; k < r->n; k++)
    o |= ((w >> r->src[k]) & lytG_mask(r->len[k])) << r->dst[k];
  return o;
}

static void remap_add(remap *r, int32_t src, int32_t len, int32_t dst) {
  r->src[r->n] = src;
  r->len[r->n] = len;
  r->dst[r->n] = dst;
  r->n++;
  if (src != dst) r->ident = 0;
}

/* ------------------------------------------------------------------ */
/* product                                                             */
/* ------------------------------------------------------------------ */

static void sup_or_fail(lytS_ctx *cx, int32_t na, const lytG_dim *a, int32_t nb,
                        const lytG_dim *b, lytG_dim *out, int32_t *n, const char *kind) {
  const char *an[LYT_LL_MAXDIMS], *bn[LYT_LL_MAXDIMS], *r[2 * LYT_LL_MAXDIMS];
  for (int32_t i = 0; i < na; i++) an[i] = a[i].name;
  for (int32_t i = 0; i < nb; i++) bn[i] = b[i].name;
  int32_t m = lytG_sup_try(na, an, nb, bn, r);
  if (m < 0)
    lytS_fail(cx, LYT_ERRRUN, "product: the %s-dims %s and %s have no common order "
              "(supremum does not exist)", kind, lytG_names_str(cx, na, an),
              lytG_names_str(cx, nb, bn));
  if (m > LYT_LL_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "product: %d %s-dims, at most %d", (int)m, kind, LYT_LL_MAXDIMS);
  for (int32_t i = 0; i < m; i++) out[i] = (lytG_dim){ r[i], 0 };
  *n = m;
}

int32_t lytG_find_dim(int32_t n, const lytG_dim *d, const char *name) {
  /* names are mostly interned (the interpreter's are): pointers first */
  for (int32_t i = 0; i < n; i++)
    if (d[i].name == name) return i;
  for (int32_t i = 0; i < n; i++)
    if (strcmp(d[i].name, name) == 0) return i;
  return -1;
}

/* Where the out fields of x go in R; shifted by inner's sizes if outer. */
static void product_remap(const lytG_ll *R, const lytG_ll *x, const lytG_ll *inner,
                          remap *r) {
  r->n = 0;
  r->ident = 1;
  for (int32_t k = 0, off = 0; k < x->nout; off += x->out[k].log2, k++) {
    int32_t p = lytG_find_dim(R->nout, R->out, x->out[k].name);
    int32_t shift = 0;
    if (inner) {
      int32_t q = lytG_find_dim(inner->nout, inner->out, x->out[k].name);
      shift = q >= 0 ? inner->out[q].log2 : 0;
    }
    remap_add(r, off, x->out[k].log2, out_off(R, p) + shift);
  }
}

/* Copies x's bits of in-dim `name` (if any) to R's column `at`. */
static int32_t product_cols(lytG_ll *R, const lytG_ll *x, const char *name, const remap *r,
                            int32_t at) {
  int32_t i = lytG_find_dim(x->nin, x->in, name);
  if (i < 0) return 0;
  int32_t off = in_off(x, i);
  for (int32_t b = 0; b < x->in[i].log2; b++) R->col[at + b] = remap_word(r, x->col[off + b]);
  return x->in[i].log2;
}

lytG_ll *lytG_product(lytS_ctx *cx, const lytG_ll *inner, const lytG_ll *outer) {
  lytG_ll *R = lytG_new(cx);
  sup_or_fail(cx, inner->nin, inner->in, outer->nin, outer->in, R->in, &R->nin, "in");
  sup_or_fail(cx, inner->nout, inner->out, outer->nout, outer->out, R->out, &R->nout, "out");
  if (inner->inbits + outer->inbits > LYT_LL_MAXBITS ||
      inner->outbits + outer->outbits > LYT_LL_MAXBITS)
    lytS_fail(cx, LYT_ERRRUN, "product: result has %d input and %d output bits, at most %d",
              (int)(inner->inbits + outer->inbits), (int)(inner->outbits + outer->outbits),
              LYT_LL_MAXBITS);
  for (int32_t k = 0; k < R->nout; k++) {
    int32_t a = lytG_find_dim(inner->nout, inner->out, R->out[k].name);
    int32_t b = lytG_find_dim(outer->nout, outer->out, R->out[k].name);
    R->out[k].log2 = (a >= 0 ? inner->out[a].log2 : 0) + (b >= 0 ? outer->out[b].log2 : 0);
  }
  remap ri, ro;
  product_remap(R, inner, NULL, &ri);
  product_remap(R, outer, inner, &ro);
  for (int32_t i = 0, at = 0; i < R->nin; i++) {
    int32_t n = product_cols(R, inner, R->in[i].name, &ri, at);
    n += product_cols(R, outer, R->in[i].name, &ro, at + n);
    R->in[i].log2 = n;
    at += n;
  }
  /* inner's image lies in the low part of each out-dim, outer's in the
  ** high part, so the ranks add */
  lytG_finish_rank(cx, R, lytG_is_surjective(inner) && lytG_is_surjective(outer), "product",
                   lytG_rank(inner) + lytG_rank(outer));
  return R;
}

/* ------------------------------------------------------------------ */
/* composition                                                         */
/* ------------------------------------------------------------------ */

/* Fails unless the two name lists hold the same set. */
static void same_set(lytS_ctx *cx, int32_t na, const lytG_dim *a, int32_t nb,
                     const lytG_dim *b, const char *what) {
  int ok = na == nb;
  for (int32_t i = 0; i < na && ok; i++) ok = lytG_find_dim(nb, b, a[i].name) >= 0;
  if (!ok)
    lytS_fail(cx, LYT_ERRRUN, "%s: dimensions must match, ignoring order, but they don't: "
              "%s and %s", what, dims_str(cx, na, a), dims_str(cx, nb, b));
}

lytG_ll *lytG_compose(lytS_ctx *cx, const lytG_ll *L, const lytG_ll *outer) {
  same_set(cx, L->nout, L->out, outer->nin, outer->in, "compose (out-dims of the first, "
           "in-dims of the second)");
  remap r;  /* not zeroed: remap_add writes what remap_word reads */
  r.n = 0, r.ident = 1;
  int surj = lytG_is_surjective(L) && lytG_is_surjective(outer);
  for (int32_t k = 0, off = 0; k < L->nout; off += L->out[k].log2, k++) {
    int32_t i = lytG_find_dim(outer->nin, outer->in, L->out[k].name);
    if (L->out[k].log2 > outer->in[i].log2)
      lytS_fail(cx, LYT_ERRRUN, "compose: out-dim '%s' has size %lld, larger than the outer "
                "layout's in-dim size %lld", L->out[k].name, (long long)lytG_out_size(L, k),
                (long long)lytG_in_size(outer, i));
    surj = surj && L->out[k].log2 == outer->in[i].log2;
    remap_add(&r, off, L->out[k].log2, in_off(outer, i));
  }
  lytG_ll *R = lytG_shell(cx, L->nin, L->in, L->inbits, outer->nout, outer->out,
                          outer->outbits);
  uint64_t in[LYT_LL_MAXBITS];
  if (!r.ident)
    for (int32_t j = 0; j < L->inbits; j++) in[j] = remap_word(&r, L->col[j]);
  lytG_apply_many(outer, r.ident ? L->col : in, R->col, L->inbits);
  /* Surjections of matching sizes compose to a surjection: its rank is
  ** known, and Triton's check of it cannot fail. */
  lytG_finish_known(R, surj ? outer->outbits : -1, surj);
  return R;
}
