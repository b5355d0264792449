/*
** api_core.c: the cores from C without source text (lyt.h, "The cores,
** without source text").
**
** Each entry runs the same C function the language's builtin runs, found
** in the library tables rather than among the globals, so a script that
** rebinds `compose` cannot change what the host gets, and every check and
** message is the one a script would meet. The exception is lyt_linear_of
** of an encoding record: the encodings are written in lyt (stdlib), so it
** calls the global to_linear, importing triton.lyt when none is bound.
*/
#include <string.h>

#include "interp/axe/axe.h"
#include "interp/axisinfo/axisinfo.h"
#include "interp/state.h"

_Static_assert(LYT_LINEAR_MAXDIMS == LYT_LL_MAXDIMS && LYT_LINEAR_MAXBITS == LYT_LL_MAXBITS,
               "lyt_linear mirrors lytG_ll");
_Static_assert(LYT_AXE_MAXITERS == LYTX_MAXITERS && LYT_AXE_MAXAXES == LYTX_MAXAXES,
               "lyt_axe mirrors lytX_layout");
_Static_assert(LYT_AXIS_MAXRANK == LYTV_MAXRANK, "lyt_axisinfo mirrors lytV_info");

typedef struct req {
  int idx, n, nin;
  const int64_t *in;
  int64_t *out;
  int *nout;
  const char *target, *arch;
  char *buf;
  size_t cap, len;
  const void *p;
} req;

static lyt_value call(lyt_state *L, lyt_value f, int argc, lyt_value *argv) {
  lyt_loc nowhere = { NULL, 0, 0 };
  return lytI_call_value(L, f, argc, argv, NULL, nowhere);
}

static lyt_value builtin(lyt_state *L, const char *name, int argc, lyt_value *argv) {
  for (size_t k = 0; lytI_libs[k]; k++)
    for (const lytI_builtin *b = lytI_libs[k]; b->name; b++)
      if (strcmp(b->name, name) == 0) {
        lyt_value f = { .kind = LYT_VBUILTIN };
        f.u.bi = b;
        return call(L, f, argc, argv);
      }
  lytS_fail(&L->cx, LYT_ERRRUN, "no builtin '%s'", name);
}

static int is_stride(lyt_vkind k) {
  return k == LYT_VLAYOUT || k == LYT_VCOMPOSED || k == LYT_VSWIZZLE;
}

static _Noreturn void wrong(lyt_state *L, const char *api, const lyt_value *v, const char *want) {
  lytS_fail(&L->cx, LYT_ERRRUN, "%s: got %s %s, want %s", api, lytI_article(v->kind),
            lytI_kindname(v->kind), want);
}

/* Integer leaves of a result (an int, a tuple of them, or a record of
** out-dims) into out[], in order. */
static void leaves(lyt_state *L, const lyt_value *v, const req *q) {
  if (v->kind == LYT_VINT) {
    if (*q->nout == q->n) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_apply: more than %d outputs", q->n);
    q->out[(*q->nout)++] = v->u.i;
    return;
  }
  int32_t n = v->kind == LYT_VRECORD ? v->u.rec.n : v->u.tup.n;
  const lyt_value *e = v->kind == LYT_VRECORD ? v->u.rec.e : v->u.tup.e;
  for (int32_t i = 0; i < n; i++) leaves(L, &e[i], q);
}

static void do_apply(lyt_state *L, void *ud) {
  const req *q = ud;
  const lyt_value *f = lytI_at(L, q->idx, "lyt_apply");
  if (!is_stride(f->kind) && f->kind != LYT_VLINEAR)
    wrong(L, "lyt_apply", f, "a stride or linear layout");
  if (q->nin < 1 || !q->in || !q->out)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_apply: %d inputs (at least 1, and room for the outputs)", q->nin);
  lyt_value *argv = lytS_alloc(&L->cx, sizeof *argv * (size_t)q->nin);
  for (int i = 0; i < q->nin; i++) argv[i] = lytI_int(q->in[i]);
  lyt_value r = call(L, *f, q->nin, argv);  /* a layout runs no C function: the slot stays put */
  *q->nout = 0;
  leaves(L, &r, q);
}

int lyt_apply(lyt_state *L, int idx, int nin, const int64_t *in, int cap, int *nout,
              int64_t *out) {
  int got = 0;
  req q = { .idx = idx, .n = cap, .nin = nin, .in = in, .out = out, .nout = &got };
  int st = lytI_protect(L, do_apply, &q);
  if (nout) *nout = st == LYT_OK ? got : 0;
  return st;
}

