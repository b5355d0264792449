/*
** eval/api.c: the public entry points of lyt.h.
**
** Every entry runs protected: a setjmp here is the one place errors
** unwind to. After an error the scratch arena is rolled back, so a
** failed statement leaves nothing behind but the error itself.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"
#include "interp/eval/state.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

/* 256 KiB of C stack for nesting. Under AddressSanitizer or
** ThreadSanitizer frames weigh several times more, so those builds allow
** 4 times as much, for the same scripts to nest as deep. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LYT_STACK_SCALE 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LYT_STACK_SCALE 4
#endif
#endif
#ifndef LYT_STACK_SCALE
#define LYT_STACK_SCALE 1
#endif
#define LYT_DEFAULT_STACK (((size_t)256 << 10) * LYT_STACK_SCALE)

static const char oom_diag[] = "error: out of memory\n";

void lyt_config_init(lyt_config *c) {
  if (!c) return;
  memset(c, 0, sizeof *c);
  c->alloc = lytA_default_alloc;
  c->stdlib_path = LYT_STDLIB_DIR;
  c->mem_limit = (size_t)1 << 30;
  c->max_memory = (size_t)4 << 30;
  c->max_depth = 200000;
  c->max_steps = 100000000;
  c->max_stack = LYT_DEFAULT_STACK;
  c->template_memory = (size_t)1 << 20;
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

/* An error raised inside a stdlib function is the user's call's error:
** the innermost frame called from outside the stdlib, NULL when the error
** is not the stdlib's or no user code called it. */
static const lytI_frame *user_call(const lyt_state *L) {
  if (!L->errloc.src || !L->errloc.src->lib) return NULL;
  for (const lytI_frame *f = L->frame; f; f = f->up)
    if (f->at.src && !f->at.src->lib) return f;
  return NULL;
}

/* Where the failing code was called from, innermost first: the calls
** the user's code made (calls between stdlib functions are its
** internals); [user]'s call is the error's own location, so it is not
** repeated. */
static void add_call_notes(lyt_state *L, lytS_buf *b, const lytI_frame *user) {
  int n = 0, rest = 0;
  for (const lytI_frame *f = L->frame; f; f = f->up) {
    if (f == user || (f->at.src && f->at.src->lib)) continue;
    if (n++ < LYT_MAX_NOTES) {
      char msg[160];
      snprintf(msg, sizeof msg, "in %s(), called from here", f->fn->name);
      lytL_format_at(b, f->at, "note", msg);
    } else {
      rest++;
    }
  }
  if (rest) lytS_buf_printf(b, "note: and %d more call%s\n", rest, rest == 1 ? "" : "s");
}

