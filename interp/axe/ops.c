/*
** axe/ops.c: the Axe layout algebra (canonicalize, group, tile, direct
** sum, slice; TVM tirx semantics as reference §1.5-1.6 describes them)
** and the conversions to and from CuTe stride layouts and GF(2) linear
** layouts (reference §1.7).
*/
#include <string.h>

#include "interp/axe/axe.h"

/* a*b == c without overflowing (b > 0) */
static int mul_is(int64_t a, int64_t b, int64_t c) { return c % b == 0 && c / b == a; }

static int same_axis(const lytX_iter *a, const lytX_iter *b) {
  return strcmp(a->axis, b->axis) == 0;
}

static void copy_offsets(lytS_ctx *cx, lytX_layout *to, const lytX_layout *from) {
  for (int32_t i = 0; i < from->no; i++) lytX_offset(cx, to, from->off[i], from->oaxis[i]);
}

static void copy_replicas(lytS_ctx *cx, lytX_layout *to, const lytX_layout *from) {
  for (int32_t t = 0; t < from->nr; t++)
    lytX_replica(cx, to, from->r[t].extent, from->r[t].stride, from->r[t].axis);
}

/* ------------------------------------------------------------------ */
/* canonicalize                                                        */
/* ------------------------------------------------------------------ */

/* Rule 3: `it` is the next (faster) iter; fuse it into the last one when
** together they count one digit: outer.stride == inner.stride*inner.extent. */
static void push_fused(lytS_ctx *cx, lytX_layout *c, const lytX_iter *it) {
  lytX_iter *top = c->nd ? &c->d[c->nd - 1] : NULL;
  if (top && same_axis(top, it) && mul_is(it->stride, it->extent, top->stride)) {
    top->extent = lytS_mul(cx, top->extent, it->extent);
    top->stride = it->stride;
    return;
  }
  lytX_shard(cx, c, it->extent, it->stride, it->axis);
}

static int rep_less(const lytX_iter *a, const lytX_iter *b) {
  int c = strcmp(a->axis, b->axis);
  if (c) return c < 0;
  if (a->stride != b->stride) return a->stride < b->stride;
  return a->extent < b->extent;
}

static void sort_replicas(lytX_layout *c) {
  for (int32_t i = 1; i < c->nr; i++) {
    lytX_iter x = c->r[i];
    int32_t j = i;
    for (; j > 0 && rep_less(&x, &c->r[j - 1]); j--) c->r[j] = c->r[j - 1];
    c->r[j] = x;
  }
}

/* Beyond TVM (which only sorts): replicas are a set, so two on one axis
** that count one digit (b.stride == a.stride*a.extent) fuse whatever
** their positions; after the sort by stride one pass finds them all. */
static void fuse_replicas(lytS_ctx *cx, lytX_layout *c) {
  int32_t n = 0;
  for (int32_t t = 0; t < c->nr; t++) {
    lytX_iter *top = n ? &c->r[n - 1] : NULL;
    const lytX_iter *it = &c->r[t];
    if (top && same_axis(top, it) && top->stride > 0 && mul_is(top->stride, top->extent, it->stride)) {
      top->extent = lytS_mul(cx, top->extent, it->extent);
      continue;
    }
    c->r[n++] = *it;
  }
  c->nr = n;
}

lytX_layout *lytX_canonicalize(lytS_ctx *cx, const lytX_layout *L) {
  lytX_layout *c = lytX_new(cx);
  for (int32_t i = 0; i < L->nd; i++)
    if (L->d[i].extent != 1) push_fused(cx, c, &L->d[i]);
  if (c->nd == 0 && L->nd > 0) lytX_shard(cx, c, 1, 1, L->d[0].axis);  /* rule 0's keeper */
  for (int32_t t = 0; t < L->nr; t++)
    if (L->r[t].extent != 1) lytX_replica(cx, c, L->r[t].extent, L->r[t].stride, L->r[t].axis);
  sort_replicas(c);
  fuse_replicas(cx, c);
  for (int32_t i = 0; i < L->no; i++)
    if (L->off[i] != 0) lytX_offset(cx, c, L->off[i], L->oaxis[i]);
  return c;
}

/* ------------------------------------------------------------------ */
/* group                                                               */
/* ------------------------------------------------------------------ */

