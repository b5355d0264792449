/*
** eval/api_stack.c: values across the C boundary (lyt.h, "Values: the stack").
**
** The host sees values only through stack indices, so it never holds a
** pointer into an arena that a statement is about to release. A pushed
** value is deep-copied into the host arena; slot i remembers the arena
** mark taken before it, so the arena shrinks exactly as the stack does.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "interp/eval/api.h"
#include "interp/eval/kind.h"
#include "lang/parse.h"

/* ---------------------------------------------------------------------
** Slots
** ------------------------------------------------------------------- */

#define LYTI_MAX_STACK (1 << 20)  /* values on the host's stack, as Lua caps its own */

static void grow(lyt_state *L) {
  if (L->cap >= LYTI_MAX_STACK)
    lytS_fail(&L->cx, LYT_ERRLIMIT, "the host stack holds at most %d values", LYTI_MAX_STACK);
  int ncap = L->cap ? L->cap * 2 : 16;
  struct lytI_hostslot *s = L->cfg.alloc(L->cfg.alloc_ud, L->stk, sizeof *s * (size_t)L->cap,
                                     sizeof *s * (size_t)ncap);
  if (!s) lytS_fail(&L->cx, LYT_ERRMEM, "out of memory");
  L->stk = s;
  L->cap = ncap;
}

void lytI_push(lyt_state *L, lyt_value v) {
  if (L->top == L->cap) grow(L);
  lytA_mark m = lytA_getmark(&L->host);
  v = lytI_copy_to(L, &L->host, v);
  L->stk[L->top].mark = m;
  L->stk[L->top++].v = v;
}

void lytI_cut(lyt_state *L, int top) {
  if (top >= L->top) return;
  lytA_release(&L->host, L->stk[top].mark);
  L->top = top;
}

static int slot(const lyt_state *L, int idx) {
  int p = idx > 0 ? L->base + idx - 1 : idx < 0 ? L->top + idx : -1;
  return p >= L->base && p < L->top ? p : -1;
}

const lyt_value *lytI_at(lyt_state *L, int idx, const char *api) {
  int p = slot(L, idx);
  if (p < 0)
    lytS_fail(&L->cx, LYT_ERRRUN, "%s: index %d is not on the stack (it holds %d values)", api,
              idx, L->top - L->base);
  return &L->stk[p].v;
}

const lyt_value *lytI_at_kind(lyt_state *L, int idx, lyt_vkind k, const char *api) {
  const lyt_value *v = lytI_at(L, idx, api);
  if (v->kind != k)
    lytS_fail(&L->cx, LYT_ERRRUN, "%s: value %d is %s %s, not %s %s", api, idx,
              lytI_article(v->kind), lytI_kindname(v->kind), lytI_article(k), lytI_kindname(k));
  return v;
}

/* Copies of the top n values in the statement's arena. They stay on the
** stack until lytI_replace() pops them with the result: everything that may
** fail happens while the stack is still whole. */
lyt_value *lytI_take(lyt_state *L, int n, const char *api) {
  if (n < 0 || n > L->top - L->base)
    lytS_fail(&L->cx, LYT_ERRRUN, "%s: %d values asked for, the stack holds %d", api, n,
              L->top - L->base);
  lyt_value *v = lytS_alloc(&L->cx, sizeof *v * (size_t)(n + 1));
  for (int i = 0; i < n; i++) v[i] = lytI_copy(&L->cx, L->stk[L->top - n + i].v);
  return v;
}

void lytI_replace(lyt_state *L, int n, lyt_value v) {
  lytI_cut(L, L->top - n);
  lytI_push(L, v);
}

int lyt_gettop(const lyt_state *L) { return L ? L->top - L->base : 0; }

int lyt_type(const lyt_state *L, int idx) {
  int p = L ? slot(L, idx) : -1;
  if (p < 0) return LYT_TNONE;
  return lytI_kinds[L->stk[p].v.kind].type;
}

const char *lyt_typename(const lyt_state *L, int idx) {
  int p = L ? slot(L, idx) : -1;
  return p < 0 ? "no value" : lytI_kindname(L->stk[p].v.kind);
}

/* ---------------------------------------------------------------------
** Protected bodies: one request block (lytI_req) serves every entry point
** ------------------------------------------------------------------- */

