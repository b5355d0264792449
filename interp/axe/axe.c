/*
** axe/axe.c: Axe layouts, construction, queries and the forward map
** (lytX_). The forward map follows reference §1.3 literally: flatten the
** logical coordinate row-major over the shape, split the flat index
** row-major over the shard extents (first iter most significant), sum
** digit*stride per axis, add the offset, then add every replica
** combination. All arithmetic is checked, so an overflowing stride is an
** error, never a wrapped address.
*/
#include <stdlib.h>
#include <string.h>

#include "interp/axe/axe.h"

/* ------------------------------------------------------------------ */
/* construction                                                        */
/* ------------------------------------------------------------------ */

lytX_layout *lytX_new(lytS_ctx *cx) {
  lytX_layout *L = lytS_alloc(cx, sizeof *L);
  memset(L, 0, sizeof *L);
  return L;
}

lytX_layout *lytX_copy(lytS_ctx *cx, const lytX_layout *L) {
  lytX_layout *c = lytS_alloc(cx, sizeof *c);
  *c = *L;
  return c;
}

static void check_axis(lytS_ctx *cx, const char *axis, const char *what) {
  if (!axis || !axis[0]) lytS_fail(cx, LYT_ERRRUN, "%s: an iter needs an axis name", what);
}

/* Would adding `axis` push L past LYTX_MAXAXES distinct axes? */
static void check_axis_room(lytS_ctx *cx, const lytX_layout *L, const char *axis) {
  const char *ax[3 * LYTX_MAXITERS + LYTX_MAXAXES];
  if (lytX_axis_index(L, axis) >= 0) return;
  if (lytX_axes(L, ax) >= LYTX_MAXAXES)
    lytS_fail(cx, LYT_ERRLIMIT, "axe: more than %d distinct axes", LYTX_MAXAXES);
}

void lytX_shard(lytS_ctx *cx, lytX_layout *L, int64_t extent, int64_t stride, const char *axis) {
  check_axis(cx, axis, "shard");
  if (extent <= 0)
    lytS_fail(cx, LYT_ERRRUN, "shard: extent %lld of %lld:%lld@%s is not positive",
              (long long)extent, (long long)extent, (long long)stride, axis);
  if (L->nd >= LYTX_MAXITERS)
    lytS_fail(cx, LYT_ERRLIMIT, "shard: more than %d iters", LYTX_MAXITERS);
  check_axis_room(cx, L, axis);
  L->d[L->nd++] = (lytX_iter){extent, stride, axis};
}

void lytX_replica(lytS_ctx *cx, lytX_layout *L, int64_t extent, int64_t stride,
                  const char *axis) {
  check_axis(cx, axis, "replica");
  if (extent <= 0)
    lytS_fail(cx, LYT_ERRRUN, "replica: extent %lld is not positive", (long long)extent);
  /* a zero replica stride would repeat the same point: no replication */
  if (stride == 0)
    lytS_fail(cx, LYT_ERRRUN, "replica: stride 0 on %lld:0@%s adds no copy",
              (long long)extent, axis);
  if (L->nr >= LYTX_MAXITERS)
    lytS_fail(cx, LYT_ERRLIMIT, "replica: more than %d iters", LYTX_MAXITERS);
  check_axis_room(cx, L, axis);
  L->r[L->nr++] = (lytX_iter){extent, stride, axis};
}

void lytX_offset(lytS_ctx *cx, lytX_layout *L, int64_t v, const char *axis) {
  check_axis(cx, axis, "offset");
  for (int32_t i = 0; i < L->no; i++)
    if (strcmp(L->oaxis[i], axis) == 0) {
      L->off[i] = lytS_add(cx, L->off[i], v);
      return;
    }
  check_axis_room(cx, L, axis);
  L->oaxis[L->no] = axis;
  L->off[L->no++] = v;
}

