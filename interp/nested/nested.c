/*
** nested/nested.c: IREE nested layouts: checks, ownership, and the conversions
** to Axe and linear layouts. See nested/nested.h.
*/
#include <stdlib.h>
#include <string.h>

#include "interp/nested/nested.h"

static const char *const level_name[LYTN_LEVELS] = {
  "subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile",
};

typedef struct pair { int64_t stride, extent; } pair;

static int cmp_pair(const void *a, const void *b) {
  const pair *x = a, *y = b;
  if (x->stride != y->stride) return x->stride < y->stride ? -1 : 1;
  return (x->extent > y->extent) - (x->extent < y->extent);
}

/* IREE's basisFromSizesStrides condition on one level: sorted by stride,
** each stride a multiple of the block below it. Returns the reach (the
** product of the top block), the number of ids the level reads. */
static int64_t reach(lytS_ctx *cx, int32_t n, const int64_t *tile, const int64_t *stride,
                     const char *what) {
  pair p[LYTN_MAXRANK];
  int32_t k = 0;
  for (int32_t d = 0; d < n; d++)
    if (stride[d]) p[k++] = (pair){ stride[d], tile[d] };
  qsort(p, (size_t)k, sizeof *p, cmp_pair);
  int64_t prev = 1;
  for (int32_t i = 0; i < k; i++) {
    if (p[i].stride % prev)
      lytS_fail(cx, LYT_ERRRUN, "overlapping %s: stride %lld is not a multiple of %lld, the "
                "block of the smaller strides", what, (long long)p[i].stride, (long long)prev);
    prev = lytS_mul(cx, p[i].stride, p[i].extent);
  }
  return prev;
}

static void check_dim(lytS_ctx *cx, lytN_layout *N, int32_t d) {
  int64_t size = 1;
  for (int l = 0; l < LYTN_LEVELS; l++) {
    if (N->tile[l][d] < 1)
      lytS_fail(cx, LYT_ERRRUN, "%s[%d] must be at least 1, got %lld", level_name[l], (int)d,
                (long long)N->tile[l][d]);
    size = lytS_mul(cx, size, N->tile[l][d]);
  }
  if (N->sg_stride[d] < 0 || N->th_stride[d] < 0)
    lytS_fail(cx, LYT_ERRRUN, "%s[%d] must be >= 0, got %lld",
              N->sg_stride[d] < 0 ? "subgroup_strides" : "thread_strides", (int)d,
              (long long)(N->sg_stride[d] < 0 ? N->sg_stride[d] : N->th_stride[d]));
  if (N->tile[LYTN_SUBGROUP][d] == 1) N->sg_stride[d] = 0;  /* IREE's normal form */
  if (N->tile[LYTN_THREAD][d] == 1) N->th_stride[d] = 0;
}

static int64_t sg_reach(lytS_ctx *cx, const lytN_layout *N) {
  return reach(cx, N->rank, N->tile[LYTN_SUBGROUP], N->sg_stride, "subgroup_strides");
}

static int64_t th_reach(lytS_ctx *cx, const lytN_layout *N) {
  return reach(cx, N->rank, N->tile[LYTN_THREAD], N->th_stride, "thread_strides");
}