/* Format a runtime error in an arena of its own, guarded by its own
** escape, so running out of memory here cannot loop. [user]: the error
** is reported at this call (user_call). */
static void format_error(lyt_state *L, const lytI_frame *user) {
  if (L->diag_pending) { keep_diag(L, L->diag_pending); return; }
  lytA_arena a;
  jmp_buf jb;
  lytS_ctx cx;
  lytA_init(&a, L->cfg.alloc, L->cfg.alloc_ud, 0);
  memset(&cx, 0, sizeof cx);
  cx.arena = &a;
  cx.jb = &jb;
  lyt_loc raised = L->errloc;
  if (user) L->errloc = user->at;
  if (setjmp(jb) == 0) {
    lytS_buf b;
    lytS_buf_init(&b, &cx);
    lytL_format_diag(&b, L->errloc, L->cx.msg);
    if (user) {
      char msg[160];
      snprintf(msg, sizeof msg, "raised here, inside %s()", user->fn->name);
      lytL_format_at(&b, raised, "note", msg);
    }
    add_call_notes(L, &b, user);
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
int lytI_protect(lyt_state *L, lytI_protected fn, lytI_req *q) {
  if (!L) return LYT_ERRRUN;  /* no state to hold a message: lyt_error(NULL) says so */
  jmp_buf jb, *old = L->cx.jb;
  lytA_mark m = lytA_getmark(&L->scratch), hm = lytA_getmark(&L->host);
  lytI_frame *frame = L->frame;
  lytI_table *mod = L->mod;
  lytI_module *loading = L->loading;
  int depth = L->depth, top = L->top, base = L->base, echo = L->echo;
  int stmts = L->stmts;
  int status = LYT_OK;
  L->cx.jb = &jb;
  L->cx.code = LYT_OK;
  L->cx.msg[0] = 0;
  L->incomplete = 0;
  L->diag_pending = NULL;
  L->errloc.src = NULL;
  if (!old) {  /* the outermost entry: nesting is measured from here */
    L->steps = 0;
    atomic_store_explicit(&L->interrupted, 0, memory_order_relaxed);
    L->cx.stack_base = (uintptr_t)&jb;
  } else {
    L->stmts++;
  }
  if (setjmp(jb) == 0) {
    fn(L, q);
    L->stmts = stmts;
  } else {
    status = L->cx.code ? L->cx.code : LYT_ERRRUN;
    L->cx.arena = &L->scratch;
    format_error(L, user_call(L));
    L->frame = frame;
    L->mod = mod;
    L->loading = loading;
    L->depth = depth;
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
  if (!old) L->cx.stack_base = 0;
  L->echo = echo;
  return status;
}

/* ---------------------------------------------------------------------
** States
** ------------------------------------------------------------------- */

static void open_libs(lyt_state *L, lytI_req *q) {
  (void)q;
  for (size_t k = 0; lytI_libs[k]; k++)
    for (const lytI_builtin *b = lytI_libs[k]; b->name; b++) {
      lyt_value v = { .kind = LYT_VBUILTIN };
      v.u.bi = b;
      lytI_tset(L, &L->builtins, lytI_intern(L, b->name, strlen(b->name)), v);
    }
  static const char *const consts[] = { "LayoutLeft", "LayoutRight" };
  for (size_t k = 0; k < 2; k++) {
    lyt_value v = { .kind = LYT_VSTR };
    v.u.str.s = lytI_intern(L, consts[k], strlen(consts[k]));
    v.u.str.len = (int64_t)strlen(consts[k]);
    lytI_tset(L, &L->builtins, v.u.str.s, v);
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
  lytA_init(&L->pend.arena, cfg.alloc, cfg.alloc_ud, 0);
  L->budget.limit = cfg.max_memory;
  L->code.budget = L->perm.budget = L->scratch.budget = L->host.budget = L->pend.arena.budget = &L->budget;
  L->cx.arena = &L->scratch;
  L->mod = &L->globals;
  L->cx.stack_limit = cfg.max_stack ? cfg.max_stack : LYT_DEFAULT_STACK;
  const char *lib = cfg.stdlib_path ? cfg.stdlib_path : "";
  char *libcopy = lytA_alloc(&L->code, strlen(lib) + 1);
  if (libcopy) strcpy(libcopy, lib);
  L->cfg.stdlib_path = libcopy;
  const char *path = cfg.path ? cfg.path : "";
  char *pathcopy = lytA_alloc(&L->code, strlen(path) + 1);
  if (pathcopy) strcpy(pathcopy, path);
  L->cfg.path = pathcopy;
  if (!libcopy || !pathcopy || lytI_protect(L, open_libs, NULL) != LYT_OK) {
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
  lytA_free(&L->pend.arena);
  lytI_templates_free(L);
  if (L->stk) L->cfg.alloc(L->cfg.alloc_ud, L->stk, sizeof *L->stk * (size_t)L->cap, 0);
  if (L->diag) L->cfg.alloc(L->cfg.alloc_ud, L->diag, L->diagcap, 0);
  L->cfg.alloc(L->cfg.alloc_ud, L, sizeof *L, 0);
}

/* ---------------------------------------------------------------------
** Running code
** ------------------------------------------------------------------- */

/* q: the source s of len bytes (SIZE_MAX: up to its NUL), its name. */
static void run_chunk(lyt_state *L, lytI_req *q) {
  if (!q->s && q->len) lytS_fail(&L->cx, LYT_ERRRUN, "%s: the source is NULL", q->target);
  size_t len = q->len == SIZE_MAX ? strlen(q->s) : q->len;
  L->echo = 0;
  lytI_run_src(L, q->name ? q->name : "<string>", q->s ? q->s : "", len);
}

static void run_line(lyt_state *L, lytI_req *q) {
  if (!q->s) {  /* a REPL's Ctrl-C: the unfinished statement goes */
    L->pend.active = 0;
    return;
  }
  L->echo = 1;
  lytI_run_line(L, q->name ? q->name : "<string>", q->s);
}

static void run_file(lyt_state *L, lytI_req *q) {
  lyt_loc nowhere = { NULL, 0, 0 };
  if (!q->s) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_dofile: the path is NULL");
  L->echo = 0;
  lytI_run_file(L, q->s, nowhere);
}

int lyt_dostring(lyt_state *L, const char *src, const char *name) {
  lytI_req q = { .s = src, .len = SIZE_MAX, .name = name, .target = "lyt_dostring" };
  return lytI_protect(L, run_chunk, &q);
}

int lyt_dobuffer(lyt_state *L, const char *buf, size_t len, const char *name) {
  lytI_req q = { .s = buf, .len = len, .name = name, .target = "lyt_dobuffer" };
  return lytI_protect(L, run_chunk, &q);
}

int lyt_doline(lyt_state *L, const char *src, const char *name) {
  lytI_req q = { .s = src, .name = name };
  return lytI_protect(L, run_line, &q);
}

int lyt_dofile(lyt_state *L, const char *path) {
  lytI_req q = { .s = path };
  return lytI_protect(L, run_file, &q);
}

void lyt_interrupt(lyt_state *L) {
  if (L) atomic_store_explicit(&L->interrupted, 1, memory_order_relaxed);
}

static int names_in(const lytI_table *t, const char *prefix, lyt_name_fn fn, void *ud,
                    const lytI_table *shadow) {
  int n = 0;
  size_t pl = strlen(prefix);
  for (uint32_t i = 0; i < t->cap; i++) {
    const char *name = t->slot[i].name;
    if (name && strncmp(name, prefix, pl) == 0 && !(shadow && lytI_tget(shadow, name))) {
      fn(ud, name);
      n++;
    }
  }
  return n;
}

int lyt_names(lyt_state *L, const char *prefix, lyt_name_fn fn, void *ud) {
  if (!L || !fn) return -1;
  if (!prefix) prefix = "";
  const char *dot = strchr(prefix, '.');
  if (!dot) return names_in(&L->globals, prefix, fn, ud, NULL) +
                   names_in(&L->builtins, prefix, fn, ud, &L->globals);
  char full[256];
  size_t nl = (size_t)(dot - prefix), fl = strlen(dot + 1);
  if (nl + 1 >= sizeof full) return 0;
  memcpy(full, prefix, nl);
  full[nl] = 0;
  const char *key = NULL;  /* an interned name is a pointer: find it by text */
  for (uint32_t i = 0; i < L->globals.cap && !key; i++)
    if (L->globals.slot[i].name && strcmp(L->globals.slot[i].name, full) == 0)
      key = L->globals.slot[i].name;
  const lyt_value *v = key ? lytI_tget(&L->globals, key) : NULL;
  if (!v || v->kind != LYT_VRECORD) return 0;
  int n = 0;
  for (int32_t i = 0; i < v->u.rec.n; i++) {
    const char *f = v->u.rec.name[i];
    if (strncmp(f, dot + 1, fl) != 0 || nl + 2 + strlen(f) > sizeof full) continue;
    snprintf(full + nl, sizeof full - nl, ".%s", f);
    fn(ud, full);
    n++;
  }
  return n;
}

int lyt_incomplete(const lyt_state *L) {
  return L && (L->incomplete || L->pend.active);
}

static const char no_state[] = "no state: the lyt_state pointer is NULL";

const char *lyt_error(const lyt_state *L, const char **file, int *line, int *col) {
  const lytL_src *s = L ? L->errloc.src : NULL;
  if (file) *file = s ? s->name : "";
  if (line) *line = s ? L->errloc.line : 0;
  if (col) *col = s ? L->errloc.col : 0;
  return L ? L->cx.msg : no_state;
}

const char *lyt_diagnostic(const lyt_state *L) {
  if (!L) return no_state;
  return L->diag ? L->diag : (L->cx.code ? oom_diag : "");
}