lytX_layout *lytX_group(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                        int32_t *seps) {
  lytX_check_shape(cx, L, rank, shape);
  lytX_layout *g = lytX_new(cx);
  copy_replicas(cx, g, L);
  copy_offsets(cx, g, L);
  int32_t i = 0, have = 0;  /* next unread iter; whether cur holds a remainder */
  lytX_iter cur = {1, 0, LYTX_MEM};
  for (int32_t d = 0; d < rank; d++) {
    seps[d] = g->nd;
    int64_t rem = shape[d];
    /* the sizes match, so iters remain while rem > 1 */
    while (rem > 1) {
      if (!have) cur = L->d[i++], have = 1;
      int64_t e = cur.extent;
      if (rem % e == 0) {
        lytX_shard(cx, g, e, cur.stride, cur.axis);
        rem /= e;
        have = 0;
      } else if (e % rem == 0) {
        /* dim d ends inside this iter: its high digit (extent rem, stride
        ** s*e/rem) goes to d, the low digit e/rem:s stays for d+1 */
        lytX_shard(cx, g, rem, lytS_mul(cx, cur.stride, e / rem), cur.axis);
        cur.extent = e / rem;
        rem = 1;
      } else {
        lytS_fail(cx, LYT_ERRRUN,
                  "group: logical dim %d (extent %lld) does not end on a factor of iter "
                  "%lld:%lld@%s", d, (long long)shape[d], (long long)e, (long long)cur.stride,
                  cur.axis);
      }
    }
  }
  /* what is left has extent product 1: unit iters join the last dim */
  if (have) lytX_shard(cx, g, cur.extent, cur.stride, cur.axis);
  for (; i < L->nd; i++) lytX_shard(cx, g, L->d[i].extent, L->d[i].stride, L->d[i].axis);
  seps[rank] = g->nd;
  return g;
}

/* ------------------------------------------------------------------ */
/* tile and direct sum                                                 */
/* ------------------------------------------------------------------ */

static int in_shard(const lytX_layout *L, const char *axis) {
  for (int32_t i = 0; i < L->nd; i++)
    if (strcmp(L->d[i].axis, axis) == 0) return 1;
  return 0;
}

/* Dim by dim: A's group (strides scaled by B's span when `scale`), then
** B's group; replicas and offsets of both. */
static lytX_layout *interleave(lytS_ctx *cx, const lytX_layout *a, const lytX_layout *b,
                               int32_t rank, const int64_t *ashape, const int64_t *bshape,
                               int scale) {
  int32_t sa[LYTX_MAXDIMS + 1], sb[LYTX_MAXDIMS + 1];
  lytX_layout *A = lytX_group(cx, lytX_canonicalize(cx, a), rank, ashape, sa);
  lytX_layout *B = lytX_group(cx, lytX_canonicalize(cx, b), rank, bshape, sb);
  lytX_layout *r = lytX_new(cx);
  for (int32_t d = 0; d < rank; d++) {
    for (int32_t i = sa[d]; i < sa[d + 1]; i++) {
      const lytX_iter *it = &A->d[i];
      int64_t s = it->stride;
      if (scale && in_shard(B, it->axis)) s = lytS_mul(cx, s, lytX_span(cx, B, it->axis));
      lytX_shard(cx, r, it->extent, s, it->axis);
    }
    for (int32_t i = sb[d]; i < sb[d + 1]; i++)
      lytX_shard(cx, r, B->d[i].extent, B->d[i].stride, B->d[i].axis);
  }
  copy_replicas(cx, r, B);
  copy_replicas(cx, r, A);
  copy_offsets(cx, r, A);
  copy_offsets(cx, r, B);
  return lytX_canonicalize(cx, r);
}

lytX_layout *lytX_tile(lytS_ctx *cx, const lytX_layout *outer, const lytX_layout *inner,
                       int32_t rank, const int64_t *outer_shape, const int64_t *inner_shape) {
  return interleave(cx, outer, inner, rank, outer_shape, inner_shape, 1);
}

lytX_layout *lytX_direct_sum(lytS_ctx *cx, const lytX_layout *a, const lytX_layout *b,
                             int32_t rank, const int64_t *a_shape, const int64_t *b_shape) {
  return interleave(cx, a, b, rank, a_shape, b_shape, 0);
}

/* ------------------------------------------------------------------ */
/* slice                                                               */
/* ------------------------------------------------------------------ */

