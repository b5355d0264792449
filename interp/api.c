/*
** api.c: the public entry points of lyt.h.
**
** Every entry runs protected: a setjmp here is the one place errors
** unwind to. After an error the scratch arena is rolled back, so a
** failed statement leaves nothing behind but the error itself.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"
#include "backends/backend.h"
#include "backends/kernel.h"
#include "interp/state.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

static const char oom_diag[] = "error: out of memory\n";

void lyt_config_init(lyt_config *c) {
  memset(c, 0, sizeof *c);
  c->alloc = lytA_default_alloc;
  c->stdlib_path = LYT_STDLIB_DIR;
  c->mem_limit = (size_t)1 << 30;
  c->max_depth = 200;
  c->max_steps = 100000000;
}

/* Keep the formatted error in host memory: the scratch arena it was
** built in is about to be released. */
static void keep_diag(lyt_state *L, const char *text) {
  size_t n = strlen(text) + 1;
  if (n > L->diagcap) {
    char *d = L->cfg.alloc(L->cfg.alloc_ud, L->diag, L->diagcap, n);
    if (!d) { L->cfg.alloc(L->cfg.alloc_ud, L->diag, L->diagcap, 0); L->diag = NULL; L->diagcap = 0; return; }
    L->diag = d;
    L->diagcap = n;
  }
  memcpy(L->diag, text, n);
}

#define LYT_MAX_NOTES 4  /* the innermost calls say where; a deep recursion says how deep */

/* Where the failing code was called from: innermost first. */
static void add_call_notes(lyt_state *L, lytS_buf *b) {
  int n = 0;
  for (const lytI_frame *f = L->frame; f; f = f->up, n++) {
    if (n == LYT_MAX_NOTES) {
      int rest = 0;
      for (; f; f = f->up) rest++;
      lytS_buf_printf(b, "note: and %d more call%s\n", rest, rest == 1 ? "" : "s");
      return;
    }
    char msg[160];
    snprintf(msg, sizeof msg, "in %s(), called from here", f->fn->name);
    lytL_format_at(b, f->at, "note", msg);
  }
}

/* Format a runtime error in an arena of its own, guarded by its own
** escape, so running out of memory here cannot loop. */
static void format_error(lyt_state *L) {
  if (L->diag_pending) { keep_diag(L, L->diag_pending); return; }
  lytA_arena a;
  jmp_buf jb;
  lytS_ctx cx;
  lytA_init(&a, L->cfg.alloc, L->cfg.alloc_ud, 0);
  memset(&cx, 0, sizeof cx);
  cx.arena = &a;
  cx.jb = &jb;
  if (setjmp(jb) == 0) {
    lytS_buf b;
    lytS_buf_init(&b, &cx);
    lytL_format_diag(&b, L->errloc, L->cx.msg);
    add_call_notes(L, &b);
    keep_diag(L, b.p);
  } else {
    keep_diag(L, oom_diag);
  }
  lytA_free(&a);
}

/* Entry points nest: a C function called from lyt may call back into
** the API. An error unwinds to the innermost entry and puts back what
** that entry found: the call chain, the host stack, the arenas' marks.
** The step count is not put back: what a nested entry evaluates counts
** against the outermost entry, so a C function cannot lift the limit. A
** nested entry counts as a statement under way (L->stmts), so that its own
** statements do not restart the count, whichever entry is outermost. */
int lytI_protect(lyt_state *L, lytI_protected fn, void *ud) {
  jmp_buf jb, *old = L->cx.jb;
  lytA_mark m = lytA_getmark(&L->scratch), hm = lytA_getmark(&L->host);
  lytI_frame *frame = L->frame;
  int depth = L->depth, edepth = L->edepth, top = L->top, base = L->base, echo = L->echo;
  int stmts = L->stmts;
  int status = LYT_OK;
  L->cx.jb = &jb;
  L->cx.code = LYT_OK;
  L->cx.msg[0] = 0;
  L->incomplete = 0;
  L->diag_pending = NULL;
  L->errloc.src = NULL;
  if (!old) L->steps = 0;
  else L->stmts++;
  if (setjmp(jb) == 0) {
    fn(L, ud);
    L->stmts = stmts;
  } else {
    status = L->cx.code ? L->cx.code : LYT_ERRRUN;
    L->cx.arena = &L->scratch;
    format_error(L);
    L->frame = frame;
    L->depth = depth;
    L->edepth = edepth;
    L->stmts = stmts;
    /* Values this entry pushed go; values it popped stay popped (their
    ** memory is reused), which happens only when pushing the result fails. */
    if (L->top >= top) lytA_release(&L->host, hm);
    else lytA_release(&L->host, L->stk[L->top].mark);
    if (L->top > top) L->top = top;
    L->base = base;
  }
  lytA_release(&L->scratch, m);
  L->cx.jb = old;
  L->echo = echo;
  return status;
}

