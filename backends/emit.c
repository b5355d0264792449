/*
** backends/emit.c: the one path to backend text. The emit() builtin,
** `lyt --emit=` (lyt_emit) and lyt_emit_kernel all end in lytK_emit, and
** every list of targets a person reads comes from the table in
** targets.c.
*/
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/values.h"
#include "interp/eval/api.h"

void lytK_target_list(lytS_buf *b) {
  for (int i = 0; lytK_backends[i]; i++)
    lytS_buf_printf(b, "%s%s", i ? ", " : "", lytK_backends[i]->name);
}

const lytK_backend *lytK_get_backend(lytS_ctx *cx, const char *name) {
  const lytK_backend *be = lytK_find_backend(name);
  if (be) return be;
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytK_target_list(&b);
  lytS_fail(cx, LYT_ERRRUN, "emit: unknown target \"%s\" (%s)", name, b.p);
}

void lytK_emit(lytS_ctx *cx, lytS_buf *b, const lytK_kernel *const *ks, int32_t n,
               const char *target, const char *arch) {
  const lytK_backend *be = lytK_get_backend(cx, target);
  const lytK_program **ps = lytS_alloc(cx, sizeof *ps * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) ps[i] = lytK_lower(cx, ks[i]);
  be->emit(cx, b, ps, n, arch);
}

int lyt_target(int i, const char **name, const char **archs) {
  for (int k = 0; lytK_backends[k]; k++)
    if (k == i) {
      if (name) *name = lytK_backends[k]->name;
      if (archs) *archs = lytK_backends[k]->targets;
      return 1;
    }
  return 0;
}

/* ---------------------------------------------------------------------
** lyt_emit: every kernel bound to a global
** ------------------------------------------------------------------- */

static int by_name(const void *a, const void *b) {
  const lytK_kernel *x = *(const lytK_kernel *const *)a, *y = *(const lytK_kernel *const *)b;
  int c = strcmp(x->name, y->name);  /* then as written: errors name the later one */
  return c ? c : x->at.line != y->at.line ? (x->at.line > y->at.line) - (x->at.line < y->at.line)
               : (x->at.col > y->at.col) - (x->at.col < y->at.col);
}

#define EXPECT_LIST_MAX (1 << 20)  /* larger outputs get the compact map form */

/* Small kernels list, for every out element, the in element lyt's
** mapping puts there; large ones give the src/dst layouts ("map"), from
** which the harness computes the same list. A comment before it gives the
** shared wavefronts and conflicts lyt's bank model counts in the grid,
** which make gpu-test compares with Nsight Compute's. */
static void write_expect(lyt_state *L, lytS_buf *b, const lytK_kernel *k) {
  const lytK_program *P = lytK_lower(&L->cx, k);
  lytK_conflicts c = lytK_grid_conflicts(&L->cx, P);
  lytS_buf_printf(b, "# wavefronts %s %lld conflicts %lld\n", k->name, (long long)c.wavefronts,
                  (long long)c.conflicts);
  lytS_buf_printf(b, "kernel %s %d %lld %lld %d %d %d\n", k->name, (int)k->elem_bytes,
                  (long long)P->in_elems, (long long)P->out_elems, (int)P->blocks,
                  (int)P->threads, (int)P->smem_bytes);
  if (P->out_elems > EXPECT_LIST_MAX) {
    lytS_buf_printf(b, "map %d", (int)k->rank);
    const int64_t *v[3] = { k->shape, k->src_stride, k->dst_stride };
    for (int j = 0; j < 3; j++)
      for (int32_t d = 0; d < k->rank; d++) lytS_buf_printf(b, " %lld", (long long)v[j][d]);
    lytS_buf_puts(b, "\nend\n");
    return;
  }
  int64_t n, *e = lytK_expect(&L->cx, k, &n);
  for (int64_t i = 0; i < n; i++) lytS_buf_printf(b, "%lld%c", (long long)e[i], i % 16 == 15 ? '\n' : ' ');
  lytS_buf_puts(b, "\nend\n");
}