void lytX_check(lytS_ctx *cx, const lytX_layout *L) {
  lytX_layout *t = lytX_new(cx);
  if (L->nd < 0 || L->nd > LYTX_MAXITERS || L->nr < 0 || L->nr > LYTX_MAXITERS ||
      L->no < 0 || L->no > LYTX_MAXAXES)
    lytS_fail(cx, LYT_ERRLIMIT, "axe: iter or offset count out of range");
  for (int32_t i = 0; i < L->nd; i++) lytX_shard(cx, t, L->d[i].extent, L->d[i].stride, L->d[i].axis);
  for (int32_t i = 0; i < L->nr; i++)
    lytX_replica(cx, t, L->r[i].extent, L->r[i].stride, L->r[i].axis);
  for (int32_t i = 0; i < L->no; i++) {
    for (int32_t j = 0; j < i; j++)
      if (L->oaxis[j] && L->oaxis[i] && strcmp(L->oaxis[i], L->oaxis[j]) == 0)
        lytS_fail(cx, LYT_ERRRUN, "axe: offset axis %s listed twice", L->oaxis[i]);
    lytX_offset(cx, t, L->off[i], L->oaxis[i]);
  }
  (void)lytX_size(cx, L);
}

/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */

int64_t lytX_size(lytS_ctx *cx, const lytX_layout *L) {
  int64_t n = 1;
  for (int32_t i = 0; i < L->nd; i++) n = lytS_mul(cx, n, L->d[i].extent);
  return n;
}

static int64_t span_part(lytS_ctx *cx, const lytX_iter *it, int32_t n, const char *axis) {
  int64_t s = 0;
  for (int32_t i = 0; i < n; i++) {
    if (strcmp(it[i].axis, axis) != 0) continue;
    int64_t st = it[i].stride < 0 ? lytS_sub(cx, 0, it[i].stride) : it[i].stride;
    s = lytS_add(cx, s, lytS_mul(cx, it[i].extent - 1, st));
  }
  return s;
}

int64_t lytX_span(lytS_ctx *cx, const lytX_layout *L, const char *axis) {
  int64_t s = lytS_add(cx, 1, span_part(cx, L->d, L->nd, axis));
  s = lytS_add(cx, s, span_part(cx, L->r, L->nr, axis));
  return lytS_add(cx, s, lytX_offset_of(L, axis));
}

int64_t lytX_offset_of(const lytX_layout *L, const char *axis) {
  for (int32_t i = 0; i < L->no; i++)
    if (strcmp(L->oaxis[i], axis) == 0) return L->off[i];
  return 0;
}

static int32_t add_name(const char **axes, int32_t n, const char *a) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(axes[i], a) == 0) return n;
  axes[n] = a;
  return n + 1;
}

/* axes needs room for every distinct name: LYTX_MAXAXES once checked,
** callers inside this file pass larger buffers before the check. */
int32_t lytX_axes(const lytX_layout *L, const char **axes) {
  int32_t n = 0;
  for (int32_t i = 0; i < L->nd; i++) n = add_name(axes, n, L->d[i].axis);
  for (int32_t i = 0; i < L->nr; i++) n = add_name(axes, n, L->r[i].axis);
  for (int32_t i = 0; i < L->no; i++) n = add_name(axes, n, L->oaxis[i]);
  return n;
}

int32_t lytX_axis_index(const lytX_layout *L, const char *axis) {
  const char *ax[3 * LYTX_MAXITERS + LYTX_MAXAXES];
  int32_t n = lytX_axes(L, ax);
  for (int32_t i = 0; i < n; i++)
    if (strcmp(ax[i], axis) == 0) return i;
  return -1;
}

static int iter_eq(const lytX_iter *a, const lytX_iter *b) {
  return a->extent == b->extent && a->stride == b->stride && strcmp(a->axis, b->axis) == 0;
}

