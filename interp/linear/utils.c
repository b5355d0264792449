/*
** linear/utils.c: Triton's layout utilities (LayoutUtils.h) over linear
** layouts: the masks of the bases that reach a dim, whether a square
** sublayout is the identity, the identity prefix of an in-dim, and
** renaming several dims at once. What each returns is what Triton's unit
** test LayoutUtilsTest checks (tests/golden/triton/layout_utils.lyt
** transcribes it).
*/
#include <string.h>

#include "interp/linear/linear.h"

static uint64_t in_col(const lytG_ll *L, int32_t i, int32_t bit) {
  return L->col[lytG_in_offset(L, i) + bit];
}

/* The sublayout of L over dims (each both an in-dim and an out-dim) is
** square and the identity: each in-dim has its out-dim's size and maps
** bit j to bit j of that out-dim and to nothing in the other dims named.
** Out-dims not named do not matter. */
int lytG_square_sublayout_is_identity(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                                      const char *const *dims) {
  int32_t out[LYT_LL_MAXDIMS];
  for (int32_t e = 0; e < n; e++) out[e] = lytG_out_index_x(cx, L, dims[e]);
  for (int32_t d = 0; d < n; d++) {
    int32_t i = lytG_in_index_x(cx, L, dims[d]);
    if (L->in[i].log2 != L->out[out[d]].log2) return 0;
    for (int32_t bit = 0; bit < L->in[i].log2; bit++)
      for (int32_t e = 0; e < n; e++)
        if (lytG_field(L, in_col(L, i, bit), out[e]) != (e == d ? (uint64_t)1 << bit : 0)) return 0;
  }
  return 1;
}

/* getOutputBasisMask: the bits of out that some basis of these in-dims sets. */
uint64_t lytG_output_basis_mask(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                                const char *const *ins, const char *out) {
  int32_t k = lytG_out_index_x(cx, L, out);
  uint64_t m = 0;
  for (int32_t d = 0; d < n; d++) {
    int32_t i = lytG_in_index_x(cx, L, ins[d]);
    for (int32_t bit = 0; bit < L->in[i].log2; bit++) m |= lytG_field(L, in_col(L, i, bit), k);
  }
  return m;
}

/* getInputBasisMask: bit j set when basis j of in reaches one of the outs. */
uint64_t lytG_input_basis_mask(lytS_ctx *cx, const lytG_ll *L, const char *in, int32_t n,
                               const char *const *outs) {
  int32_t i = lytG_in_index_x(cx, L, in);
  uint64_t m = 0;
  for (int32_t bit = 0; bit < L->in[i].log2; bit++)
    for (int32_t e = 0; e < n; e++)
      if (lytG_field(L, in_col(L, i, bit), lytG_out_index_x(cx, L, outs[e])) != 0)
        m |= (uint64_t)1 << bit;
  return m;
}

/* factorMaximalIdentityPrefix: the largest size <= max_size whose first
** log2(size) bases of in are the identity on out (and nothing elsewhere),
** and the quotient Q with identity1D(size, in, out) * Q == L: those bases
** dropped, out divided by size. The other bases must then reach out only
** in multiples of size; where one does not, no such Q exists (an error). */
lytG_ll *lytG_factor_identity_prefix(lytS_ctx *cx, const lytG_ll *L, const char *in,
                                     const char *out, int64_t max_size, int64_t *size) {
  int32_t i = lytG_in_index_x(cx, L, in), k = lytG_out_index_x(cx, L, out);
  if (max_size < 1)
    lytS_fail(cx, LYT_ERRRUN, "factor_maximal_identity_prefix: max_size %lld is below 1",
              (long long)max_size);
  int32_t p = 0, off = lytG_out_offset(L, k);
  while (p < L->in[i].log2 && p < L->out[k].log2 && ((int64_t)2 << p) <= max_size &&
         in_col(L, i, p) == (uint64_t)1 << (off + p))
    p++;
  *size = (int64_t)1 << p;
  lytG_ll *Q = lytG_new(cx);
  *Q = *L;
  int32_t first = lytG_in_offset(L, i);
  memmove(&Q->col[first], &Q->col[first + p], sizeof Q->col[0] * (size_t)(L->inbits - first - p));
  Q->in[i].log2 -= p;
  Q->inbits -= p;
  Q->out[k].log2 -= p;
  Q->outbits -= p;
  for (int32_t j = 0; j < Q->inbits; j++) {
    uint64_t w = Q->col[j], v = lytG_field(L, w, k);
    if (v & lytG_mask(p))
      lytS_fail(cx, LYT_ERRRUN, "factor_maximal_identity_prefix: a basis reaches %s at %llu, "
                "not a multiple of the prefix size %lld, so no quotient exists", out,
                (unsigned long long)v, (long long)*size);
    uint64_t low = w & lytG_mask(off), high = off + L->out[k].log2 >= 64 ? 0 : w >> (off + L->out[k].log2);
    Q->col[j] = low | (v >> p) << off | (off + Q->out[k].log2 >= 64 ? 0 : high << (off + Q->out[k].log2));
  }
  lytG_finish(cx, Q, 0, "factor_maximal_identity_prefix");
  return Q;
}

/* renameLinearLayoutDims: every pair (from, to) at once, each dim keeping
** its place; a name two dims would share is an error. */
lytG_ll *lytG_rename_dims(lytS_ctx *cx, const lytG_ll *L, int32_t ni, const char *const *in_from,
                          const char *const *in_to, int32_t no, const char *const *out_from,
                          const char *const *out_to) {
  lytG_ll *R = lytG_new(cx);
  *R = *L;
  for (int32_t p = 0; p < ni; p++) R->in[lytG_in_index_x(cx, L, in_from[p])].name = in_to[p];
  for (int32_t p = 0; p < no; p++) R->out[lytG_out_index_x(cx, L, out_from[p])].name = out_to[p];
  lytG_finish(cx, R, lytG_is_surjective(L), "rename_linear_layout_dims");
  return R;
}