lytN_layout *lytN_make(lytS_ctx *cx, int32_t rank, const int64_t *const tiles[LYTN_LEVELS],
                       const int64_t *sg_strides, const int64_t *th_strides,
                       int64_t subgroup_size, int64_t subgroups) {
  if (rank < 1 || rank > LYTN_MAXRANK)
    lytS_fail(cx, LYT_ERRRUN, "a nested layout has 1 to %d dims, got %d", LYTN_MAXRANK, (int)rank);
  lytN_layout *N = lytS_alloc(cx, sizeof *N);
  memset(N, 0, sizeof *N);  /* padding too: layouts compare with memcmp */
  N->rank = rank;
  for (int l = 0; l < LYTN_LEVELS; l++) memcpy(N->tile[l], tiles[l], sizeof(int64_t) * (size_t)rank);
  memcpy(N->sg_stride, sg_strides, sizeof(int64_t) * (size_t)rank);
  memcpy(N->th_stride, th_strides, sizeof(int64_t) * (size_t)rank);
  for (int32_t d = 0; d < rank; d++) check_dim(cx, N, d);
  int64_t sg = sg_reach(cx, N), th = th_reach(cx, N);
  if (subgroup_size < 0 || subgroups < 0)
    lytS_fail(cx, LYT_ERRRUN, "subgroup_size and subgroups must be positive");
  N->subgroup_size = subgroup_size ? subgroup_size : th;
  int64_t need = (th + N->subgroup_size - 1) / N->subgroup_size;
  N->subgroups = subgroups ? subgroups : (sg > need ? sg : need);
  lytS_mul(cx, N->subgroups, N->subgroup_size);
  int64_t regs = 1;  /* checked here so that lytN_registers need not be */
  for (int32_t d = 0; d < rank; d++)
    for (int l = LYTN_BATCH; l < LYTN_LEVELS; l++)
      if (l != LYTN_THREAD) regs = lytS_mul(cx, regs, N->tile[l][d]);
  (void)regs;
  return N;
}

/* The conversions describe every element's owners; IREE's layouts may
** leave some without any (a stride-0 tile > 1, too small a workgroup). */
static void check_owners(lytS_ctx *cx, const lytN_layout *N, const char *to) {
  for (int32_t d = 0; d < N->rank; d++) {
    if (N->tile[LYTN_SUBGROUP][d] > 1 && !N->sg_stride[d])
      lytS_fail(cx, LYT_ERRRUN, "not representable as %s: subgroup_tile[%d] = %lld has stride "
                "0, so the tiles of virtual subgroups 1.. have no owner", to, (int)d,
                (long long)N->tile[LYTN_SUBGROUP][d]);
    if (N->tile[LYTN_THREAD][d] > 1 && !N->th_stride[d])
      lytS_fail(cx, LYT_ERRRUN, "not representable as %s: thread_tile[%d] = %lld has stride "
                "0, so the tiles of virtual threads 1.. have no owner", to, (int)d,
                (long long)N->tile[LYTN_THREAD][d]);
  }
  int64_t sg = sg_reach(cx, N), th = th_reach(cx, N);
  if (N->subgroups < sg)
    lytS_fail(cx, LYT_ERRRUN, "not representable as %s: the subgroup strides reach %lld "
              "subgroups but the workgroup has %lld, so part of the vector has no owner", to,
              (long long)sg, (long long)N->subgroups);
  if (lytN_threads(N) < th)
    lytS_fail(cx, LYT_ERRRUN, "not representable as %s: the thread strides reach %lld threads "
              "but the workgroup has %lld, so part of the vector has no owner", to,
              (long long)th, (long long)lytN_threads(N));
}

int64_t lytN_dim(const lytN_layout *N, int32_t d) {
  int64_t s = 1;
  for (int l = 0; l < LYTN_LEVELS; l++) s *= N->tile[l][d];  /* checked in lytN_make */
  return s;
}

int32_t lytN_dist_shape(const lytN_layout *N, int packed, int64_t *out) {
  static const int lv[3] = { LYTN_BATCH, LYTN_OUTER, LYTN_ELEMENT };
  int32_t r = N->rank;
  for (int32_t d = 0; d < r; d++) {
    if (packed)
      for (int k = 0; k < 3; k++) out[k * r + d] = N->tile[lv[k]][d];
    else
      out[d] = N->tile[LYTN_BATCH][d] * N->tile[LYTN_OUTER][d] * N->tile[LYTN_ELEMENT][d];
  }
  return packed ? 3 * r : r;
}

int64_t lytN_registers(const lytN_layout *N) {
  int64_t s[LYTN_MAXRANK], n = 1;
  for (int32_t d = 0, r = lytN_dist_shape(N, 0, s); d < r; d++) n *= s[d];
  return n;
}

int64_t lytN_threads(const lytN_layout *N) { return N->subgroups * N->subgroup_size; }

static void range(lytS_ctx *cx, const char *what, int64_t v, int64_t n) {
  if (v < 0 || v >= n)
    lytS_fail(cx, LYT_ERRRUN, "%s %lld is out of range [0, %lld)", what, (long long)v,
              (long long)n);
}