/* ---------------------------------------------------------------------
** States
** ------------------------------------------------------------------- */

/* Every library of builtins, in the order help() lists them. */
const lytI_builtin *const lytI_libs[] = {
  lytI_core_lib, lytI_stride_lib, lytI_linear_lib, lytI_axisinfo_lib, lytI_axe_lib, lytI_nested_lib, lytI_kernel_lib,
  lytI_picture_lib, lytI_interop_lib, NULL,
};

static void open_libs(lyt_state *L, void *ud) {

  (void)ud;
  for (size_t k = 0; lytI_libs[k]; k++)
    for (const lytI_builtin *b = lytI_libs[k]; b->name; b++) {
      lyt_value v = { .kind = LYT_VBUILTIN };
      v.u.bi = b;
      lytI_setglobal(L, lytI_intern(L, b->name, strlen(b->name)), v);
    }
  static const char *const consts[] = { "LayoutLeft", "LayoutRight" };
  for (size_t k = 0; k < 2; k++) {
    lyt_value v = { .kind = LYT_VSTR };
    v.u.str.s = lytI_intern(L, consts[k], strlen(consts[k]));
    v.u.str.len = (int64_t)strlen(consts[k]);
    lytI_setglobal(L, v.u.str.s, v);
  }
}

lyt_state *lyt_open(const lyt_config *c) {
  lyt_config cfg;
  if (c) cfg = *c; else lyt_config_init(&cfg);
  if (!cfg.alloc) cfg.alloc = lytA_default_alloc;
  lyt_state *L = cfg.alloc(cfg.alloc_ud, NULL, 0, sizeof *L);
  if (!L) return NULL;
  memset(L, 0, sizeof *L);
  L->cfg = cfg;
  lytA_init(&L->code, cfg.alloc, cfg.alloc_ud, 0);
  lytA_init(&L->perm, cfg.alloc, cfg.alloc_ud, 0);
  lytA_init(&L->scratch, cfg.alloc, cfg.alloc_ud, cfg.mem_limit);
  lytA_init(&L->host, cfg.alloc, cfg.alloc_ud, cfg.mem_limit);
  L->cx.arena = &L->scratch;
  const char *lib = cfg.stdlib_path ? cfg.stdlib_path : "";
  char *libcopy = lytA_alloc(&L->code, strlen(lib) + 1);
  if (libcopy) strcpy(libcopy, lib);
  L->cfg.stdlib_path = libcopy;
  if (!libcopy || lytI_protect(L, open_libs, NULL) != LYT_OK) {
    lyt_close(L);
    return NULL;
  }
  return L;
}

void lyt_close(lyt_state *L) {
  if (!L) return;
  lytA_free(&L->code);
  lytA_free(&L->perm);
  lytA_free(&L->scratch);
  lytA_free(&L->host);
  if (L->stk) L->cfg.alloc(L->cfg.alloc_ud, L->stk, sizeof *L->stk * (size_t)L->cap, 0);
  if (L->diag) L->cfg.alloc(L->cfg.alloc_ud, L->diag, L->diagcap, 0);
  L->cfg.alloc(L->cfg.alloc_ud, L, sizeof *L, 0);
}

