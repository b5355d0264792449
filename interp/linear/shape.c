/*
** linear/shape.c: structural transforms of linear layouts (lytG_), the
** helpers Triton keeps beside the class (LayoutUtils), and printing.
**
** Reshapes never move bits: the flat input and output words already are
** Triton's flattened views (first dim least significant), so reshaping is
** relabeling. Transposes and sublayouts move whole out-dim fields.
*/
#include "interp/linear/linear.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* helpers                                                             */
/* ------------------------------------------------------------------ */

static lytG_ll *like(lytS_ctx *cx, const lytG_ll *L) {
  lytG_ll *R = lytG_new(cx);
  *R = *L;
  return R;
}

static int listed(int32_t n, const char *const *names, const char *name) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* Fails unless names is a permutation of the dims d. */
static void check_perm(lytS_ctx *cx, int32_t n, const char *const *names, int32_t nd,
                       const lytG_dim *d, const char *what) {
  int ok = n == nd;
  for (int32_t i = 0; i < n && ok; i++) {
    ok = lytG_find_dim(nd, d, names[i]) >= 0;
    for (int32_t j = 0; j < i && ok; j++) ok = strcmp(names[i], names[j]) != 0;
  }
  if (!ok) {
    const char *dn[LYT_LL_MAXDIMS];
    for (int32_t i = 0; i < nd; i++) dn[i] = d[i].name;
    lytS_fail(cx, LYT_ERRRUN, "%s: dimensions must match, ignoring order, but they don't: "
              "%s and %s", what, lytG_names_str(cx, n < 0 ? 0 : n, names),
              lytG_names_str(cx, nd, dn));
  }
}

/* Copies the columns of in-dim i of L to R starting at column at. */
static int32_t copy_dim_cols(lytG_ll *R, const lytG_ll *L, int32_t i, int32_t at) {
  int32_t off = lytG_in_offset(L, i);
  memcpy(&R->col[at], &L->col[off], sizeof(uint64_t) * (size_t)L->in[i].log2);
  return L->in[i].log2;
}

/* Keeps the out-dim fields flagged in keep[], compacted, in every column. */
static void keep_fields(lytG_ll *R, const lytG_ll *L, const int *keep) {
  int32_t n = 0;
  for (int32_t k = 0; k < L->nout; k++)
    if (keep[k]) R->out[n++] = L->out[k];
  R->nout = n;
  for (int32_t j = 0; j < R->inbits; j++) {
    uint64_t w = 0;
    for (int32_t k = 0, off = 0; k < L->nout; k++)
      if (keep[k]) {
        w |= lytG_field(L, R->col[j], k) << off;
        off += L->out[k].log2;
      }
    R->col[j] = w;
  }
}

/* ------------------------------------------------------------------ */
/* sublayout, transposes, reshapes                                     */
/* ------------------------------------------------------------------ */

static void check_subset(lytS_ctx *cx, int32_t n, const char *const *names, int32_t nd,
                         const lytG_dim *d, const char *what) {
  for (int32_t i = 0; i < n; i++)
    if (lytG_find_dim(nd, d, names[i]) < 0) {
      const char *dn[LYT_LL_MAXDIMS];
      for (int32_t k = 0; k < nd; k++) dn[k] = d[k].name;
      lytS_fail(cx, LYT_ERRRUN, "%s: dimensions must be a subset, ignoring order, but they "
                "aren't: %s and %s", what, lytG_names_str(cx, n, names),
                lytG_names_str(cx, nd, dn));
    }
}

lytG_ll *lytG_sublayout(lytS_ctx *cx, const lytG_ll *L, int32_t nins, const char *const *ins,
                        int32_t nouts, const char *const *outs) {
  check_subset(cx, nins, ins, L->nin, L->in, "sublayout");
  check_subset(cx, nouts, outs, L->nout, L->out, "sublayout");
  lytG_ll *R = lytG_new(cx);
  int32_t at = 0;
  for (int32_t i = 0; i < L->nin; i++)
    if (listed(nins, ins, L->in[i].name)) {
      R->in[R->nin++] = L->in[i];
      at += copy_dim_cols(R, L, i, at);
    }
  R->inbits = at;
  int keep[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < L->nout; k++) keep[k] = listed(nouts, outs, L->out[k].name);
  keep_fields(R, L, keep);
  lytG_finish(cx, R, 0, "sublayout");
  return R;
}