/* Appends to r the iters and offsets of dim d restricted to [b, b+n);
** G's iters [lo, hi) are the dim's digits, most significant first. */
static void slice_dim(lytS_ctx *cx, const lytX_layout *G, int32_t lo, int32_t hi, int32_t d,
                      int64_t b, int64_t n, lytX_layout *r) {
  int64_t q = 1;  /* extent product of the digits t..hi-1 */
  int32_t t = hi;
  /* the largest suffix of whole digits: both ends of the range on it */
  while (t > lo && b % (q * G->d[t - 1].extent) == 0 && n % (q * G->d[t - 1].extent) == 0)
    q *= G->d[--t].extent;
  if (t > lo) {
    const lytX_iter *it = &G->d[t - 1];
    int64_t m = n / q, h = b / q, rem = h % it->extent;
    if (m > it->extent - rem)
      lytS_fail(cx, LYT_ERRRUN,
                "slice: range [%lld, %lld) of dim %d is not one layout: it carries across "
                "iter %lld:%lld@%s", (long long)b, (long long)(b + n), d, (long long)it->extent,
                (long long)it->stride, it->axis);
    h /= it->extent;
    for (int32_t j = t - 2; j >= lo; j--) {  /* the fixed high digits become offsets */
      lytX_offset(cx, r, lytS_mul(cx, h % G->d[j].extent, G->d[j].stride), G->d[j].axis);
      h /= G->d[j].extent;
    }
    lytX_offset(cx, r, lytS_mul(cx, rem, it->stride), it->axis);
    lytX_shard(cx, r, m, it->stride, it->axis);
  }
  for (int32_t j = t; j < hi; j++) lytX_shard(cx, r, G->d[j].extent, G->d[j].stride, G->d[j].axis);
}

static void check_region(lytS_ctx *cx, int32_t rank, const int64_t *shape, const int64_t *begin,
                         const int64_t *extent) {
  for (int32_t d = 0; d < rank; d++)
    if (begin[d] < 0 || extent[d] < 1 || begin[d] > shape[d] - extent[d])
      lytS_fail(cx, LYT_ERRRUN, "slice: region [%lld, %lld+%lld) of dim %d leaves [0, %lld)",
                (long long)begin[d], (long long)begin[d], (long long)extent[d], d,
                (long long)shape[d]);
}

lytX_layout *lytX_slice(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                        const int64_t *begin, const int64_t *extent) {
  int32_t seps[LYTX_MAXDIMS + 1];
  lytX_check_shape(cx, L, rank, shape);
  check_region(cx, rank, shape, begin, extent);
  lytX_layout *G = lytX_group(cx, lytX_canonicalize(cx, L), rank, shape, seps);
  lytX_layout *r = lytX_new(cx);
  for (int32_t d = 0; d < rank; d++)
    slice_dim(cx, G, seps[d], seps[d + 1], d, begin[d], extent[d], r);
  copy_replicas(cx, r, G);
  copy_offsets(cx, r, G);
  return lytX_canonicalize(cx, r);
}

/* ------------------------------------------------------------------ */
/* CuTe                                                                */
/* ------------------------------------------------------------------ */

lytX_layout *lytX_from_cute(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  lytX_layout *L = lytX_new(cx);
  /* CuTe's first mode is the fastest digit, Axe's last iter is */
  for (int32_t i = f.n - 1; i >= 0; i--)
    lytX_shard(cx, L, f.s[i], lytS_dint(cx, f.d[i], "axe from CuTe"), LYTX_MEM);
  return L;
}

lytS_layout lytX_to_cute(lytS_ctx *cx, const lytX_layout *L) {
  if (L->nr)
    lytS_fail(cx, LYT_ERRRUN, "axe to CuTe: a replica (%lld:%lld@%s) is not a function",
              (long long)L->r[0].extent, (long long)L->r[0].stride, L->r[0].axis);
  for (int32_t i = 0; i < L->no; i++)
    if (L->off[i] != 0)
      lytS_fail(cx, LYT_ERRRUN, "axe to CuTe: offset %lld on %s has no CuTe form",
                (long long)L->off[i], L->oaxis[i]);
  lytS_flat f = lytS_flat_new(cx, L->nd);
  for (int32_t i = 0; i < L->nd; i++) {
    const lytX_iter *it = &L->d[L->nd - 1 - i];
    if (strcmp(it->axis, LYTX_MEM) != 0)
      lytS_fail(cx, LYT_ERRRUN, "axe to CuTe: iter %lld:%lld@%s is not on the memory axis",
                (long long)it->extent, (long long)it->stride, it->axis);
    f.s[i] = it->extent;
    f.d[i] = lytS_int(cx, it->stride);
  }
  f.n = L->nd;
  return lytS_flat_layout(cx, &f);
}

/* ------------------------------------------------------------------ */
/* GF(2) linear layouts                                                */
/* ------------------------------------------------------------------ */

static int32_t log2_exact(int64_t v) {
  int32_t k = 0;
  if (v <= 0 || (v & (v - 1))) return -1;
  while ((int64_t)1 << k != v) k++;
  return k;
}