static void do_compose(lyt_state *L, void *ud) {
  (void)ud;
  lyt_value *v = lytI_take(L, 2, "lyt_compose");
  lyt_value r;
  if (is_stride(v[0].kind) && is_stride(v[1].kind)) r = builtin(L, "composition", 2, v);
  else if (v[0].kind == LYT_VLINEAR && v[1].kind == LYT_VLINEAR) {
    lyt_value bv[2] = { v[1], v[0] };  /* B first, then A: B.compose(A) */
    r = builtin(L, "compose", 2, bv);
  } else
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_compose: %s and %s: want two stride or two linear layouts",
              lytI_kindname(v[0].kind), lytI_kindname(v[1].kind));
  lytI_replace(L, 2, r);
}

int lyt_compose(lyt_state *L) { return lytI_protect(L, do_compose, NULL); }

static void do_invert(lyt_state *L, void *ud) {
  (void)ud;
  lyt_value *v = lytI_take(L, 1, "lyt_invert");
  if (v->kind == LYT_VLINEAR) { lytI_replace(L, 1, builtin(L, "invert", 1, v)); return; }
  if (v->kind != LYT_VLAYOUT) wrong(L, "lyt_invert", v, "a stride or linear layout");
  /* right_inverse R has L(R(i)) == i on the image's contiguous prefix;
  ** when that prefix is all of [0, size), L is a bijection and R its
  ** inverse. Anything less is not an inverse, so it is an error. */
  lyt_value r = builtin(L, "right_inverse", 1, v);
  int64_t n = lytS_lsize(&L->cx, v->u.lay), m = lytS_lsize(&L->cx, r.u.lay);
  if (n != m)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_invert: %s is not a bijection onto [0, %lld) (its right "
              "inverse covers %lld): use right_inverse or left_inverse",
              lytS_layout_str(&L->cx, v->u.lay), (long long)n, (long long)m);
  lytI_replace(L, 1, r);
}

int lyt_invert(lyt_state *L) { return lytI_protect(L, do_invert, NULL); }

/* Triton's encodings are stdlib functions; a host that never imported
** the stdlib still gets them. */
static lyt_value to_linear_fn(lyt_state *L) {
  const lyt_value *f = lytI_getglobal(L, lytI_intern(L, "to_linear", 9));
  if (!f) {
    lytI_run_src(L, "<lyt_linear_of>", "import \"triton.lyt\"\n", 19);
    f = lytI_getglobal(L, lytI_intern(L, "to_linear", 9));
  }
  if (!f) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: the stdlib defines no to_linear");
  return *f;
}

static void do_linear_of(lyt_state *L, void *ud) {
  const req *q = ud;
  lyt_value *v = lytI_take(L, 1, "lyt_linear_of"), r;
  if (v->kind != LYT_VRECORD && q->n)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: a shape is only for an encoding, not %s %s",
              lytI_article(v->kind), lytI_kindname(v->kind));
  switch (v->kind) {
    case LYT_VLINEAR: r = *v; break;
    case LYT_VLAYOUT: case LYT_VCOMPOSED: case LYT_VNESTED: r = builtin(L, "linear", 1, v); break;
    case LYT_VAXE: r = builtin(L, "axe_to_linear", 1, v); break;
    case LYT_VRECORD: {
      if (q->n < 1 || !q->in) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_linear_of: an encoding needs a shape");
      lyt_value a[2] = { *v, { .kind = LYT_VTUP } };
      a[1].u.tup.n = q->n;
      a[1].u.tup.e = lytS_alloc(&L->cx, sizeof *a[1].u.tup.e * (size_t)q->n);
      for (int i = 0; i < q->n; i++) a[1].u.tup.e[i] = lytI_int(q->in[i]);
      r = call(L, to_linear_fn(L), 2, a);
      if (r.kind != LYT_VLINEAR) wrong(L, "lyt_linear_of: to_linear", &r, "a linear layout");
      break;
    }
    default: wrong(L, "lyt_linear_of", v, "a layout or a Triton encoding");
  }
  lytI_replace(L, 1, r);
}

int lyt_linear_of(lyt_state *L, int rank, const int64_t *shape) {
  req q = { .n = rank, .in = shape };
  return lytI_protect(L, do_linear_of, &q);
}