lytG_ll *lytG_transpose_ins(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                            const char *const *order) {
  check_perm(cx, n, order, L->nin, L->in, "transpose_ins");
  lytG_ll *R = like(cx, L);
  for (int32_t i = 0, at = 0; i < n; i++) {
    int32_t s = lytG_in_index(L, order[i]);
    R->in[i] = L->in[s];
    at += copy_dim_cols(R, L, s, at);
  }
  lytG_finish(cx, R, lytG_is_surjective(L), "transpose_ins");
  return R;
}

lytG_ll *lytG_transpose_outs(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                             const char *const *order) {
  check_perm(cx, n, order, L->nout, L->out, "transpose_outs");
  lytG_ll *R = like(cx, L);
  int32_t src[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < n; k++) {
    src[k] = lytG_out_index(L, order[k]);
    R->out[k] = L->out[src[k]];
  }
  for (int32_t j = 0; j < L->inbits; j++) {
    uint64_t w = 0;
    for (int32_t k = 0, off = 0; k < n; off += R->out[k].log2, k++)
      w |= lytG_field(L, L->col[j], src[k]) << off;
    R->col[j] = w;
  }
  lytG_finish(cx, R, lytG_is_surjective(L), "transpose_outs");
  return R;
}

static void reshape_dims(lytS_ctx *cx, lytG_dim *dst, int32_t *ndst, int32_t n,
                         const lytG_dim *dims, int32_t total, const char *what) {
  if (n < 0 || n > LYT_LL_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "%s: at most %d dims, got %d", what, LYT_LL_MAXDIMS, (int)n);
  int32_t t = 0;
  for (int32_t i = 0; i < n; i++) {
    if (dims[i].log2 < 0 || dims[i].log2 > LYT_LL_MAXLOG2)
      lytS_fail(cx, LYT_ERRRUN, "%s: bad size 2^%d for '%s'", what, (int)dims[i].log2,
                dims[i].name);
    t += dims[i].log2;
    dst[i] = dims[i];
  }
  if (t != total)
    lytS_fail(cx, LYT_ERRRUN, "%s: the new dims have 2^%d elements in all, the layout 2^%d",
              what, (int)t, (int)total);
  *ndst = n;
}

lytG_ll *lytG_reshape_ins(lytS_ctx *cx, const lytG_ll *L, int32_t n, const lytG_dim *dims) {
  lytG_ll *R = like(cx, L);
  reshape_dims(cx, R->in, &R->nin, n, dims, L->inbits, "reshape_ins");
  lytG_finish(cx, R, lytG_is_surjective(L), "reshape_ins");
  return R;
}

lytG_ll *lytG_reshape_outs(lytS_ctx *cx, const lytG_ll *L, int32_t n, const lytG_dim *dims) {
  lytG_ll *R = like(cx, L);
  reshape_dims(cx, R->out, &R->nout, n, dims, L->outbits, "reshape_outs");
  lytG_finish(cx, R, lytG_is_surjective(L), "reshape_outs");
  return R;
}

lytG_ll *lytG_flatten_ins(lytS_ctx *cx, const lytG_ll *L) {
  if (L->nin == 0) return lytG_copy(cx, L);
  lytG_dim d = { L->in[0].name, L->inbits };
  return lytG_reshape_ins(cx, L, 1, &d);
}

lytG_ll *lytG_flatten_outs(lytS_ctx *cx, const lytG_ll *L) {
  if (L->nout == 0) return lytG_copy(cx, L);
  lytG_dim d = { L->out[0].name, L->outbits };
  return lytG_reshape_outs(cx, L, 1, &d);
}

/* ------------------------------------------------------------------ */
/* resizing, renaming, squeezing                                       */
/* ------------------------------------------------------------------ */

static int32_t pow2_log2(lytS_ctx *cx, int64_t size, const char *name, const char *what) {
  if (size <= 0 || (size & (size - 1)))
    lytS_fail(cx, LYT_ERRRUN, "%s: size %lld for '%s' is not a power of 2", what,
              (long long)size, name);
  return __builtin_ctzll((uint64_t)size);
}