/* The input bits of one iter list, least significant first (last iter
** first): axis number and bit position of each image, -1 for zero. */
typedef struct bits {
  int32_t n;
  int32_t axis[64];
  int32_t pos[64];
} bits;

static void iter_bits(lytS_ctx *cx, const lytX_layout *L, const lytX_iter *it, int32_t n,
                      bits *B, uint64_t *used) {
  for (int32_t i = n - 1; i >= 0; i--) {
    int32_t lb = log2_exact(it[i].extent), ls = log2_exact(it[i].stride);
    if (lb < 0) lytS_fail(cx, LYT_ERRRUN, "axe to linear: extent %lld is not a power of 2",
                          (long long)it[i].extent);
    if (it[i].stride != 0 && ls < 0)
      lytS_fail(cx, LYT_ERRRUN, "axe to linear: stride %lld@%s is not 0 or a power of 2",
                (long long)it[i].stride, it[i].axis);
    int32_t k = lytX_axis_index(L, it[i].axis);
    for (int32_t j = 0; j < lb; j++) {
      if (B->n >= 64) lytS_fail(cx, LYT_ERRLIMIT, "axe to linear: more than 64 input bits");
      int32_t p = it[i].stride ? ls + j : -1;
      if (p >= LYT_LL_MAXLOG2) lytS_fail(cx, LYT_ERRLIMIT, "axe to linear: stride too large");
      if (p >= 0 && (used[k] >> p & 1))
        lytS_fail(cx, LYT_ERRRUN, "axe to linear: two iters add into bit %d of axis %s; "
                  "addition would carry where GF(2) XORs", p, it[i].axis);
      if (p >= 0) used[k] |= (uint64_t)1 << p;
      B->axis[B->n] = k;
      B->pos[B->n++] = p;
    }
  }
}

static void check_linear(lytS_ctx *cx, const lytX_layout *L, const char *in, const char *rep) {
  if (!in) lytS_fail(cx, LYT_ERRRUN, "axe to linear: the logical in-dim needs a name");
  for (int32_t i = 0; i < L->no; i++)
    if (L->off[i] != 0)
      lytS_fail(cx, LYT_ERRRUN, "axe to linear: offset %lld on %s is affine, not linear",
                (long long)L->off[i], L->oaxis[i]);
  if (L->nr && !rep)
    lytS_fail(cx, LYT_ERRRUN, "axe to linear: replicas make the layout set-valued; name a "
              "replica in-dim to model them");
}

lytG_ll *lytX_to_linear(lytS_ctx *cx, const lytX_layout *L, const char *in, const char *rep) {
  check_linear(cx, L, in, rep);
  const char *ax[LYTX_MAXAXES];
  int32_t na = lytX_axes(L, ax);
  uint64_t used[LYTX_MAXAXES] = {0};
  bits D = {0}, R = {0};
  iter_bits(cx, L, L->d, L->nd, &D, used);
  iter_bits(cx, L, L->r, L->nr, &R, used);
  lytG_dim ins[2] = {{in, D.n}, {rep, R.n}}, outs[LYTX_MAXAXES];
  int32_t off[LYTX_MAXAXES], total = 0;
  for (int32_t k = 0; k < na; k++) {
    int32_t w = 0;
    while (w < 64 && (used[k] >> w)) w++;
    outs[k] = (lytG_dim){ax[k], w};
    off[k] = total;
    total += w;
  }
  if (total > 64) lytS_fail(cx, LYT_ERRLIMIT, "axe to linear: more than 64 output bits");
  uint64_t col[LYT_LL_MAXBITS] = {0};
  for (int32_t j = 0; j < D.n; j++)
    if (D.pos[j] >= 0) col[j] = (uint64_t)1 << (off[D.axis[j]] + D.pos[j]);
  for (int32_t j = 0; j < R.n; j++)
    col[D.n + j] = (uint64_t)1 << (off[R.axis[j]] + R.pos[j]);
  return lytG_make(cx, L->nr ? 2 : 1, ins, na, outs, col, 0);
}

/* Out-dim and bit of a single-bit flat output word. */
static void out_bit(const lytG_ll *G, uint64_t w, int32_t *k, int32_t *p) {
  int32_t q = 0;
  while (!(w >> q & 1)) q++;
  for (*k = 0; *k + 1 < G->nout && lytG_out_offset(G, *k + 1) <= q; ++*k) {}
  *p = q - lytG_out_offset(G, *k);
}