/* ---------------------------------------------------------------------
** Running code
** ------------------------------------------------------------------- */

typedef struct chunk {
  const char *src, *name;
  int echo;
} chunk;

static void run_chunk(lyt_state *L, void *ud) {
  const chunk *c = ud;
  L->echo = c->echo;
  lytI_run_src(L, c->name ? c->name : "<string>", c->src, strlen(c->src));
}

static void run_file(lyt_state *L, void *ud) {
  lyt_loc nowhere = { NULL, 0, 0 };
  L->echo = 0;
  lytI_run_file(L, (const char *)ud, nowhere);
}

int lyt_dostring(lyt_state *L, const char *src, const char *name) {
  chunk c = { src, name, 0 };
  return lytI_protect(L, run_chunk, &c);
}

int lyt_doline(lyt_state *L, const char *src, const char *name) {
  chunk c = { src, name, 1 };
  return lytI_protect(L, run_chunk, &c);
}

int lyt_dofile(lyt_state *L, const char *path) {
  return lytI_protect(L, run_file, (void *)path);
}

int lyt_incomplete(const lyt_state *L) {
  return L->incomplete;
}

const char *lyt_error(const lyt_state *L, const char **file, int *line, int *col) {
  const lytL_src *s = L->errloc.src;
  if (file) *file = s ? s->name : "";
  if (line) *line = s ? L->errloc.line : 0;
  if (col) *col = s ? L->errloc.col : 0;
  return L->cx.msg;
}

const char *lyt_diagnostic(const lyt_state *L) {
  return L->diag ? L->diag : (L->cx.code ? oom_diag : "");
}

/* ---------------------------------------------------------------------
** Kernels
** ------------------------------------------------------------------- */

typedef struct emit_req { const char *target, *arch; } emit_req;

static int by_name(const void *a, const void *b) {
  const lytK_kernel *x = *(const lytK_kernel *const *)a, *y = *(const lytK_kernel *const *)b;
  return strcmp(x->name, y->name);
}

#define EXPECT_LIST_MAX (1 << 20)  /* larger outputs get the compact map form */

/* Small kernels list, for every out element, the in element lyt's
** mapping puts there; large ones give the src/dst layouts ("map"), from
** which the harness computes the same list. */
static void write_expect(lyt_state *L, lytS_buf *b, const lytK_kernel *k) {
  const lytK_program *P = lytK_lower(&L->cx, k);
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
      if (!lytK_equal(ks[i], ks[m - 1]))  /* K2 = K copies the value */
        lytS_fail(&L->cx, LYT_ERRRUN, "emit: two different kernels are named %s", ks[i]->name);
      continue;
    }
    ks[m++] = ks[i];
  }
  *out = ks;
  return m;
}

static void do_emit(lyt_state *L, void *ud) {
  const emit_req *q = ud;
  const lytK_kernel **ks;
  int32_t n = bound_kernels(L, &ks);
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  if (strcmp(q->target, "expect") == 0) {
    lytS_buf_puts(&b, "# lyt expect v1\n");
    for (int32_t i = 0; i < n; i++) write_expect(L, &b, ks[i]);
  } else {
    const lytK_backend *be = lytK_find_backend(q->target);
    if (!be) lytS_fail(&L->cx, LYT_ERRRUN, "emit: unknown target '%s' (c, ptx, amdgcn, expect)", q->target);
    const lytK_program **ps = lytS_alloc(&L->cx, sizeof *ps * (size_t)n);
    for (int32_t i = 0; i < n; i++) ps[i] = lytK_lower(&L->cx, ks[i]);
    be->emit(&L->cx, &b, ps, n, q->arch);
  }
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b.p, b.n);
}

int lyt_emit(lyt_state *L, const char *target, const char *arch) {
  emit_req q = { target, arch };
  return lytI_protect(L, do_emit, &q);
}
