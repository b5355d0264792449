/*
** axe/map.c: the backward map of Axe layouts, the pre-image
** { x | p in L(x) } of a physical point p (reference §1.4).
**
** Two algorithms that must agree (the unit tests check it on random
** layouts): a fast decoder for layouts whose per-axis iters form a
** mixed-radix system, and an exhaustive search over the logical domain
** with a hard cap, so that a large layout gives an error, never a hang.
*/
#include <string.h>

#include "interp/axe/axe.h"

/* A layout with its iters' axis numbers resolved once (lytX_axes order). */
typedef struct prep {
  const lytX_layout *L;
  int32_t na;                   /* number of axes */
  int32_t dk[LYTX_MAXITERS];    /* axis of shard iter i */
  int32_t rk[LYTX_MAXITERS];    /* axis of replica iter t */
  int64_t nrep;                 /* replica combinations */
} prep;

static void prepare(lytS_ctx *cx, const lytX_layout *L, prep *P) {
  const char *ax[LYTX_MAXAXES];
  P->L = L;
  P->na = lytX_axes(L, ax);
  for (int32_t i = 0; i < L->nd; i++) P->dk[i] = lytX_axis_index(L, L->d[i].axis);
  for (int32_t t = 0; t < L->nr; t++) P->rk[t] = lytX_axis_index(L, L->r[t].axis);
  P->nrep = 1;
  for (int32_t t = 0; t < L->nr; t++) {
    P->nrep = lytS_mul(cx, P->nrep, L->r[t].extent);
    if (P->nrep > LYTX_POINTS_MAX)
      lytS_fail(cx, LYT_ERRLIMIT, "axe: more than %d replica combinations", LYTX_POINTS_MAX);
  }
}

/* q = p - O - (replica combination j), per axis. */
static void target(lytS_ctx *cx, const prep *P, const int64_t *p, int64_t j, int64_t *q) {
  const char *ax[LYTX_MAXAXES];
  lytX_axes(P->L, ax);
  for (int32_t k = 0; k < P->na; k++) q[k] = lytS_sub(cx, p[k], lytX_offset_of(P->L, ax[k]));
  for (int32_t t = P->L->nr - 1; t >= 0; t--) {
    int64_t digit = j % P->L->r[t].extent;
    j /= P->L->r[t].extent;
    q[P->rk[t]] = lytS_sub(cx, q[P->rk[t]], lytS_mul(cx, digit, P->L->r[t].stride));
  }
}

/* D(flat) without offset, per axis. */
static void shard_image(lytS_ctx *cx, const prep *P, int64_t flat, int64_t *out) {
  for (int32_t k = 0; k < P->na; k++) out[k] = 0;
  for (int32_t i = P->L->nd - 1; i >= 0; i--) {
    int64_t digit = flat % P->L->d[i].extent;
    flat /= P->L->d[i].extent;
    out[P->dk[i]] = lytS_add(cx, out[P->dk[i]], lytS_mul(cx, digit, P->L->d[i].stride));
  }
}

/* The coordinate set of a list of flat indices (sorted, deduplicated). */
static lytX_coords coords_of(lytS_ctx *cx, int32_t rank, const int64_t *shape, int64_t *flats,
                             int32_t n) {
  lytX_coords c;
  c.rank = rank;
  c.n = lytX_sort_rows(cx, flats, n, 1);
  c.v = lytS_alloc(cx, sizeof *c.v * (size_t)(c.n ? c.n : 1) * (size_t)(rank ? rank : 1));
  for (int32_t i = 0; i < c.n; i++) {
    int64_t f = flats[i];
    for (int32_t d = rank - 1; d >= 0; d--) {
      c.v[i * rank + d] = f % shape[d];
      f /= shape[d];
    }
  }
  return c;
}

/* ------------------------------------------------------------------ */
/* exhaustive search                                                   */
/* ------------------------------------------------------------------ */

lytX_coords lytX_preimage_search(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                                 const int64_t *shape, const int64_t *p, int64_t cap) {
  prep P;
  lytX_check_shape(cx, L, rank, shape);
  prepare(cx, L, &P);
  int64_t size = lytX_size(cx, L);
  if (size > cap / P.nrep)
    lytS_fail(cx, LYT_ERRLIMIT,
              "axe: exhaustive pre-image search over %lld indices x %lld replicas exceeds the "
              "cap of %lld cases", (long long)size, (long long)P.nrep, (long long)cap);
  int64_t *flats = lytS_alloc(cx, sizeof *flats * (size_t)size);
  int32_t n = 0;
  int64_t img[LYTX_MAXAXES];
  int32_t w = P.na ? P.na : 1;
  int64_t *q = lytS_alloc(cx, sizeof *q * (size_t)P.nrep * (size_t)w);
  for (int64_t j = 0; j < P.nrep; j++) target(cx, &P, p, j, q + j * w);
  for (int64_t f = 0; f < size; f++) {
    shard_image(cx, &P, f, img);
    for (int64_t j = 0; j < P.nrep; j++) {
      if (memcmp(q + j * w, img, sizeof *q * (size_t)P.na) == 0) {
        flats[n++] = f;
        break;
      }
    }
  }
  return coords_of(cx, rank, shape, flats, n);
}