/* The iters of in-dim i, most significant bit first, into L. */
static void ll_iters(lytS_ctx *cx, const lytG_ll *G, int32_t i, int replica, uint64_t *used,
                     lytX_layout *L) {
  int32_t o = lytG_in_offset(G, i);
  for (int32_t j = G->in[i].log2 - 1; j >= 0; j--) {
    uint64_t w = G->col[o + j];
    if (w & (w - 1))
      lytS_fail(cx, LYT_ERRRUN, "axe from linear: basis %d of %s mixes several output bits "
                "(an XOR), not an Axe iter", j, G->in[i].name);
    if (w & *used)
      lytS_fail(cx, LYT_ERRRUN, "axe from linear: basis %d of %s repeats an output bit; "
                "Axe would add where GF(2) XORs", j, G->in[i].name);
    *used |= w;
    if (w == 0 && (replica || G->nout == 0))
      lytS_fail(cx, LYT_ERRRUN, "axe from linear: basis %d of %s is zero; %s", j,
                G->in[i].name, replica ? "a replica needs a nonzero stride" : "no out-dim");
    int32_t k = 0, p = 0;
    if (w) out_bit(G, w, &k, &p);
    int64_t s = w ? (int64_t)1 << p : 0;
    if (replica) lytX_replica(cx, L, 2, s, G->out[k].name);
    else lytX_shard(cx, L, 2, s, G->out[k].name);
  }
}

lytX_layout *lytX_from_linear(lytS_ctx *cx, const lytG_ll *G, const char *in,
                              const char *rep) {
  int32_t ii = lytG_in_index_x(cx, G, in);
  int32_t ri = rep ? lytG_in_index_x(cx, G, rep) : -1;
  for (int32_t i = 0; i < G->nin; i++)
    if (i != ii && i != ri)
      lytS_fail(cx, LYT_ERRRUN, "axe from linear: in-dim %s is neither the logical index "
                "nor the replica dim", G->in[i].name);
  lytX_layout *L = lytX_new(cx);
  uint64_t used = 0;
  ll_iters(cx, G, ii, 0, &used, L);
  if (ri >= 0) ll_iters(cx, G, ri, 1, &used, L);
  return lytX_canonicalize(cx, L);
}

/* The in bit j (flat) as (in-dim, bit within it). */
static void in_bit(const lytG_ll *G, int32_t j, int32_t *i, int32_t *b) {
  *i = 0;
  while (j >= G->in[*i].log2) j -= G->in[(*i)++].log2;
  *b = j;
}

/* The unique in bit whose image is the flat out bit `bit`, or a failure. */
static int32_t source_of(lytS_ctx *cx, const lytG_ll *G, int32_t bit, int32_t k, int32_t p) {
  int32_t found = -1;
  for (int32_t j = 0; j < G->inbits; j++) {
    if (G->col[j] != (UINT64_C(1) << bit)) continue;
    if (found >= 0) {
      int32_t i0, b0, i1, b1;
      in_bit(G, found, &i0, &b0);
      in_bit(G, j, &i1, &b1);
      lytS_fail(cx, LYT_ERRRUN, "not an Axe layout: %s bit %d and %s bit %d both give bit %d "
                "of %s (they would XOR, Axe adds)", G->in[i0].name, b0, G->in[i1].name, b1, p,
                G->out[k].name);
    }
    found = j;
  }
  if (found < 0)
    lytS_fail(cx, LYT_ERRRUN, "not an Axe layout: no input bit gives bit %d of %s (not "
              "surjective)", p, G->out[k].name);
  return found;
}

lytX_layout *lytX_from_distributed(lytS_ctx *cx, const lytG_ll *G) {
  for (int32_t j = 0; j < G->inbits; j++)
    if (G->col[j] & (G->col[j] - 1)) {
      int32_t i, b;
      in_bit(G, j, &i, &b);
      lytS_fail(cx, LYT_ERRRUN, "not an Axe layout: %s bit %d gives several output bits "
                "(a swizzle is not a sum of iters)", G->in[i].name, b);
    }
  lytX_layout *L = lytX_new(cx);
  for (int32_t k = 0; k < G->nout; k++)
    for (int32_t p = G->out[k].log2 - 1; p >= 0; p--) {
      int32_t i, b;
      in_bit(G, source_of(cx, G, lytG_out_offset(G, k) + p, k, p), &i, &b);
      lytX_shard(cx, L, 2, (int64_t)1 << b, G->in[i].name);
    }
  for (int32_t j = 0; j < G->inbits; j++)
    if (G->col[j] == 0) {
      int32_t i, b;
      in_bit(G, j, &i, &b);
      lytX_replica(cx, L, 2, (int64_t)1 << b, G->in[i].name);
    }
  return lytX_canonicalize(cx, L);
}