void lytN_coord(lytS_ctx *cx, const lytN_layout *N, int64_t subgroup, int64_t lane, int64_t r,
                int64_t *out) {
  range(cx, "subgroup", subgroup, N->subgroups);
  range(cx, "lane", lane, N->subgroup_size);
  range(cx, "register", r, lytN_registers(N));
  int64_t packed[3 * LYTN_MAXRANK], digit[3 * LYTN_MAXRANK];
  int32_t n = lytN_dist_shape(N, 1, packed);
  for (int32_t k = n - 1; k >= 0; k--) { digit[k] = r % packed[k]; r /= packed[k]; }
  int64_t tid = subgroup * N->subgroup_size + lane;
  for (int32_t d = 0; d < N->rank; d++) {
    int64_t sgs = N->sg_stride[d], ts = N->th_stride[d];
    int64_t vsg = sgs ? (subgroup / sgs) % N->tile[LYTN_SUBGROUP][d] : 0;
    int64_t vt = ts ? (tid / ts) % N->tile[LYTN_THREAD][d] : 0;
    int64_t b = digit[d], o = digit[N->rank + d], e = digit[2 * N->rank + d];
    int64_t i = vsg * N->tile[LYTN_BATCH][d] + b;
    i = i * N->tile[LYTN_OUTER][d] + o;
    i = i * N->tile[LYTN_THREAD][d] + vt;
    out[d] = i * N->tile[LYTN_ELEMENT][d] + e;
  }
}

/* ------------------------------------------------------------------ */
/* to Axe                                                              */
/* ------------------------------------------------------------------ */

static const char TID[] = "tid";

/* The tid iters must form a mixed-radix system; its gaps and the rest of
** the workgroup become replicas (those ids hold copies). */
static void add_tid_replicas(lytS_ctx *cx, const lytN_layout *N, lytX_layout *A) {
  pair p[2 * LYTN_MAXRANK];
  int32_t k = 0;
  for (int32_t i = 0; i < A->nd; i++)
    if (A->d[i].axis == TID && A->d[i].extent > 1) p[k++] = (pair){ A->d[i].stride, A->d[i].extent };
  qsort(p, (size_t)k, sizeof *p, cmp_pair);
  int64_t prev = 1;
  for (int32_t i = 0; i < k; i++) {
    if (p[i].stride % prev)
      lytS_fail(cx, LYT_ERRRUN, "not representable as an Axe layout: the thread and subgroup "
                "strides overlap in the linear thread id (stride %lld is not a multiple of %lld, "
                "the block of the smaller strides)",
                (long long)p[i].stride, (long long)prev);
    if (p[i].stride > prev) lytX_replica(cx, A, p[i].stride / prev, prev, TID);
    prev = p[i].stride * p[i].extent;
  }
  int64_t all = lytN_threads(N);
  if (all % prev)
    lytS_fail(cx, LYT_ERRRUN, "not representable as an Axe layout: the workgroup's %lld "
              "threads are not a multiple of the %lld the layout's ids reach", (long long)all,
              (long long)prev);
  if (all > prev) lytX_replica(cx, A, all / prev, prev, TID);
}

static int64_t flat_of(const lytN_layout *N, const int64_t *c) {
  int64_t f = 0;
  for (int32_t d = 0; d < N->rank; d++) f = f * lytN_dim(N, d) + c[d];
  return f;
}

static void check_budget(lytS_ctx *cx, const lytN_layout *N) {
  int64_t t = lytN_threads(N), r = lytN_registers(N);
  if (r > LYTN_CHECK_MAX / t)
    lytS_fail(cx, LYT_ERRLIMIT, "the layout has %lld threads x %lld registers; conversions "
              "verify at most %d pairs", (long long)t, (long long)r, LYTN_CHECK_MAX);
}

/* tid with the replica digits cleared: the point the shard alone reaches. */
static int64_t strip_replicas(const lytX_layout *A, int64_t tid) {
  for (int32_t i = 0; i < A->nr; i++)
    tid -= (tid / A->r[i].stride) % A->r[i].extent * A->r[i].stride;
  return tid;
}