/* The kernels bound to globals, one per name, sorted by name. */
static int32_t bound_kernels(lyt_state *L, const lytK_kernel ***out) {
  int32_t n = 0, m = 0;
  for (uint32_t i = 0; i < L->globals.cap; i++)
    n += L->globals.slot[i].name && L->globals.slot[i].v.kind == LYT_VKERNEL;
  if (n == 0) lytS_fail(&L->cx, LYT_ERRRUN, "emit: no kernel is bound to a global");
  const lytK_kernel **ks = lytS_alloc(&L->cx, sizeof *ks * (size_t)n);
  for (uint32_t i = 0; i < L->globals.cap; i++)
    if (L->globals.slot[i].name && L->globals.slot[i].v.kind == LYT_VKERNEL)
      ks[m++] = L->globals.slot[i].v.u.kernel;
  qsort(ks, (size_t)n, sizeof *ks, by_name);
  m = 0;
  for (int32_t i = 0; i < n; i++) {
    if (m && strcmp(ks[i]->name, ks[m - 1]->name) == 0) {
      if (!lytK_equal(ks[i], ks[m - 1])) {  /* K2 = K copies the value */
        L->errloc = ks[i]->at;
        lytS_fail(&L->cx, LYT_ERRRUN, "emit: two different kernels are named %s", ks[i]->name);
      }
      continue;
    }
    ks[m++] = ks[i];
  }
  *out = ks;
  return m;
}

/* A kernel's own failure (a limit of the target, found only now) points
** at the kernel() call that made it: each kernel is emitted alone first,
** once the target and arch are known to be good (emitting no kernel
** checks them), then all of them together. */
static void emit_located(lyt_state *L, lytS_buf *b, const lytK_kernel *const *ks, int32_t n,
                         const char *target, const char *arch) {
  lytA_mark m = lytA_getmark(L->cx.arena);
  for (int32_t i = -1; i < n; i++) {  /* -1: no kernel */
    lytS_buf one;
    lytS_buf_init(&one, &L->cx);
    L->errloc = i < 0 ? (lyt_loc){ NULL, 0, 0 } : ks[i]->at;
    lytK_emit(&L->cx, &one, ks + (i < 0 ? 0 : i), i >= 0, target, arch);
    lytA_release(L->cx.arena, m);
  }
  L->errloc = (lyt_loc){ NULL, 0, 0 };
  lytK_emit(&L->cx, b, ks, n, target, arch);
}

static void do_emit(lyt_state *L, lytI_req *q) {
  const lytK_kernel **ks;
  int32_t n = bound_kernels(L, &ks);
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  if (strcmp(q->target, "expect") == 0) {
    lytS_buf_puts(&b, "# lyt expect v1\n");
    for (int32_t i = 0; i < n; i++) {
      L->errloc = ks[i]->at;
      write_expect(L, &b, ks[i]);
    }
  } else {
    emit_located(L, &b, ks, n, q->target, q->arch);
  }
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b.p, b.n);
}

int lyt_emit(lyt_state *L, const char *target, const char *arch) {
  lytI_req q = { .target = target, .arch = arch };
  return lytI_protect(L, do_emit, &q);
}

/* ---------------------------------------------------------------------
** lyt_emit_kernel: one kernel from the stack
** ------------------------------------------------------------------- */

static void do_emit_kernel(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at(L, q->idx, "lyt_emit_kernel");
  if (v->kind != LYT_VKERNEL) lytI_api_wrong(L, "lyt_emit_kernel", v, "a kernel");
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  emit_located(L, &b, &v->u.kernel, 1, q->target ? q->target : "", q->arch);
  q->len = b.n;
  if (q->len >= q->cap || !q->buf)
    lytS_fail(&L->cx, LYT_ERRLIMIT, "lyt_emit_kernel: the code takes %zu bytes and a NUL; the "
              "buffer holds %zu", q->len, q->cap);
  memcpy(q->buf, b.p, q->len);
  q->buf[q->len] = 0;
}

int lyt_emit_kernel(lyt_state *L, int idx, const char *target, const char *arch, char *buf,
                    size_t cap, size_t *len) {
  lytI_req q = { .idx = idx, .target = target, .arch = arch, .buf = buf, .cap = cap };
  int st = lytI_protect(L, do_emit_kernel, &q);
  if (len) *len = q.len;
  return st;
}