static int32_t pow2_at_most(lytS_ctx *cx, int64_t size, int32_t old, const char *name,
                            const char *what) {
  int32_t lg = pow2_log2(cx, size, name, what);
  if (lg > old)
    lytS_fail(cx, LYT_ERRRUN, "%s: size %lld is larger than the size %lld of '%s' (only "
              "shrinking is allowed)", what, (long long)size, (long long)((int64_t)1 << old),
              name);
  return lg;
}

/* Drops the columns of in-dim i from position `from` of that dim on, keeping
** `keep` (a per-column flag) or the first `n` when keep is NULL. */
static void drop_cols(lytG_ll *R, const lytG_ll *L, int32_t i, const int *keep, int32_t n) {
  int32_t off = lytG_in_offset(L, i), w = off, kept = 0;
  for (int32_t t = 0; t < L->in[i].log2; t++)
    if (keep ? keep[t] : t < n) {
      R->col[w++] = L->col[off + t];
      kept++;
    }
  for (int32_t j = off + L->in[i].log2; j < L->inbits; j++) R->col[w++] = L->col[j];
  R->in[i].log2 = kept;
}

/* Shrinking drops the last bases; growing appends zero bases (Triton
** after 3.6; 3.6 itself only shrinks). */
lytG_ll *lytG_resize_in_dim(lytS_ctx *cx, const lytG_ll *L, const char *in, int64_t size) {
  int32_t i = lytG_in_index_x(cx, L, in);
  int32_t lg = pow2_log2(cx, size, in, "resize_in_dim"), grow = lg - L->in[i].log2;
  lytG_ll *R = like(cx, L);
  if (grow <= 0) drop_cols(R, L, i, NULL, lg);
  else {
    if (L->inbits + grow > LYT_LL_MAXBITS)
      lytS_fail(cx, LYT_ERRRUN, "resize_in_dim: '%s' of size %lld would take the layout to "
                "%d input bits (at most %d)", in, (long long)size, (int)(L->inbits + grow),
                LYT_LL_MAXBITS);
    int32_t end = lytG_in_offset(L, i) + L->in[i].log2;
    memmove(&R->col[end + grow], &L->col[end], sizeof R->col[0] * (size_t)(L->inbits - end));
    memset(&R->col[end], 0, sizeof R->col[0] * (size_t)grow);
    R->in[i].log2 = lg;
    R->inbits += grow;
  }
  lytG_finish(cx, R, 0, "resize_in_dim");
  return R;
}

/* Components >= the new size become 0 (not masked): what Triton does. */
lytG_ll *lytG_resize_out_dim(lytS_ctx *cx, const lytG_ll *L, const char *out, int64_t size) {
  int32_t k = lytG_out_index_x(cx, L, out);
  int32_t lg = pow2_at_most(cx, size, L->out[k].log2, out, "resize_out_dim");
  lytG_ll *R = like(cx, L);
  int32_t off = lytG_out_offset(L, k), old = L->out[k].log2;
  R->out[k].log2 = lg;
  for (int32_t j = 0; j < L->inbits; j++) {
    uint64_t w = L->col[j], v = lytG_field(L, w, k);
    uint64_t lowpart = w & lytG_mask(off);
    uint64_t highpart = old + off >= 64 ? 0 : w >> (off + old);
    if (v >> lg) v = 0;
    R->col[j] = lowpart | (v << off) | (off + lg >= 64 ? 0 : highpart << (off + lg));
  }
  lytG_finish(cx, R, 0, "resize_out_dim");
  return R;
}

/* The dim keeps its place: Triton's unit test (LayoutUtilsTest) expects
** renameInDim(a, c) of in-dims [a, b] to give [c, b] (its first version
** erased the entry and inserted it again, so the dim moved last). */
lytG_ll *lytG_rename_in_dim(lytS_ctx *cx, const lytG_ll *L, const char *from, const char *to) {
  int32_t i = lytG_in_index_x(cx, L, from);
  if (strcmp(from, to) != 0 && lytG_in_index(L, to) >= 0)
    lytS_fail(cx, LYT_ERRRUN, "rename_in_dim: the layout already has an in-dim '%s'", to);
  lytG_ll *R = like(cx, L);
  R->in[i].name = to;
  lytG_finish(cx, R, lytG_is_surjective(L), "rename_in_dim");
  return R;
}

