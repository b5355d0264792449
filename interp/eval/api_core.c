/*
** eval/api_core.c: the cores from C without source text (lyt.h, "The cores,
** without source text").
**
** Each entry runs the same C function the language's builtin runs, found
** in the library tables rather than among the globals, so a script that
** rebinds `compose` cannot change what the host gets, and every check and
** message is the one a script would meet. The exception is lyt_linear_of
** of an encoding record: the encodings are written in lyt (stdlib), so it
** calls the stdlib module's to_linear (importing triton.lyt if need be).
*/
#include <string.h>

#include "interp/eval/api.h"

lyt_value lytI_api_call(lyt_state *L, lyt_value f, int argc, lyt_value *argv) {
  lyt_loc nowhere = { NULL, 0, 0 };
  return lytI_call_value(L, f, argc, argv, NULL, nowhere);
}

lyt_value lytI_api_builtin(lyt_state *L, const char *name, int argc, lyt_value *argv) {
  lyt_loc nowhere = { NULL, 0, 0 };
  return lytI_call_builtin(L, name, argc, argv, NULL, nowhere);
}

static int is_stride(lyt_vkind k) {
  return k == LYT_VLAYOUT || k == LYT_VCOMPOSED || k == LYT_VSWIZZLE;
}

_Noreturn void lytI_api_wrong(lyt_state *L, const char *api, const lyt_value *v, const char *want) {
  lytS_fail(&L->cx, LYT_ERRRUN, "%s: got %s %s, want %s", api, lytI_article(v->kind),
            lytI_kindname(v->kind), want);
}

/* Integer leaves of a result (an int, a tuple of them, or a record of
** out-dims) into out[], in order. */
static void leaves(lyt_state *L, const lyt_value *v, const lytI_req *q) {
  if (v->kind == LYT_VINT) {
    if (*q->nout >= q->n) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_apply: more than %d outputs", q->n);
    ((int64_t *)q->out)[(*q->nout)++] = v->u.i;
    return;
  }
  int32_t n = v->kind == LYT_VRECORD ? v->u.rec.n : v->u.tup.n;
  const lyt_value *e = v->kind == LYT_VRECORD ? v->u.rec.e : v->u.tup.e;
  for (int32_t i = 0; i < n; i++) leaves(L, &e[i], q);
}

static void do_apply(lyt_state *L, lytI_req *q) {
  const lyt_value *f = lytI_at(L, q->idx, "lyt_apply");
  if (!is_stride(f->kind) && f->kind != LYT_VLINEAR)
    lytI_api_wrong(L, "lyt_apply", f, "a stride or linear layout");
  if (q->nin < 1 || !q->in || !q->out)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_apply: %d inputs (at least 1, and room for the outputs)", q->nin);
  lyt_value *argv = lytS_alloc(&L->cx, sizeof *argv * (size_t)q->nin);
  for (int i = 0; i < q->nin; i++) argv[i] = lytI_int(q->in[i]);
  lyt_value r = lytI_api_call(L, *f, q->nin, argv);  /* a layout runs no C function: the slot stays put */
  *q->nout = 0;
  leaves(L, &r, q);
}

int lyt_apply(lyt_state *L, int idx, int nin, const int64_t *in, int cap, int *nout,
              int64_t *out) {
  int got = 0;
  lytI_req q = { .idx = idx, .n = cap, .nin = nin, .in = in, .out = out, .nout = &got };
  int st = lytI_protect(L, do_apply, &q);
  if (nout) *nout = st == LYT_OK ? got : 0;
  return st;
}

static void do_compose(lyt_state *L, lytI_req *q) {
  (void)q;
  lyt_value *v = lytI_take(L, 2, "lyt_compose");
  lyt_value r;
  if (is_stride(v[0].kind) && is_stride(v[1].kind)) r = lytI_api_builtin(L, "composition", 2, v);
  else if (v[0].kind == LYT_VLINEAR && v[1].kind == LYT_VLINEAR) {
    lyt_value bv[2] = { v[1], v[0] };  /* B first, then A: B.compose(A) */
    r = lytI_api_builtin(L, "compose", 2, bv);
  } else
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_compose: %s and %s: want two stride or two linear layouts",
              lytI_kindname(v[0].kind), lytI_kindname(v[1].kind));
  lytI_replace(L, 2, r);
}

int lyt_compose(lyt_state *L) { return lytI_protect(L, do_compose, NULL); }


/* explain(text, name, format) as the language's builtin runs it. */
static void do_explain(lyt_state *L, lytI_req *q) {
  lyt_value v[3] = { { .kind = LYT_VSTR }, { .kind = LYT_VSTR }, lytI_nil() };
  if (!q->p) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_explain: no text");
  v[0].u.str.s = q->p;
  v[0].u.str.len = (int64_t)q->len;
  v[1].u.str.s = q->name;
  v[1].u.str.len = (int64_t)strlen(q->name);
  if (q->s) {
    v[2] = (lyt_value){ .kind = LYT_VSTR };
    v[2].u.str.s = q->s;
    v[2].u.str.len = (int64_t)strlen(q->s);
  }
  lytI_push(L, lytI_api_builtin(L, "explain", 3, v));
}

int lyt_explain(lyt_state *L, const char *text, size_t len, const char *name, const char *format) {
  lytI_req q = { .p = text, .len = len, .name = name ? name : "<ttgir>", .s = format };
  return lytI_protect(L, do_explain, &q);
}
