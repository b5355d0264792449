/*
** linear/convert.c: stride layouts <-> linear layouts over GF(2).
**
** A stride layout adds digit*stride; a linear layout XORs bit images.
** They agree on every input exactly when every input bit has a power-of-
** two image (or 0) and the nonzero images have pairwise disjoint bits:
** then no sum ever carries, so + and XOR coincide. If two images share a
** bit, the input with just those two bits set tells the maps apart, so
** the condition is also necessary. Both directions check it and say which
** bits collide.
*/
#include <string.h>

#include "interp/linear/convert.h"

static int bitlen(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* The images of one top-level mode's bits, appended to col[]. */
static void mode_bits(lytS_ctx *cx, lytS_layout mode, int32_t d, uint64_t *col, int32_t *nbits,
                      uint64_t *seen) {
  lytS_flat f = lytS_flat_of(cx, mode);
  for (int32_t k = 0; k < f.n; k++) {
    int64_t s = f.s[k];
    if (!lytS_is_pow2(s))
      lytS_fail(cx, LYT_ERRRUN, "linear: extent %lld of mode %d is not a power of two",
                (long long)s, (int)d);
    if (!lytS_isint(f.d[k]))
      lytS_fail(cx, LYT_ERRRUN, "linear: mode %d has a basis stride; only integer strides "
                "convert", (int)d);
    int64_t st = f.d[k]->v;
    if (s > 1 && st != 0 && !lytS_is_pow2(st))
      lytS_fail(cx, LYT_ERRRUN, "linear: stride %lld of mode %d is not a power of two, so "
                "its multiples carry (1*%lld + 2*%lld != %lld XOR %lld)", (long long)st, (int)d,
                (long long)st, (long long)st, (long long)st, (long long)(2 * st));
    for (int64_t b = 1; b < s; b <<= 1) {
      if (*nbits == LYT_LL_MAXBITS)
        lytS_fail(cx, LYT_ERRRUN, "linear: more than %d input bits", LYT_LL_MAXBITS);
      uint64_t img = st ? (uint64_t)lytS_mul(cx, st, b) : 0;
      if (img & *seen)
        lytS_fail(cx, LYT_ERRRUN, "linear: the image %llu of a bit of mode %d overlaps "
                  "another bit's image, so a sum would carry", (unsigned long long)img, (int)d);
      *seen |= img;
      col[(*nbits)++] = img;
    }
  }
}

lytG_ll *lytC_linear_of_layout(lytS_ctx *cx, lytS_layout l, const char *out) {
  int32_t r = lytS_lrank(l), nbits = 0;
  if (r > LYT_LL_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "linear: rank %d is above the %d dims of a linear layout",
              (int)r, LYT_LL_MAXDIMS);
  lytG_dim in[LYT_LL_MAXDIMS];
  uint64_t col[LYT_LL_MAXBITS], seen = 0;
  for (int32_t d = 0; d < r; d++) {
    int32_t before = nbits;
    mode_bits(cx, r == 1 && !lytS_istup(l.shape) ? l : lytS_lmode(cx, l, d), d, col, &nbits,
              &seen);
    in[d].name = lytG_std_dim_name(d);
    in[d].log2 = nbits - before;
  }
  lytG_dim o = { out, bitlen(seen) };
  return lytG_make(cx, r, in, 1, &o, col, 0);
}

/* Sw<B,M,S> over n bits: bit j goes to j, plus j-S when j is a Y bit. */
static lytG_ll *swizzle_ll(lytS_ctx *cx, lytS_swizzle sw, int32_t n, const char *name) {
  uint64_t yyy = (((uint64_t)1 << sw.b) - 1) << (sw.m + (sw.s > 0 ? sw.s : 0));
  uint64_t col[LYT_LL_MAXBITS];
  for (int32_t j = 0; j < n; j++) {
    uint64_t bit = (uint64_t)1 << j;
    col[j] = bit;
    if (yyy & bit) col[j] ^= sw.s >= 0 ? bit >> sw.s : bit << -sw.s;
  }
  lytG_dim in = { name, n }, o = { name, n };
  return lytG_make(cx, 1, &in, 1, &o, col, 0);
}

lytG_ll *lytC_linear_of_composed(lytS_ctx *cx, const lytS_composed *c, const char *out) {
  if (c->offset != 0)
    lytS_fail(cx, LYT_ERRRUN, "linear: offset %lld is not 0; an offset is affine, not linear",
              (long long)c->offset);
  lytG_ll *inner = lytC_linear_of_layout(cx, c->inner, out);
  int32_t ybits = c->sw.b + c->sw.m + (c->sw.s > 0 ? c->sw.s : -c->sw.s);
  int32_t n = inner->out[0].log2 > ybits ? inner->out[0].log2 : ybits;
  if (n > LYT_LL_MAXBITS)
    lytS_fail(cx, LYT_ERRRUN, "linear: the swizzle needs more than %d bits", LYT_LL_MAXBITS);
  lytG_dim o = { out, n };  /* same images, in a space wide enough for the swizzle */
  lytG_ll *wide = lytG_make(cx, inner->nin, inner->in, 1, &o, inner->col, 0);
  return lytG_compose(cx, wide, swizzle_ll(cx, c->sw, n, out));
}

/* Mode of in-dim i: one extent-2 leaf per bit, stride = its flat image. */
static lytS_layout dim_mode(lytS_ctx *cx, const lytG_ll *ll, int32_t i, uint64_t *seen) {
  int32_t n = ll->in[i].log2, off = lytG_in_offset(ll, i);
  if (n == 0) return lytS_int_layout(cx, 1, 0);
  lytS_layout *leaf = lytS_alloc(cx, sizeof *leaf * (size_t)n);
  for (int32_t b = 0; b < n; b++) {
    uint64_t img = ll->col[off + b];  /* packed out-dims = the colexicographic flat value */
    if (img & *seen)
      lytS_fail(cx, LYT_ERRRUN, "strided: bit %d of '%s' maps to %llu, which shares bits with "
                "another input bit's image: the layout mixes by XOR, not a stride map",
                (int)b, ll->in[i].name, (unsigned long long)img);
    if (img > (uint64_t)INT64_MAX)
      lytS_fail(cx, LYT_ERRRUN, "strided: image %llu does not fit a stride",
                (unsigned long long)img);
    *seen |= img;
    leaf[b] = lytS_int_layout(cx, 2, (int64_t)img);
  }
  return lytS_coalesce(cx, lytS_concat(cx, leaf, n));
}

lytS_layout lytC_strided_of_linear(lytS_ctx *cx, const lytG_ll *ll) {
  if (ll->nin == 0) return lytS_int_layout(cx, 1, 0);
  uint64_t seen = 0;
  lytS_layout *mode = lytS_alloc(cx, sizeof *mode * (size_t)ll->nin);
  for (int32_t i = 0; i < ll->nin; i++) mode[i] = dim_mode(cx, ll, i, &seen);
  return ll->nin == 1 ? mode[0] : lytS_concat(cx, mode, ll->nin);
}