lytG_ll *lytG_squeeze_ins(lytS_ctx *cx, const lytG_ll *L, const char *in) {
  int32_t i = lytG_in_index_x(cx, L, in);
  if (L->in[i].log2 != 0)
    lytS_fail(cx, LYT_ERRRUN, "squeeze_ins: in-dim '%s' has size %lld, not 1", in,
              (long long)lytG_in_size(L, i));
  lytG_ll *R = like(cx, L);
  memmove(&R->in[i], &R->in[i + 1], sizeof R->in[0] * (size_t)(L->nin - i - 1));
  R->nin--;
  lytG_finish(cx, R, lytG_is_surjective(L), "squeeze_ins");
  return R;
}

lytG_ll *lytG_squeeze_outs(lytS_ctx *cx, const lytG_ll *L, const char *out) {
  int32_t k = lytG_out_index_x(cx, L, out);
  if (L->out[k].log2 != 0)
    lytS_fail(cx, LYT_ERRRUN, "squeeze_outs: out-dim '%s' has size %lld, not 1", out,
              (long long)lytG_out_size(L, k));
  lytG_ll *R = like(cx, L);
  memmove(&R->out[k], &R->out[k + 1], sizeof R->out[0] * (size_t)(L->nout - k - 1));
  R->nout--;
  lytG_finish(cx, R, lytG_is_surjective(L), "squeeze_outs");
  return R;
}

/* removeZeroBasesAlongDim; a dim the layout lacks changes nothing. */
lytG_ll *lytG_remove_zero_bases(lytS_ctx *cx, const lytG_ll *L, const char *in) {
  int32_t i = lytG_in_index(L, in);
  lytG_ll *R = like(cx, L);
  if (i >= 0) {
    int keep[LYT_LL_MAXBITS];
    int32_t off = lytG_in_offset(L, i);
    for (int32_t t = 0; t < L->in[i].log2; t++) keep[t] = L->col[off + t] != 0;
    drop_cols(R, L, i, keep, 0);
  }
  lytG_finish(cx, R, lytG_is_surjective(L), "remove_zero_bases");
  return R;
}

/* ------------------------------------------------------------------ */
/* concatenation                                                       */
/* ------------------------------------------------------------------ */

static int same_dims(int32_t na, const lytG_dim *a, int32_t nb, const lytG_dim *b) {
  if (na != nb) return 0;
  for (int32_t i = 0; i < na; i++)
    if (strcmp(a[i].name, b[i].name) != 0 || a[i].log2 != b[i].log2) return 0;
  return 1;
}

lytG_ll *lytG_concat_ins(lytS_ctx *cx, const lytG_ll *a, const lytG_ll *b) {
  if (!same_dims(a->nout, a->out, b->nout, b->out))
    lytS_fail(cx, LYT_ERRRUN, "concat_ins: layouts must have the same out-dims and sizes: %s "
              "and %s", lytG_out_names(cx, a), lytG_out_names(cx, b));
  if (a->nin + b->nin > LYT_LL_MAXDIMS || a->inbits + b->inbits > LYT_LL_MAXBITS)
    lytS_fail(cx, LYT_ERRRUN, "concat_ins: result too large (%d in-dims, %d input bits)",
              (int)(a->nin + b->nin), (int)(a->inbits + b->inbits));
  lytG_ll *R = like(cx, a);
  memcpy(&R->in[a->nin], b->in, sizeof b->in[0] * (size_t)b->nin);
  memcpy(&R->col[a->inbits], b->col, sizeof b->col[0] * (size_t)b->inbits);
  R->nin = a->nin + b->nin;
  lytG_finish(cx, R, 0, "concat_ins");  /* a shared in-dim name fails here */
  return R;
}

