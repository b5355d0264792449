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

/* getReps: cvt with tile's leading bases zeroed, where cvt starts with
** tile's bases (per in-dim) and cvt's other bases stay clear of the
** out-bits tile reaches; NULL otherwise. Unlike zeros-like-tile times
** divide_left(cvt, tile), the other bases keep their values (nothing is
** shifted down), so they need not lie above the tile. */
lytG_ll *lytG_get_reps(lytS_ctx *cx, const lytG_ll *cvt, const lytG_ll *tile) {
  int32_t tk[LYT_LL_MAXDIMS];  /* tile's index of each of cvt's out-dims, or -1 */
  uint64_t mask[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < tile->nout; k++)  /* fails where tile has an out-dim cvt lacks */
    lytG_out_index_x(cx, cvt, tile->out[k].name);
  for (int32_t k = 0; k < cvt->nout; k++) {
    tk[k] = lytG_out_index(tile, cvt->out[k].name);
    mask[k] = 0;
    for (int32_t j = 0; j < tile->inbits && tk[k] >= 0; j++) mask[k] |= lytG_field(tile, tile->col[j], tk[k]);
  }
  lytG_ll *R = lytG_new(cx);
  *R = *cvt;
  for (int32_t i = 0; i < cvt->nin; i++) {
    int32_t t = lytG_in_index(tile, cvt->in[i].name), b = t < 0 ? 0 : tile->in[t].log2;
    if (b > cvt->in[i].log2) return NULL;
    for (int32_t bit = 0; bit < cvt->in[i].log2; bit++) {
      uint64_t w = in_col(cvt, i, bit);
      for (int32_t k = 0; k < cvt->nout; k++) {
        uint64_t v = lytG_field(cvt, w, k);
        if (bit < b ? v != (tk[k] < 0 ? 0 : lytG_field(tile, in_col(tile, t, bit), tk[k]))
                    : (v & mask[k]) != 0)
          return NULL;
      }
      if (bit < b) R->col[lytG_in_offset(cvt, i) + bit] = 0;
    }
  }
  lytG_finish(cx, R, 0, "get_reps");
  return R;
}

/* getIntegerStrides: for each in-dim d of ins, out == stride * d in
** integer arithmetic: d's bases reach out at stride << i and nothing in
** out's bits is shared with another selected dim or with the rest. 0
** (no value) where not; else strides and masks in ins' order. */
int lytG_integer_strides(lytS_ctx *cx, const lytG_ll *L, const char *out, int32_t n,
                         const char *const *ins, int64_t *stride, uint64_t *mask) {
  int32_t k = lytG_out_index_x(cx, L, out);
  uint32_t chosen = 0;
  uint64_t used = 0;
  for (int32_t d = 0; d < n; d++) {
    int32_t i = lytG_in_index_x(cx, L, ins[d]);
    if ((chosen >> i) & 1)
      lytS_fail(cx, LYT_ERRRUN, "get_integer_strides: in-dim '%s' is listed twice", ins[d]);
    chosen |= 1u << i;
    uint64_t s = L->in[i].log2 ? lytG_field(L, in_col(L, i, 0), k) : 0;
    if (s & (s - 1)) return 0;
    stride[d] = (int64_t)s;
    mask[d] = 0;
    for (int32_t bit = 0; bit < L->in[i].log2; bit++) {
      uint64_t v = lytG_field(L, in_col(L, i, bit), k);
      if (s && (bit >= 32 || v != s << bit)) return 0;
      if (!s && v) return 0;
      mask[d] |= v;
    }
    if (mask[d] & used) return 0;
    used |= mask[d];
  }
  for (int32_t i = 0; i < L->nin; i++)
    for (int32_t bit = 0; bit < L->in[i].log2 && !((chosen >> i) & 1); bit++)
      if (lytG_field(L, in_col(L, i, bit), k) & used) return 0;
  return 1;
}

/* isIdentityOnOutDim: dim is an in-dim and an out-dim, its in-dim is the
** identity onto it, and no other in-dim reaches it (dim's in-dim may
** reach other out-dims, unlike is_trivial_over). */
int lytG_is_identity_on_out_dim(lytS_ctx *cx, const lytG_ll *L, const char *dim) {
  int32_t i = lytG_in_index(L, dim), k = lytG_out_index(L, dim);
  if (i < 0 || k < 0 || !lytG_square_sublayout_is_identity(cx, L, 1, &dim)) return 0;
  for (int32_t j = 0; j < L->nin; j++)
    for (int32_t bit = 0; bit < L->in[j].log2 && j != i; bit++)
      if (lytG_field(L, in_col(L, j, bit), k)) return 0;
  return 1;
}

/* invertAndComposeBlockLocal: regs.invert_and_compose(mem), where each
** block bit that mem broadcasts (its basis reaches nothing) maps to its
** own block instead of block 0, so every CTA reads its own copy. The
** composition with mem is unchanged. */
lytG_ll *lytG_invert_and_compose_block_local(lytS_ctx *cx, const lytG_ll *mem,
                                             const lytG_ll *regs) {
  lytG_ll *R = lytG_invert_and_compose(cx, regs, mem);
  int32_t ma = lytG_in_index(mem, "block"), rb = lytG_in_index(regs, "block");
  if (R->nin == 0 || ma < 0 || rb < 0 || mem->in[ma].log2 != regs->in[rb].log2)
    lytS_fail(cx, LYT_ERRRUN, "invert_and_compose_block_local: both layouts need an in-dim "
              "'block' of the same size");
  int32_t k = lytG_out_index_x(cx, R, "block"), ri = lytG_in_index_x(cx, R, "block");
  int32_t off = lytG_out_offset(R, k);
  for (int32_t bit = 0; bit < mem->in[ma].log2; bit++) {
    if (in_col(mem, ma, bit) != 0) continue;
    uint64_t b = (uint64_t)1 << (off + bit);
    for (int32_t j = 0; j < R->inbits; j++) R->col[j] &= ~b;
    R->col[lytG_in_offset(R, ri) + bit] |= b;
  }
  lytG_finish(cx, R, 0, "invert_and_compose_block_local");
  return R;
}

/* ColumnAction::apply: in-dim `in` (of 2^log2) gets bases
** old[action[0]], old[action[1]], ...: a permutation, or a selection that
** drops the bases not named (or repeats one named twice); out sizes are
** kept. */
lytG_ll *lytG_column_action(lytS_ctx *cx, const lytG_ll *L, const char *in, int32_t log2,
                            int32_t n, const int32_t *action) {
  int32_t i = lytG_in_index_x(cx, L, in);
  if (L->in[i].log2 != log2)
    lytS_fail(cx, LYT_ERRRUN, "apply_column_action: the action is for '%s' of size 2^%d, the "
              "layout's has size %lld", in, (int)log2, (long long)lytG_in_size(L, i));
  if (L->inbits - log2 + n > LYT_LL_MAXBITS)
    lytS_fail(cx, LYT_ERRRUN, "apply_column_action: the result would have %d input bits "
              "(at most %d)", (int)(L->inbits - log2 + n), LYT_LL_MAXBITS);
  lytG_ll *R = lytG_new(cx);
  *R = *L;
  int32_t off = lytG_in_offset(L, i);
  for (int32_t t = 0; t < n; t++) R->col[off + t] = L->col[off + action[t]];
  memcpy(&R->col[off + n], &L->col[off + log2], sizeof R->col[0] * (size_t)(L->inbits - off - log2));
  R->in[i].log2 = n;
  R->inbits = L->inbits - log2 + n;
  lytG_finish(cx, R, 0, "apply_column_action");
  return R;
}