static void do_settop(lyt_state *L, lytI_req *q) {
  if (q->n < 0) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_settop: %d is negative", q->n);
  if (q->n > LYTI_MAX_STACK - L->base)
    lytS_fail(&L->cx, LYT_ERRLIMIT, "lyt_settop: %d values: the host stack holds at most %d",
              q->n, LYTI_MAX_STACK);
  lytI_cut(L, L->base + q->n);
  while (L->top < L->base + q->n) lytI_push(L, lytI_nil());
}

int lyt_settop(lyt_state *L, int n) {
  lytI_req q = { .n = n };
  return lytI_protect(L, do_settop, &q);
}

static void do_push(lyt_state *L, lytI_req *q) { lytI_push(L, q->v); }

static int push_value(lyt_state *L, lyt_value v) {
  lytI_req q = { .v = v };
  return lytI_protect(L, do_push, &q);
}

static void do_pushvalue(lyt_state *L, lytI_req *q) {
  lytI_push(L, *lytI_at(L, q->idx, "lyt_pushvalue"));
}

int lyt_pushvalue(lyt_state *L, int idx) {
  lytI_req q = { .idx = idx };
  return lytI_protect(L, do_pushvalue, &q);
}

int lyt_push_nil(lyt_state *L) { return push_value(L, lytI_nil()); }
int lyt_push_bool(lyt_state *L, int b) { return push_value(L, lytI_bool(b != 0)); }
int lyt_push_int(lyt_state *L, int64_t i) { return push_value(L, lytI_int(i)); }

static void do_push_string(lyt_state *L, lytI_req *q) {
  if (!q->s) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_push_string: the string is NULL");
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = q->s;
  v.u.str.len = (int64_t)strlen(q->s);
  lytI_push(L, v);  /* copied with the value */
}

int lyt_push_string(lyt_state *L, const char *s) {
  lytI_req q = { .s = s };
  return lytI_protect(L, do_push_string, &q);
}

static void do_tuple(lyt_state *L, lytI_req *q) {
  lyt_value v = { .kind = LYT_VTUP };
  v.u.tup.n = q->n;
  v.u.tup.e = lytI_take(L, q->n, "lyt_push_tuple");
  lytI_replace(L, q->n, v);
}

int lyt_push_tuple(lyt_state *L, int n) {
  lytI_req q = { .n = n };
  return lytI_protect(L, do_tuple, &q);
}

static void do_record(lyt_state *L, lytI_req *q) {
  const char *const *names = q->p;
  const char **nm = lytS_alloc(&L->cx, sizeof *nm * (size_t)(q->n + 1));
  for (int i = 0; i < q->n; i++) {
    if (!names || !names[i]) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_push_record: name %d is NULL", i);
    nm[i] = lytI_api_name(L, "lyt_push_record", names[i]);
    for (int j = 0; j < i; j++)
      if (nm[j] == nm[i]) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_push_record: field '%s' twice", nm[i]);
  }
  lyt_value v = { .kind = LYT_VRECORD };
  v.u.rec.n = q->n;
  v.u.rec.e = lytI_take(L, q->n, "lyt_push_record");
  v.u.rec.name = nm;
  lytI_replace(L, q->n, v);
}

int lyt_push_record(lyt_state *L, int n, const char *const *names) {
  lytI_req q = { .n = n, .p = names };
  return lytI_protect(L, do_record, &q);
}

/* ---------------------------------------------------------------------
** C functions
** ------------------------------------------------------------------- */

static void do_cfunction(lyt_state *L, lytI_req *q) {
  if (!q->s || !q->fn) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_push_cfunction: a name and a function are needed");
  lytI_cfunc *f = lytA_alloc(&L->code, sizeof *f);
  if (!f) lytS_fail_alloc(&L->cx, &L->code);
  f->name = lytI_intern(L, q->s, strlen(q->s));
  f->fn = q->fn;
  f->ud = q->out;
  lyt_value v = { .kind = LYT_VCFUNC };
  v.u.cf = f;
  lytI_push(L, v);
}

int lyt_push_cfunction(lyt_state *L, const char *name, lyt_cfunction fn, void *ud) {
  lytI_req q = { .s = name, .out = ud, .fn = fn };
  return lytI_protect(L, do_cfunction, &q);
}