lytG_ll *lytG_concat_outs(lytS_ctx *cx, const lytG_ll *a, const lytG_ll *b) {
  if (!same_dims(a->nin, a->in, b->nin, b->in))
    lytS_fail(cx, LYT_ERRRUN, "concat_outs: layouts must have the same in-dims and sizes: %s "
              "and %s", lytG_in_names(cx, a), lytG_in_names(cx, b));
  if (a->nout + b->nout > LYT_LL_MAXDIMS || a->outbits + b->outbits > LYT_LL_MAXBITS)
    lytS_fail(cx, LYT_ERRRUN, "concat_outs: result too large (%d out-dims, %d output bits)",
              (int)(a->nout + b->nout), (int)(a->outbits + b->outbits));
  lytG_ll *R = like(cx, a);
  memcpy(&R->out[a->nout], b->out, sizeof b->out[0] * (size_t)b->nout);
  R->nout = a->nout + b->nout;
  for (int32_t j = 0; j < a->inbits; j++)
    R->col[j] = a->col[j] | (a->outbits >= 64 ? 0 : b->col[j] << a->outbits);
  lytG_finish(cx, R, 0, "concat_outs");
  return R;
}

/* ------------------------------------------------------------------ */
/* names, supremum                                                     */
/* ------------------------------------------------------------------ */

static const char *const std_names[LYT_LL_MAXDIMS] = {
  "dim0", "dim1", "dim2", "dim3", "dim4", "dim5", "dim6", "dim7",
  "dim8", "dim9", "dim10", "dim11", "dim12", "dim13", "dim14", "dim15",
};

const char *lytG_std_dim_name(int32_t d) {
  return d >= 0 && d < LYT_LL_MAXDIMS ? std_names[d] : NULL;
}

static int32_t pos(int32_t n, const char *const *a, const char *name) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(a[i], name) == 0) return i;
  return -1;
}

/* One step of Triton's supremum: which list gives the next name (0: x,
** 1: y), or -1 when the two orders conflict. */
static int sup_pick(int32_t nx, const char *const *x, int32_t i, int32_t ny,
                    const char *const *y, int32_t j) {
  if (i < nx && j < ny && strcmp(x[i], y[j]) == 0) return pos(ny, y, x[i]) < j ? -1 : 2;
  int32_t cx_ = INT32_MAX, cy = INT32_MAX;
  int32_t px = i < nx ? pos(ny, y, x[i]) : -1, py = j < ny ? pos(nx, x, y[j]) : -1;
  if (px >= j) cx_ = px;
  if (py >= i && py >= 0) cy = py;
  if (i < nx && cx_ == INT32_MAX) return 0;
  if (j < ny && cy == INT32_MAX) return 1;
  if (cx_ <= cy) return px < j ? -1 : 0;
  return py < i ? -1 : 1;
}

int32_t lytG_sup_try(int32_t nx, const char *const *x, int32_t ny, const char *const *y,
                     const char **out) {
  int32_t n = 0, i = 0, j = 0;
  while (i < nx || j < ny) {
    while (i < nx && pos(n, out, x[i]) >= 0) i++;
    while (j < ny && pos(n, out, y[j]) >= 0) j++;
    if (i >= nx && j >= ny) break;
    int p = sup_pick(nx, x, i, ny, y, j);
    if (p < 0) return -1;
    if (p == 2) { out[n++] = x[i++]; j++; }
    else if (p == 0) out[n++] = x[i++];
    else out[n++] = y[j++];
  }
  return n;
}

int32_t lytG_supremum(lytS_ctx *cx, int32_t na, const char *const *a, int32_t nb,
                      const char *const *b, const char **out) {
  int32_t n = lytG_sup_try(na, a, nb, b, out);
  if (n < 0)
    lytS_fail(cx, LYT_ERRRUN, "supremum of %s and %s does not exist (they order common "
              "names differently)", lytG_names_str(cx, na, a), lytG_names_str(cx, nb, b));
  return n;
}

/* ------------------------------------------------------------------ */
/* LayoutUtils helpers                                                 */
/* ------------------------------------------------------------------ */

static const char *name_of(const char *const *names, int32_t d) {
  return names ? names[d] : std_names[d];
}

static void check_rank(lytS_ctx *cx, int32_t rank, const char *what) {
  if (rank < 0 || rank > LYT_LL_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "%s: rank %d is outside [0, %d]", what, (int)rank, LYT_LL_MAXDIMS);
}

