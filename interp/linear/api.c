/*
** linear/api.c: linear layouts across the C boundary: pushing and reading
** them, and any layout or Triton encoding as one
** (lyt.h). Each entry runs protected and reaches the core through the
** same builtins and checks a script meets (eval/api.h).
*/
#include <string.h>

#include "interp/eval/api.h"
#include "interp/eval/kind.h"
#include "interp/linear/values.h"

_Static_assert(LYT_LINEAR_MAXDIMS == LYT_LL_MAXDIMS && LYT_LINEAR_MAXBITS == LYT_LL_MAXBITS,
               "lyt_linear mirrors lytG_ll");

static void do_linear(lyt_state *L, lytI_req *q) {
  const lyt_linear *d = q->p;
  lytS_ctx *cx = &L->cx;
  if (!d) lytS_fail(cx, LYT_ERRRUN, "lyt_push_linear: the description is NULL");
  if (d->nin < 0 || d->nin > LYT_LINEAR_MAXDIMS || d->nout < 0 || d->nout > LYT_LINEAR_MAXDIMS)
    lytS_fail(cx, LYT_ERRRUN, "lyt_push_linear: %d in-dims and %d out-dims (at most %d each)",
              d->nin, d->nout, LYT_LINEAR_MAXDIMS);
  const char *outs[LYT_LINEAR_MAXDIMS];
  int64_t sizes[LYT_LINEAR_MAXDIMS];
  for (int k = 0; k < d->nout; k++) {
    if (!d->out[k] || d->out_log2[k] < 0 || d->out_log2[k] > 62)
      lytS_fail(cx, LYT_ERRRUN, "lyt_push_linear: out-dim %d needs a name and a log2 size in 0..62", k);
    outs[k] = lytI_api_name(L, "lyt_push_linear", d->out[k]);
    sizes[k] = (int64_t)1 << d->out_log2[k];
  }
  lytG_inbases ins[LYT_LINEAR_MAXDIMS];
  int bit = 0;
  for (int i = 0; i < d->nin; i++) {
    if (!d->in[i] || d->in_log2[i] < 0 || bit + d->in_log2[i] > LYT_LINEAR_MAXBITS)
      lytS_fail(cx, LYT_ERRRUN, "lyt_push_linear: in-dim %d needs a name and a log2 size, %d bits in all at most",
                i, LYT_LINEAR_MAXBITS);
    int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)(d->in_log2[i] * d->nout + 1));
    for (int b = 0; b < d->in_log2[i]; b++)
      memcpy(v + b * d->nout, d->basis[bit + b], sizeof *v * (size_t)d->nout);
    ins[i].name = lytI_api_name(L, "lyt_push_linear", d->in[i]);
    ins[i].n = d->in_log2[i];
    ins[i].v = v;
    bit += d->in_log2[i];
  }
  lyt_value r = { .kind = LYT_VLINEAR };
  r.u.ll = lytG_from_bases(cx, d->nin, ins, d->nout, outs, sizes, 0);
  lytI_push(L, r);
}

int lyt_push_linear(lyt_state *L, const lyt_linear *d) {
  lytI_req q = { .p = d };
  return lytI_protect(L, do_linear, &q);
}

static void do_to_linear(lyt_state *L, lytI_req *q) {
  lyt_linear *d = q->out;
  const lytG_ll *ll = lytI_at_kind(L, q->idx, LYT_VLINEAR, "lyt_to_linear")->u.ll;
  memset(d, 0, sizeof *d);
  d->nin = ll->nin;
  d->nout = ll->nout;
  for (int k = 0; k < ll->nout; k++) d->out[k] = ll->out[k].name, d->out_log2[k] = ll->out[k].log2;
  int bit = 0;
  for (int i = 0; i < ll->nin; i++) {
    d->in[i] = ll->in[i].name;
    d->in_log2[i] = ll->in[i].log2;
    for (int b = 0; b < ll->in[i].log2; b++, bit++)
      for (int k = 0; k < ll->nout; k++) d->basis[bit][k] = lytG_basis(ll, i, b, k);
  }
}

int lyt_to_linear(lyt_state *L, int idx, lyt_linear *d) {
  return lytI_read_into(L, do_to_linear, idx, d, "lyt_to_linear");
}

/* Triton's encodings are stdlib functions; a host that never imported
** the stdlib still gets them. */
static lyt_value to_linear_fn(lyt_state *L) {
  const lyt_value *f = lytI_stdlib_global(L, "to_linear", "triton.lyt");
  if (!f) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: the stdlib defines no to_linear");
  return *f;
}

static void do_linear_of(lyt_state *L, lytI_req *q) {
  lyt_value *v = lytI_take(L, 1, "lyt_linear_of"), r;
  if (v->kind != LYT_VRECORD && q->n)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: a shape is only for an encoding, not %s %s",
              lytI_article(v->kind), lytI_kindname(v->kind));
  if (v->kind == LYT_VRECORD) {
    if (q->n < 1 || !q->in) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: an encoding needs a shape");
    lyt_value a[2] = { *v, { .kind = LYT_VTUP } };
    a[1].u.tup.n = q->n;
    a[1].u.tup.e = lytS_alloc(&L->cx, sizeof *a[1].u.tup.e * (size_t)q->n);
    for (int i = 0; i < q->n; i++) a[1].u.tup.e[i] = lytI_int(q->in[i]);
    r = lytI_api_call(L, to_linear_fn(L), 2, a);
    if (r.kind != LYT_VLINEAR) lytI_api_wrong(L, "lyt_linear_of: to_linear", &r, "a linear layout");
  } else if (v->kind == LYT_VAXE) {
    r = lytI_api_builtin(L, "axe_to_linear", 1, v);
  } else if (lytI_kinds[v->kind].to_linear) {
    r = lytI_api_builtin(L, "linear", 1, v);
  } else {
    lytI_api_wrong(L, "lyt_linear_of", v, "a layout or a Triton encoding");
  }
  lytI_replace(L, 1, r);
}

int lyt_linear_of(lyt_state *L, int rank, const int64_t *shape) {
  lytI_req q = { .n = rank, .in = shape };
  return lytI_protect(L, do_linear_of, &q);
}