/* Every (thread, register) must be the shard's image of its element, up
** to replica digits; with |threads x registers| = size x copies this
** makes the two relations equal (each element then has exactly `copies`
** owners, all of them the shard's point plus a replica combination). */
static void verify_axe(lytS_ctx *cx, const lytN_layout *N, const lytX_layout *A) {
  int64_t copies = 1, size = 1;
  for (int32_t i = 0; i < A->nr; i++) copies *= A->r[i].extent;
  for (int32_t d = 0; d < N->rank; d++) size *= lytN_dim(N, d);
  int64_t regs = lytN_registers(N);
  int32_t kt = lytX_axis_index(A, TID), km = lytX_axis_index(A, LYTX_MEM);
  int64_t c[LYTN_MAXRANK], p[LYTX_MAXAXES];
  int ok = lytN_threads(N) * regs == size * copies;
  for (int64_t tid = 0; ok && tid < lytN_threads(N); tid++)
    for (int64_t r = 0; ok && r < regs; r++) {
      lytN_coord(cx, N, tid / N->subgroup_size, tid % N->subgroup_size, r, c);
      lytX_base(cx, A, flat_of(N, c), p);
      ok = (kt < 0 ? 0 : p[kt]) == strip_replicas(A, tid) && (km < 0 ? 0 : p[km]) == r;
    }
  if (!ok)
    lytS_fail(cx, LYT_ERRRUN, "internal error: the Axe form of this nested layout does not "
              "match IREE's ownership (please report)");
}

lytX_layout *lytN_to_axe(lytS_ctx *cx, const lytN_layout *N) {
  check_owners(cx, N, "an Axe layout");
  check_budget(cx, N);
  int32_t r = N->rank;
  int64_t packed[3 * LYTN_MAXRANK], mstride[3 * LYTN_MAXRANK];
  int32_t n = lytN_dist_shape(N, 1, packed);
  mstride[n - 1] = 1;
  for (int32_t k = n - 2; k >= 0; k--) mstride[k] = mstride[k + 1] * packed[k + 1];
  lytX_layout *A = lytX_new(cx);
  for (int32_t d = 0; d < r; d++) {
    lytX_shard(cx, A, N->tile[LYTN_SUBGROUP][d],
               lytS_mul(cx, N->sg_stride[d], N->subgroup_size), TID);
    lytX_shard(cx, A, N->tile[LYTN_BATCH][d], mstride[d], LYTX_MEM);
    lytX_shard(cx, A, N->tile[LYTN_OUTER][d], mstride[r + d], LYTX_MEM);
    lytX_shard(cx, A, N->tile[LYTN_THREAD][d], N->th_stride[d], TID);
    lytX_shard(cx, A, N->tile[LYTN_ELEMENT][d], mstride[2 * r + d], LYTX_MEM);
  }
  add_tid_replicas(cx, N, A);
  A = lytX_canonicalize(cx, A);
  verify_axe(cx, N, A);
  return A;
}

/* ------------------------------------------------------------------ */
/* to linear                                                           */
/* ------------------------------------------------------------------ */

static void need_pow2(lytS_ctx *cx, const char *what, int32_t d, int64_t v) {
  if (v && !lytS_is_pow2(v)) {
    if (d < 0)
      lytS_fail(cx, LYT_ERRRUN, "not a linear layout: %s = %lld is not a power of two", what,
                (long long)v);
    lytS_fail(cx, LYT_ERRRUN, "not a linear layout: %s[%d] = %lld is not a power of two", what,
              (int)d, (long long)v);
  }
}

static void check_pow2(lytS_ctx *cx, const lytN_layout *N) {
  for (int32_t d = 0; d < N->rank; d++) {
    for (int l = 0; l < LYTN_LEVELS; l++) need_pow2(cx, level_name[l], d, N->tile[l][d]);
    need_pow2(cx, "subgroup_strides", d, N->sg_stride[d]);
    need_pow2(cx, "thread_strides", d, N->th_stride[d]);
  }
  need_pow2(cx, "subgroup_size", -1, N->subgroup_size);
  need_pow2(cx, "subgroups", -1, N->subgroups);
}