lytG_ll *lytG_identity_standard_nd(lytS_ctx *cx, const char *in, int32_t rank,
                                   const int64_t *shape, const int32_t *order,
                                   const char *const *names) {
  check_rank(cx, rank, "identity_standard_nd");
  lytG_ll *R = lytG_empty(cx);
  for (int32_t i = 0; i < rank; i++) {
    int32_t d = order[i];
    if (d < 0 || d >= rank)
      lytS_fail(cx, LYT_ERRRUN, "identity_standard_nd: order entry %d is outside [0, %d)",
                (int)d, (int)rank);
    R = lytG_product(cx, R, lytG_identity_1d(cx, shape[d], in, name_of(names, d)));
  }
  return R;
}

/* shape[] entry for each out-dim of L (Triton looks shapes up by name). */
static void shape_of_outs(lytS_ctx *cx, const lytG_ll *L, int32_t rank, const int64_t *shape,
                          const char *const *names, int64_t *want, const char *what) {
  check_rank(cx, rank, what);
  if (rank != L->nout)
    lytS_fail(cx, LYT_ERRRUN, "%s: shape has rank %d, the layout %d out-dims", what,
              (int)rank, (int)L->nout);
  for (int32_t k = 0; k < L->nout; k++) {
    int32_t d = 0;
    while (d < rank && strcmp(name_of(names, d), L->out[k].name) != 0) d++;
    if (d == rank)
      lytS_fail(cx, LYT_ERRRUN, "%s: out-dim '%s' has no entry in the shape", what,
                L->out[k].name);
    if (shape[d] <= 0)
      lytS_fail(cx, LYT_ERRRUN, "%s: shape entry %lld for '%s' is not positive", what,
                (long long)shape[d], L->out[k].name);
    want[k] = shape[d];
  }
}

lytG_ll *lytG_ensure_not_smaller(lytS_ctx *cx, const lytG_ll *L, int32_t rank,
                                 const int64_t *shape, const char *const *names) {
  int64_t want[LYT_LL_MAXDIMS];
  shape_of_outs(cx, L, rank, shape, names, want, "ensure_not_smaller");
  if (L->nout == 0) return lytG_copy(cx, L);
  if (L->nin == 0 || (strcmp(L->in[0].name, "register") != 0 &&
                      strcmp(L->in[0].name, "offset") != 0))
    lytS_fail(cx, LYT_ERRRUN, "ensure_not_smaller: the first in-dim must be 'register' or "
              "'offset' (Triton repeats along it), got %s", lytG_in_names(cx, L));
  lytG_ll *R = lytG_copy(cx, L);
  for (int32_t k = 0; k < L->nout; k++) {
    int64_t have = lytG_out_size(L, k);
    if (have <= want[k] && want[k] % have != 0)
      lytS_fail(cx, LYT_ERRRUN, "ensure_not_smaller: size %lld of '%s' does not divide the "
                "shape %lld", (long long)have, L->out[k].name, (long long)want[k]);
    R = lytG_product(cx, R, lytG_identity_1d(cx, want[k] / have, L->in[0].name,
                                             L->out[k].name));
  }
  return R;
}

/* Candidate bases to zero for one out-dim: flat column and value. */
typedef struct cand { int32_t col; uint64_t v; } cand;

/* Triton sorts with llvm::sort (std::sort), largest value first. For up to
** 16 entries libstdc++ runs a plain insertion sort, which is stable: equal
** values keep in-dim order, then basis order. We use that order always. */
static void sort_desc(cand *c, int32_t n) {
  for (int32_t i = 1; i < n; i++) {
    cand x = c[i];
    int32_t j = i;
    for (; j > 0 && c[j - 1].v < x.v; j--) c[j] = c[j - 1];
    c[j] = x;
  }
}

/* Zeroes (or, for dropped registers, marks) bases of out-dim k of L,
** largest first, until the size fits. cols is the working copy. */
static void shrink_out(lytS_ctx *cx, const lytG_ll *L, int32_t k, int64_t want, uint64_t *cols,
                       int32_t reg, uint64_t *dropped) {
  int64_t have = lytG_out_size(L, k);
  if (have <= want) return;
  if (have % want != 0)
    lytS_fail(cx, LYT_ERRRUN, "ensure_not_larger: shape %lld does not divide size %lld of "
              "'%s'", (long long)want, (long long)have, L->out[k].name);
  cand c[LYT_LL_MAXBITS];
  int32_t n = 0;
  for (int32_t j = 0; j < L->inbits; j++) {
    uint64_t v = lytG_field(L, cols[j], k);
    if (!v) continue;
    if (v & (v - 1))
      lytS_fail(cx, LYT_ERRRUN, "ensure_not_larger: basis value %llu of '%s' is not a power "
                "of 2", (unsigned long long)v, L->out[k].name);
    c[n++] = (cand){ j, v };
  }
  sort_desc(c, n);
  int32_t roff = reg >= 0 ? lytG_in_offset(L, reg) : 0, rlen = reg >= 0 ? L->in[reg].log2 : 0;
  for (int32_t t = 0; t < n && have > want; t++, have >>= 1) {
    if (c[t].col >= roff && c[t].col < roff + rlen) *dropped |= (uint64_t)1 << c[t].col;
    else cols[c[t].col] &= ~(lytG_mask(L->out[k].log2) << lytG_out_offset(L, k));
  }
}