/* ------------------------------------------------------------------ */
/* fast path                                                           */
/* ------------------------------------------------------------------ */

/* The decodable shard iters of axis k, sorted by ascending stride; n. */
static int32_t axis_digits(const prep *P, int32_t k, int32_t *idx) {
  int32_t n = 0;
  for (int32_t i = 0; i < P->L->nd; i++) {
    const lytX_iter *it = &P->L->d[i];
    if (P->dk[i] != k || it->extent == 1 || it->stride == 0) continue;
    int32_t j = n++;
    while (j > 0 && P->L->d[idx[j - 1]].stride > it->stride) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = i;
  }
  return n;
}

/* Mixed radix on axis k: positive strides, each a multiple of the span
** e*s of the previous one, so digit vectors are unique. */
static int radix_ok(const prep *P, int32_t k) {
  int32_t idx[LYTX_MAXITERS];
  int32_t n = axis_digits(P, k, idx);
  for (int32_t j = 0; j < n; j++) {
    const lytX_iter *it = &P->L->d[idx[j]];
    if (it->stride < 0) return 0;
    if (j == 0) continue;
    const lytX_iter *lo = &P->L->d[idx[j - 1]];
    /* lo->extent * lo->stride <= it->stride is not guaranteed: divide instead */
    if (it->stride / lo->stride < lo->extent) return 0;
    if (it->stride % (lo->extent * lo->stride) != 0) return 0;
  }
  return 1;
}

static int mixed_radix(const prep *P) {
  for (int32_t k = 0; k < P->na; k++)
    if (!radix_ok(P, k)) return 0;
  return 1;
}

int lytX_is_mixed_radix(const lytX_layout *L) {
  prep P;
  const char *ax[LYTX_MAXAXES];
  P.L = L;
  P.na = lytX_axes(L, ax);
  for (int32_t i = 0; i < L->nd; i++) P.dk[i] = lytX_axis_index(L, L->d[i].axis);
  return mixed_radix(&P);
}

/* Decodes q[k] greedily from the largest stride into dig[]; 0 if q[k] is
** not reachable. */
static int decode_axis(const prep *P, int32_t k, int64_t v, int64_t *dig) {
  int32_t idx[LYTX_MAXITERS];
  int32_t n = axis_digits(P, k, idx);
  if (v < 0) return 0;
  for (int32_t j = n - 1; j >= 0; j--) {
    const lytX_iter *it = &P->L->d[idx[j]];
    int64_t d = v / it->stride;
    if (d >= it->extent) return 0;
    dig[idx[j]] = d;
    v -= d * it->stride;
  }
  return v == 0;
}

/* Appends the flat index of every assignment of the free (stride-0)
** digits, the others fixed in dig[]. */
static int32_t emit_free(lytS_ctx *cx, const prep *P, int64_t *dig, int64_t *flats, int32_t n,
                         int64_t room) {
  const lytX_layout *L = P->L;
  int32_t fr[LYTX_MAXITERS], nf = 0;
  for (int32_t i = 0; i < L->nd; i++)
    if (L->d[i].stride == 0) fr[nf++] = i, dig[i] = 0;
  for (;;) {
    if (n >= room)
      lytS_fail(cx, LYT_ERRLIMIT, "axe: pre-image has more than %lld candidates",
                (long long)room);
    int64_t f = 0;
    for (int32_t i = 0; i < L->nd; i++) f = f * L->d[i].extent + dig[i];
    flats[n++] = f;
    int32_t t = nf - 1;  /* odometer over the free digits */
    while (t >= 0 && ++dig[fr[t]] == L->d[fr[t]].extent) dig[fr[t--]] = 0;
    if (t < 0) return n;
  }
}

lytX_coords lytX_preimage_fast(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                               const int64_t *shape, const int64_t *p) {
  prep P;
  lytX_check_shape(cx, L, rank, shape);
  prepare(cx, L, &P);
  if (!mixed_radix(&P))
    lytS_fail(cx, LYT_ERRRUN, "axe: the fast pre-image needs a mixed-radix layout");
  int64_t size = lytX_size(cx, L);
  int64_t room = size < LYTX_SEARCH_MAX ? size * P.nrep : LYTX_SEARCH_MAX;
  if (room > LYTX_SEARCH_MAX) room = LYTX_SEARCH_MAX;
  int64_t *flats = lytS_alloc(cx, sizeof *flats * (size_t)room);
  int32_t n = 0;
  int64_t q[LYTX_MAXAXES], dig[LYTX_MAXITERS];
  for (int64_t j = 0; j < P.nrep; j++) {
    target(cx, &P, p, j, q);
    int ok = 1;
    memset(dig, 0, sizeof dig);
    for (int32_t k = 0; k < P.na && ok; k++) ok = decode_axis(&P, k, q[k], dig);
    if (ok) n = emit_free(cx, &P, dig, flats, n, room);
  }
  return coords_of(cx, rank, shape, flats, n);
}

lytX_coords lytX_preimage(lytS_ctx *cx, const lytX_layout *L, int32_t rank,
                          const int64_t *shape, const int64_t *p) {
  if (lytX_is_mixed_radix(L)) return lytX_preimage_fast(cx, L, rank, shape, p);
  return lytX_preimage_search(cx, L, rank, shape, p, LYTX_SEARCH_MAX);
}