int lyt_seterror(lyt_state *L, const char *fmt, ...) {
  if (!L) return LYT_ERRRUN;
  if (!fmt) fmt = "(a NULL message)";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(L->cmsg, sizeof L->cmsg, fmt, ap);
  va_end(ap);
  return LYT_ERRRUN;
}

/* The arguments become the C function's frame; its result is copied
** back into the statement's arena before the frame is cut. */
lyt_value lytI_call_cfunc(lyt_state *L, const lytI_cfunc *f, int argc, const lyt_value *argv,
                          const char *const *kw, const lyt_loc *argloc, lyt_loc at) {
  for (int i = 0; i < argc; i++)
    if (kw && kw[i]) lytI_error(L, argloc[i], LYT_ERRRUN, "%s() takes no keyword arguments", f->name);
  int base = L->base, top = L->top;
  for (int i = 0; i < argc; i++) lytI_push(L, argv[i]);
  L->base = top;
  L->cmsg[0] = 0;
  int st = f->fn(L, argc, f->ud);
  lyt_value r = lytI_nil();
  if (st == LYT_OK && L->top > top + argc) r = lytI_copy(&L->cx, L->stk[L->top - 1].v);
  lytI_cut(L, top);
  L->base = base;
  if (st == LYT_OK) return r;
  if (st < LYT_ERRSYNTAX || st > LYT_ERRLIMIT) st = LYT_ERRRUN;
  if (L->cmsg[0]) lytI_error(L, at, st, "%s() failed: %s", f->name, L->cmsg);
  if (L->cx.msg[0]) {  /* a failed call back into lyt: its message, copied (it is rewritten) */
    char inner[LYT_MSG_MAX];
    memcpy(inner, L->cx.msg, sizeof inner);
    lytI_error(L, at, st, "%s() failed: %s", f->name, inner);
  }
  lytI_error(L, at, st, "%s() failed", f->name);
}

/* ---------------------------------------------------------------------
** Reading
** ------------------------------------------------------------------- */

static void do_to_int(lyt_state *L, lytI_req *q) {
  *(int64_t *)q->out = lytI_at_kind(L, q->idx, LYT_VINT, "lyt_to_int")->u.i;
}

/* The readers: the value at idx into the caller's [out]. */
static void null_out(lyt_state *L, lytI_req *q) {
  lytS_fail(&L->cx, LYT_ERRRUN, "%s: the output pointer is NULL", q->target);
}

int lytI_read_into(lyt_state *L, lytI_protected fn, int idx, void *out, const char *api) {
  lytI_req q = { .idx = idx, .out = out, .target = api };
  return lytI_protect(L, out ? fn : null_out, &q);
}

int lyt_to_int(lyt_state *L, int idx, int64_t *i) {
  return lytI_read_into(L, do_to_int, idx, i, "lyt_to_int");
}

static void do_to_bool(lyt_state *L, lytI_req *q) {
  *(int *)q->out = (int)lytI_at_kind(L, q->idx, LYT_VBOOL, "lyt_to_bool")->u.i;
}

int lyt_to_bool(lyt_state *L, int idx, int *b) {
  return lytI_read_into(L, do_to_bool, idx, b, "lyt_to_bool");
}

static void do_to_string(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at_kind(L, q->idx, LYT_VSTR, "lyt_to_string");
  *(const char **)q->out = v->u.str.s;
  q->i = v->u.str.len;
}

/* Both string readers: the text through *s, its length through q.i. */
static int string_out(lyt_state *L, lytI_protected fn, int idx, const char **s, size_t *len,
                      const char *api) {
  lytI_req q = { .idx = idx, .out = (void *)s, .target = api };
  int st = lytI_protect(L, s ? fn : null_out, &q);
  if (st == LYT_OK && len) *len = (size_t)q.i;
  return st;
}

int lyt_to_string(lyt_state *L, int idx, const char **s, size_t *len) {
  return string_out(L, do_to_string, idx, s, len, "lyt_to_string");
}

static void do_len(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at(L, q->idx, "lyt_len");
  switch (v->kind) {
    case LYT_VTUP: case LYT_VTILER: q->i = v->u.tup.n; break;
    case LYT_VRECORD: q->i = v->u.rec.n; break;
    case LYT_VSTR: q->i = v->u.str.len; break;
    default:
      lytS_fail(&L->cx, LYT_ERRRUN, "lyt_len: value %d is %s %s, not a tuple, record or string",
                q->idx, lytI_article(v->kind), lytI_kindname(v->kind));
  }
  *(int64_t *)q->out = q->i;
}