int lytX_equal(const lytX_layout *a, const lytX_layout *b) {
  if (a->nd != b->nd || a->nr != b->nr) return 0;
  for (int32_t i = 0; i < a->nd; i++)
    if (!iter_eq(&a->d[i], &b->d[i])) return 0;
  for (int32_t i = 0; i < a->nr; i++)
    if (!iter_eq(&a->r[i], &b->r[i])) return 0;
  for (int32_t i = 0; i < a->no; i++)
    if (lytX_offset_of(b, a->oaxis[i]) != a->off[i]) return 0;
  for (int32_t i = 0; i < b->no; i++)
    if (lytX_offset_of(a, b->oaxis[i]) != b->off[i]) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* forward                                                             */
/* ------------------------------------------------------------------ */

void lytX_check_shape(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape) {
  if (rank < 0 || rank > LYTX_MAXDIMS)
    lytS_fail(cx, LYT_ERRLIMIT, "axe: logical rank %d is not in 0..%d", rank, LYTX_MAXDIMS);
  int64_t n = 1;
  for (int32_t d = 0; d < rank; d++) {
    if (shape[d] <= 0)
      lytS_fail(cx, LYT_ERRRUN, "axe: logical dim %d has extent %lld", d, (long long)shape[d]);
    n = lytS_mul(cx, n, shape[d]);
  }
  int64_t size = lytX_size(cx, L);
  if (n != size)
    lytS_fail(cx, LYT_ERRRUN,
              "axe: shape not admitted: %lld elements, the shard has %lld", (long long)n,
              (long long)size);
}

/* Row-major flat index of x; every coordinate checked against its dim. */
static int64_t flatten(lytS_ctx *cx, int32_t rank, const int64_t *shape, const int64_t *x) {
  int64_t flat = 0;
  for (int32_t d = 0; d < rank; d++) {
    if (x[d] < 0 || x[d] >= shape[d])
      lytS_fail(cx, LYT_ERRRUN, "axe: coordinate %lld of dim %d is out of range [0, %lld)",
                (long long)x[d], d, (long long)shape[d]);
    flat = flat * shape[d] + x[d];  /* < prod(shape), which was checked */
  }
  return flat;
}

void lytX_base(lytS_ctx *cx, const lytX_layout *L, int64_t flat, int64_t *out) {
  const char *ax[LYTX_MAXAXES];
  int32_t na = lytX_axes(L, ax);
  int64_t size = lytX_size(cx, L);
  if (flat < 0 || flat >= size)
    lytS_fail(cx, LYT_ERRRUN, "axe: flat index %lld is out of range [0, %lld)",
              (long long)flat, (long long)size);
  for (int32_t k = 0; k < na; k++) out[k] = lytX_offset_of(L, ax[k]);
  /* the last iter is the fastest digit: peel digits from the end */
  for (int32_t i = L->nd - 1; i >= 0; i--) {
    int64_t digit = flat % L->d[i].extent;
    flat /= L->d[i].extent;
    int32_t k = lytX_axis_index(L, L->d[i].axis);
    out[k] = lytS_add(cx, out[k], lytS_mul(cx, digit, L->d[i].stride));
  }
}

/* Number of replica combinations, capped so that images stay small. */
static int64_t replica_count(lytS_ctx *cx, const lytX_layout *L) {
  int64_t n = 1;
  for (int32_t t = 0; t < L->nr; t++) {
    n = lytS_mul(cx, n, L->r[t].extent);
    if (n > LYTX_POINTS_MAX)
      lytS_fail(cx, LYT_ERRLIMIT, "axe: more than %d replica combinations", LYTX_POINTS_MAX);
  }
  return n;
}

/* The replica displacement of combination j (row-major over R's order),
** added into pt (lytX_axes order). */
static void add_replica(lytS_ctx *cx, const lytX_layout *L, int64_t j, int64_t *pt) {
  for (int32_t t = L->nr - 1; t >= 0; t--) {
    int64_t digit = j % L->r[t].extent;
    j /= L->r[t].extent;
    int32_t k = lytX_axis_index(L, L->r[t].axis);
    pt[k] = lytS_add(cx, pt[k], lytS_mul(cx, digit, L->r[t].stride));
  }
}

/* qsort has no context argument in C11; the row width travels in a
** header word stored before every row instead of a global. */
static int cmp_rows(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  int64_t n = x[0];
  for (int64_t k = 1; k <= n; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

int32_t lytX_sort_rows(lytS_ctx *cx, int64_t *v, int32_t n, int32_t w) {
  int64_t *tmp = lytS_alloc(cx, sizeof *tmp * (size_t)(n ? n : 1) * (size_t)(w + 1));
  for (int32_t i = 0; i < n; i++) {
    tmp[i * (w + 1)] = w;
    memcpy(tmp + i * (w + 1) + 1, v + (size_t)i * (size_t)w, sizeof *v * (size_t)w);
  }
  qsort(tmp, (size_t)n, sizeof *tmp * (size_t)(w + 1), cmp_rows);
  int32_t m = 0;
  for (int32_t i = 0; i < n; i++) {
    int64_t *row = tmp + i * (w + 1);
    if (m > 0 && cmp_rows(row, tmp + (m - 1) * (w + 1)) == 0) continue;
    memmove(tmp + m * (w + 1), row, sizeof *tmp * (size_t)(w + 1));
    m++;
  }
  for (int32_t i = 0; i < m; i++)
    memcpy(v + (size_t)i * (size_t)w, tmp + i * (w + 1) + 1, sizeof *v * (size_t)w);
  return m;
}

lytX_points lytX_apply_flat(lytS_ctx *cx, const lytX_layout *L, int64_t flat) {
  lytX_points p;
  memset(&p, 0, sizeof p);
  p.naxes = lytX_axes(L, p.axis);
  int64_t nrep = replica_count(cx, L);
  int32_t w = p.naxes;
  p.v = lytS_alloc(cx, sizeof *p.v * (size_t)nrep * (size_t)(w ? w : 1));
  int64_t base[LYTX_MAXAXES];
  lytX_base(cx, L, flat, base);
  for (int64_t j = 0; j < nrep; j++) {
    int64_t *pt = p.v + j * w;
    memcpy(pt, base, sizeof *pt * (size_t)w);
    add_replica(cx, L, j, pt);
  }
  p.n = lytX_sort_rows(cx, p.v, (int32_t)nrep, w);
  return p;
}

lytX_points lytX_apply(lytS_ctx *cx, const lytX_layout *L, int32_t rank, const int64_t *shape,
                       const int64_t *x) {
  lytX_check_shape(cx, L, rank, shape);
  return lytX_apply_flat(cx, L, flatten(cx, rank, shape, x));
}

/* ------------------------------------------------------------------ */
/* points                                                              */
/* ------------------------------------------------------------------ */

void lytX_point(lytS_ctx *cx, const lytX_layout *L, int32_t n, const char *const *names,
                const int64_t *vals, int64_t *out) {
  const char *ax[LYTX_MAXAXES];
  int32_t na = lytX_axes(L, ax);
  int seen[LYTX_MAXAXES] = {0};
  for (int32_t i = 0; i < n; i++) {
    int32_t k = lytX_axis_index(L, names[i]);
    if (k < 0) lytS_fail(cx, LYT_ERRRUN, "axe: unknown axis %s in a point", names[i]);
    if (seen[k]) lytS_fail(cx, LYT_ERRRUN, "axe: axis %s given twice in a point", names[i]);
    seen[k] = 1;
    out[k] = vals[i];
  }
  for (int32_t k = 0; k < na; k++)
    if (!seen[k]) lytS_fail(cx, LYT_ERRRUN, "axe: the point lacks axis %s", ax[k]);
}

lytX_points lytX_points_reorder(lytS_ctx *cx, const lytX_points *p, int32_t n,
                                const char *const *names) {
  if (n > LYTX_MAXAXES) lytS_fail(cx, LYT_ERRLIMIT, "axe: more than %d axes", LYTX_MAXAXES);
  lytX_points q;
  memset(&q, 0, sizeof q);
  int32_t from[LYTX_MAXAXES];
  for (int32_t k = 0; k < n; k++) {
    q.axis[k] = names[k];
    from[k] = -1;
    for (int32_t j = 0; j < p->naxes; j++)
      if (strcmp(p->axis[j], names[k]) == 0) from[k] = j;
  }
  for (int32_t j = 0; j < p->naxes; j++) {
    int found = 0;
    for (int32_t k = 0; k < n; k++) found |= from[k] == j;
    if (!found) lytS_fail(cx, LYT_ERRRUN, "axe: reorder drops axis %s", p->axis[j]);
  }
  q.naxes = n;
  q.v = lytS_alloc(cx, sizeof *q.v * (size_t)(p->n ? p->n : 1) * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < p->n; i++)
    for (int32_t k = 0; k < n; k++)
      q.v[i * n + k] = from[k] < 0 ? 0 : p->v[i * p->naxes + from[k]];
  q.n = lytX_sort_rows(cx, q.v, p->n, n);
  return q;
}