/* Rebuilds the layout with the new columns, dropped columns removed and
** out sizes inferred by NextPowerOf2 (Triton's names-only constructor). */
static lytG_ll *rebuild_inferred(lytS_ctx *cx, const lytG_ll *L, const uint64_t *cols,
                                 uint64_t dropped, int add_register) {
  lytG_ll *R = lytG_new(cx);
  R->nin = L->nin;
  R->nout = L->nout;
  memcpy(R->in, L->in, sizeof R->in);
  memcpy(R->out, L->out, sizeof R->out);
  for (int32_t k = 0; k < L->nout; k++) {
    uint64_t mx = 0;
    for (int32_t j = 0; j < L->inbits; j++)
      if (!((dropped >> j) & 1)) mx |= lytG_field(L, cols[j], k);
    R->out[k].log2 = mx ? 64 - __builtin_clzll(mx) : 0;
  }
  int32_t w = 0;
  for (int32_t i = 0, j = 0; i < L->nin; i++)
    for (int32_t t = 0, n = L->in[i].log2; t < n; t++, j++) {
      if ((dropped >> j) & 1) { R->in[i].log2--; continue; }
      uint64_t o = 0;
      for (int32_t k = 0, off = 0; k < L->nout; off += R->out[k].log2, k++)
        o |= lytG_field(L, cols[j], k) << off;
      R->col[w++] = o;
    }
  if (add_register) {  /* MapVector's operator[] appends an empty 'register' */
    if (R->nin == LYT_LL_MAXDIMS)
      lytS_fail(cx, LYT_ERRRUN, "ensure_not_larger: too many in-dims");
    R->in[R->nin++] = (lytG_dim){ "register", 0 };
  }
  lytG_finish(cx, R, 1, "ensure_not_larger");
  return R;
}

lytG_ll *lytG_ensure_not_larger(lytS_ctx *cx, const lytG_ll *L, int32_t rank,
                                const int64_t *shape, const char *const *names,
                                int broadcast_registers) {
  int64_t want[LYT_LL_MAXDIMS];
  shape_of_outs(cx, L, rank, shape, names, want, "ensure_not_larger");
  if (L->nout == 0) return lytG_copy(cx, L);
  int32_t reg = broadcast_registers ? -1 : lytG_in_index(L, "register");
  uint64_t cols[LYT_LL_MAXBITS], dropped = 0;
  memcpy(cols, L->col, sizeof cols);
  for (int32_t k = 0; k < L->nout; k++) shrink_out(cx, L, k, want[k], cols, reg, &dropped);
  return rebuild_inferred(cx, L, cols, dropped, !broadcast_registers && reg < 0);
}