int lyt_len(lyt_state *L, int idx, int64_t *n) {
  return lytI_read_into(L, do_len, idx, n, "lyt_len");
}

static void do_get_index(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at(L, q->idx, "lyt_get_index");
  if (v->kind != LYT_VTUP && v->kind != LYT_VTILER)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_get_index: value %d is %s %s, not a tuple", q->idx,
              lytI_article(v->kind), lytI_kindname(v->kind));
  if (q->i < 0 || q->i >= v->u.tup.n)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_get_index: index %lld is out of range for a tuple of %d",
              (long long)q->i, (int)v->u.tup.n);
  lytI_push(L, v->u.tup.e[q->i]);
}

int lyt_get_index(lyt_state *L, int idx, int64_t i) {
  lytI_req q = { .idx = idx, .i = i };
  return lytI_protect(L, do_get_index, &q);
}

static void do_get_field(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at_kind(L, q->idx, LYT_VRECORD, "lyt_get_field");
  for (int32_t i = 0; i < v->u.rec.n; i++)
    if (strcmp(v->u.rec.name[i], q->s) == 0) { lytI_push(L, v->u.rec.e[i]); return; }
  lytS_fail(&L->cx, LYT_ERRRUN, "lyt_get_field: the record has no field '%s'", q->s);
}

int lyt_get_field(lyt_state *L, int idx, const char *name) {
  lytI_req q = { .idx = idx, .s = name ? name : "" };
  return lytI_protect(L, do_get_field, &q);
}

static void do_tostring(lyt_state *L, lytI_req *q) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_print_value(&b, lytI_at(L, q->idx, "lyt_tostring"));
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = b.p;
  v.u.str.len = (int64_t)b.n;
  lytI_push(L, v);
  *(const char **)q->out = L->stk[L->top - 1].v.u.str.s;
  q->i = (int64_t)b.n;
}

int lyt_tostring(lyt_state *L, int idx, const char **s, size_t *len) {
  return string_out(L, do_tostring, idx, s, len, "lyt_tostring");
}

/* ---------------------------------------------------------------------
** Globals, calls, expressions
** ------------------------------------------------------------------- */

static void do_getglobal(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_getglobal(L, lytI_intern(L, q->s, strlen(q->s)));
  if (!v) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_getglobal: unknown name '%s'", q->s);
  lytI_push(L, *v);
}

int lyt_getglobal(lyt_state *L, const char *name) {
  lytI_req q = { .s = name ? name : "" };
  return lytI_protect(L, do_getglobal, &q);
}

static void do_setglobal(lyt_state *L, lytI_req *q) {
  if (!lytL_is_name(q->s)) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_setglobal: '%s' is not a name", q->s);
  lyt_value *v = lytI_take(L, 1, "lyt_setglobal");
  lytI_setglobal(L, lytI_intern(L, q->s, strlen(q->s)), lytI_copy_to(L, &L->perm, v[0]));
  lytI_cut(L, L->top - 1);
}

int lyt_setglobal(lyt_state *L, const char *name) {
  lytI_req q = { .s = name ? name : "" };
  return lytI_protect(L, do_setglobal, &q);
}

static void do_call(lyt_state *L, lytI_req *q) {
  if (q->n < 0) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_call: %d arguments", q->n);
  lyt_value *v = lytI_take(L, q->n + 1, "lyt_call");
  lyt_loc nowhere = { NULL, 0, 0 };
  lytI_replace(L, q->n + 1, lytI_call_value(L, v[0], q->n, v + 1, NULL, nowhere));
}

int lyt_call(lyt_state *L, int nargs) {
  lytI_req q = { .n = nargs };
  return lytI_protect(L, do_call, &q);
}

static void do_eval(lyt_state *L, lytI_req *q) {
  if (!q->s) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_eval: the text is NULL");
  lytI_push(L, lytI_eval_src(L, q->p ? (const char *)q->p : "<expr>", q->s, strlen(q->s)));
}

int lyt_eval(lyt_state *L, const char *expr, const char *name) {
  lytI_req q = { .s = expr, .p = name };
  return lytI_protect(L, do_eval, &q);
}