static void verify_linear(lytS_ctx *cx, const lytN_layout *N, const lytG_ll *G) {
  int64_t regs = lytN_registers(N), c[LYTN_MAXRANK], g[LYTN_MAXRANK], in[3];
  for (int64_t sg = 0; sg < N->subgroups; sg++)
    for (int64_t lane = 0; lane < N->subgroup_size; lane++)
      for (int64_t r = 0; r < regs; r++) {
        lytN_coord(cx, N, sg, lane, r, c);
        in[0] = r, in[1] = lane, in[2] = sg;
        lytG_apply(G, in, g);
        if (memcmp(c, g, sizeof(int64_t) * (size_t)N->rank))
          lytS_fail(cx, LYT_ERRRUN, "internal error: the linear form of this nested layout "
                    "does not match IREE's ownership (please report)");
      }
}

lytG_ll *lytN_to_linear(lytS_ctx *cx, const lytN_layout *N) {
  check_owners(cx, N, "a linear layout");
  check_pow2(cx, N);
  check_budget(cx, N);
  static const char *const in_name[3] = { "register", "lane", "warp" };
  int64_t size[3] = { lytN_registers(N), N->subgroup_size, N->subgroups };
  const char *dim_name[LYTN_MAXRANK];
  int64_t out_size[LYTN_MAXRANK], *v[3];
  lytG_inbases ins[3];
  int32_t r = N->rank;
  for (int32_t d = 0; d < r; d++) out_size[d] = lytN_dim(N, d), dim_name[d] = lytG_std_dim_name(d);
  for (int k = 0; k < 3; k++) {
    int bits = lytS_ceil_log2(size[k]);
    v[k] = lytS_alloc(cx, sizeof(int64_t) * (size_t)(bits * r + 1));
    for (int b = 0; b < bits; b++) {
      int64_t at[3] = { 0, 0, 0 };
      at[k] = INT64_C(1) << b;
      lytN_coord(cx, N, at[2], at[1], at[0], v[k] + b * r);
    }
    ins[k] = (lytG_inbases){ in_name[k], bits, v[k] };
  }
  lytG_ll *G = lytG_from_bases(cx, 3, ins, r, dim_name, out_size, 1);
  verify_linear(cx, N, G);
  return G;
}

/* ------------------------------------------------------------------ */
/* text                                                                */
/* ------------------------------------------------------------------ */

static void print_list(lytS_buf *b, const int64_t *v, int32_t n, const char *open,
                       const char *sep, const char *close) {
  lytS_buf_puts(b, open);
  for (int32_t d = 0; d < n; d++) lytS_buf_printf(b, "%s%lld", d ? sep : "", (long long)v[d]);
  lytS_buf_puts(b, close);
}

void lytN_print_attr(lytS_buf *b, const lytN_layout *N) {
  lytS_buf_puts(b, "#iree_vector_ext.nested_layout<");
  for (int l = 0; l < LYTN_LEVELS; l++) {
    lytS_buf_printf(b, "%s = ", level_name[l]);
    print_list(b, N->tile[l], N->rank, "[", ", ", "], ");
  }
  lytS_buf_puts(b, "subgroup_strides = ");
  print_list(b, N->sg_stride, N->rank, "[", ", ", "], ");
  lytS_buf_puts(b, "thread_strides = ");
  print_list(b, N->th_stride, N->rank, "[", ", ", "]>");
}

/* nested(...) with IREE's field names, which reads back. */
void lytN_print(lytS_buf *b, const lytN_layout *N) {
  const char *open = "(", *close = ")";
  lytS_buf_puts(b, "nested(");
  for (int l = 0; l < LYTN_LEVELS; l++) {
    lytS_buf_printf(b, "%s=", level_name[l]);
    print_list(b, N->tile[l], N->rank, open, ",", close);
    lytS_buf_puts(b, ", ");
  }
  lytS_buf_puts(b, "subgroup_strides=");
  print_list(b, N->sg_stride, N->rank, open, ",", close);
  lytS_buf_puts(b, ", thread_strides=");
  print_list(b, N->th_stride, N->rank, open, ",", close);
  lytS_buf_printf(b, ", subgroup_size=%lld, subgroups=%lld)", (long long)N->subgroup_size,
                  (long long)N->subgroups);
}