lytG_ll *lytG_combine_cta_cga(lytS_ctx *cx, const lytG_ll *cta, const lytG_ll *cga,
                              int32_t rank, const int64_t *shape, const char *const *names) {
  check_rank(cx, rank, "combine_cta_cga");
  const char *outs[LYT_LL_MAXDIMS], *std[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < cta->nout; k++) outs[k] = cta->out[k].name;
  for (int32_t d = 0; d < rank; d++) std[d] = name_of(names, d);
  lytG_ll *g = lytG_ensure_not_larger(cx, cga, rank, shape, names, 1);
  g = lytG_transpose_outs(cx, g, cta->nout, outs);
  int64_t ctashape[LYT_LL_MAXDIMS];
  for (int32_t d = 0; d < rank; d++) {
    int64_t q = shape[d] / lytG_out_size(g, lytG_out_index_x(cx, g, std[d]));
    ctashape[d] = q > 1 ? q : 1;
  }
  lytG_ll *c = lytG_ensure_not_smaller(cx, cta, rank, ctashape, names);
  c = lytG_ensure_not_larger(cx, c, rank, ctashape, names, 1);
  return lytG_transpose_outs(cx, lytG_product(cx, c, g), rank, std);
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

/* One basis vector: "[a,b]" (sep ",") or "[a, b]" (sep ", "). */
static void print_basis(lytS_buf *b, const lytG_ll *L, uint64_t w, const char *sep) {
  lytS_buf_puts(b, "[");
  for (int32_t k = 0; k < L->nout; k++) {
    if (k) lytS_buf_puts(b, sep);
    lytS_buf_printf(b, "%llu", (unsigned long long)lytG_field(L, w, k));
  }
  lytS_buf_puts(b, "]");
}

/* in-dims as "name<eq>[[..],[..]]" joined by ", " */
static void print_ins(lytS_buf *b, const lytG_ll *L, const char *eq, const char *sep) {
  for (int32_t i = 0, j = 0; i < L->nin; i++) {
    if (i) lytS_buf_puts(b, ", ");
    lytS_buf_printf(b, "%s%s[", L->in[i].name, eq);
    for (int32_t t = 0; t < L->in[i].log2; t++, j++) {
      if (t) lytS_buf_puts(b, sep);
      print_basis(b, L, L->col[j], sep);
    }
    lytS_buf_puts(b, "]");
  }
}

void lytG_print(lytS_buf *b, const lytG_ll *L) {
  lytS_buf_puts(b, "{");
  print_ins(b, L, ": ", ",");
  lytS_buf_puts(b, "} -> {");
  for (int32_t k = 0; k < L->nout; k++)
    lytS_buf_printf(b, "%s%s: %lld", k ? ", " : "", L->out[k].name,
                    (long long)lytG_out_size(L, k));
  lytS_buf_puts(b, "}");
}

void lytG_print_attr_ins(lytS_buf *b, const lytG_ll *L) { print_ins(b, L, " = ", ", "); }

void lytG_print_attr(lytS_buf *b, const lytG_ll *L) {
  lytS_buf_puts(b, "#ttg.linear<{");
  lytG_print_attr_ins(b, L);
  lytS_buf_puts(b, "}>");
}

/* LinearLayout::toString(): a leading newline, one " - " entry per in-dim,
** then the out-dims with sizes. */
void lytG_print_triton(lytS_buf *b, const lytG_ll *L) {
  lytS_buf outs;
  lytS_buf_init(&outs, b->cx);
  lytS_buf_puts(&outs, "[");
  for (int32_t k = 0; k < L->nout; k++)
    lytS_buf_printf(&outs, "%s%s (size %lld)", k ? ", " : "", L->out[k].name,
                    (long long)lytG_out_size(L, k));
  lytS_buf_puts(&outs, "]");
  if (L->nin == 0) {
    if (L->nout == 0) lytS_buf_puts(b, "\n(empty layout)");
    else lytS_buf_printf(b, "\n(empty layout with out-dims %s)", outs.p);
    return;
  }
  lytS_buf_puts(b, "\n");
  for (int32_t i = 0, j = 0; i < L->nin; i++) {
    if (L->in[i].log2 == 0) {
      lytS_buf_printf(b, " - %s is a size 1 dimension\n", L->in[i].name);
      continue;
    }
    lytS_buf_puts(b, " - ");
    for (int32_t t = 0; t < L->in[i].log2; t++, j++) {
      if (t) lytS_buf_puts(b, "\n   ");
      lytS_buf_printf(b, "%s=%llu -> (", L->in[i].name, (unsigned long long)1 << t);
      for (int32_t k = 0; k < L->nout; k++)
        lytS_buf_printf(b, "%s%llu", k ? ", " : "",
                        (unsigned long long)lytG_field(L, L->col[j], k));
      lytS_buf_puts(b, ")");
    }
    lytS_buf_puts(b, "\n");
  }
  lytS_buf_printf(b, "where out dims are: %s", outs.p);
}

const char *lytG_str(lytS_ctx *cx, const lytG_ll *L) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytG_print(&b, L);
  return b.p;
}