static void do_to_axisinfo(lyt_state *L, void *ud) {
  const req *q = ud;
  const lyt_value *v = lytI_at(L, q->idx, "lyt_to_axisinfo");
  if (v->kind != LYT_VINDEX) wrong(L, "lyt_to_axisinfo", v, "an index value");
  lytV_info in = q->n ? lytV_exact_info(&L->cx, v->u.index) : v->u.index->info;
  lyt_axisinfo *o = (lyt_axisinfo *)(void *)q->out;
  memset(o, 0, sizeof *o);
  o->rank = in.rank;
  for (int d = 0; d < in.rank; d++) {
    o->contiguity[d] = in.contiguity[d];
    o->divisibility[d] = in.divisibility[d];
    o->constancy[d] = in.constancy[d];
  }
}

int lyt_to_axisinfo(lyt_state *L, int idx, int exact, lyt_axisinfo *info) {
  req q = { .idx = idx, .n = exact != 0, .out = (int64_t *)(void *)info };
  return lytI_protect(L, do_to_axisinfo, &q);
}

typedef struct width_req {
  const lyt_axisinfo *info;
  int dim, elem_bytes, ptr_align;
  int64_t per, width;
} width_req;

static void do_vector_width(lyt_state *L, void *ud) {
  width_req *q = ud;
  const lyt_axisinfo *a = q->info;
  lytS_ctx *cx = &L->cx;
  if (!a || a->rank < 1 || a->rank > LYT_AXIS_MAXRANK)
    lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: rank %d (1..%d)", a ? a->rank : 0, LYT_AXIS_MAXRANK);
  if (q->dim < 0 || q->dim >= a->rank)
    lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: dim %d is not a dim of a rank-%d access", q->dim, a->rank);
  lytV_info in;
  memset(&in, 0, sizeof in);
  in.rank = a->rank;
  for (int d = 0; d < a->rank; d++) {
    if (a->contiguity[d] < 1 || a->constancy[d] < 1 || !lytS_is_pow2(a->divisibility[d]))
      lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: dim %d: contiguity and constancy must be >= 1 "
                "and divisibility a power of two", d);
    in.contiguity[d] = a->contiguity[d];
    in.divisibility[d] = a->divisibility[d];
    in.constancy[d] = a->constancy[d];
  }
  if (q->per < 0) lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: elems_per_thread is negative");
  q->width = lytV_vector_width(cx, &in, q->dim, q->elem_bytes, q->ptr_align,
                               q->per ? q->per : (int64_t)1 << 30);
}

int lyt_vector_width(lyt_state *L, const lyt_axisinfo *info, int dim, int elem_bytes,
                     int ptr_align, int64_t elems_per_thread, int64_t *width) {
  width_req q = { info, dim, elem_bytes, ptr_align, elems_per_thread, 0 };
  int st = lytI_protect(L, do_vector_width, &q);
  if (st == LYT_OK && width) *width = q.width;
  return st;
}

static lyt_value str(const char *s) {
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = s;
  v.u.str.len = (int64_t)strlen(s);
  return v;
}

static void do_emit_kernel(lyt_state *L, void *ud) {
  req *q = ud;
  const lyt_value *v = lytI_at(L, q->idx, "lyt_emit_kernel");
  if (v->kind != LYT_VKERNEL) wrong(L, "lyt_emit_kernel", v, "a kernel");
  lyt_value argv[3] = { *v, str(q->target ? q->target : ""), q->arch ? str(q->arch) : lytI_nil() };
  lyt_value code = builtin(L, "emit", 3, argv);
  q->len = (size_t)code.u.str.len;
  if (q->len >= q->cap || !q->buf)
    lytS_fail(&L->cx, LYT_ERRLIMIT, "lyt_emit_kernel: the code takes %zu bytes and a NUL; the "
              "buffer holds %zu", q->len, q->cap);
  memcpy(q->buf, code.u.str.s, q->len);
  q->buf[q->len] = 0;
}

int lyt_emit_kernel(lyt_state *L, int idx, const char *target, const char *arch, char *buf,
                    size_t cap, size_t *len) {
  req q = { .idx = idx, .target = target, .arch = arch, .buf = buf, .cap = cap };
  int st = lytI_protect(L, do_emit_kernel, &q);
  if (len) *len = q.len;
  return st;
}
