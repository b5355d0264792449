/*
** linear/builtins.c: linear layouts over GF(2) in the language: the literal
** `{in: bases, ...} -> {out: size, ...}`, the product `*`, application
** with named inputs, and one builtin per Triton LinearLayout operation,
** under Triton's Python names. Dim names are interned, because the core
** keeps pointers to them for as long as a layout lives.
*/
#include <string.h>

#include "interp/eval/kind.h"
#include "interp/linear/convert.h"
#include "interp/linear/values.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

static lyt_value ll_val(const lytG_ll *ll) {
  lyt_value v = { .kind = LYT_VLINEAR };
  v.u.ll = ll;
  return v;
}

static const char *intern_str(lyt_state *L, const lyt_value *v) {
  return lytI_intern(L, v->u.str.s, (size_t)v->u.str.len);
}

/* ---------------------------------------------------------------------
** Reading arguments
** ------------------------------------------------------------------- */

static const lytG_ll *get_ll(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VLINEAR)
    lytI_argerr(c, i, "%s: '%s' must be a linear layout, got %s", c->self->name,
                c->self->params[i] ? c->self->params[i] : "argument",
                i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.ll;
}

static const char *get_name(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VSTR)
    lytI_argerr(c, i, "%s: '%s' must be a dim name string, got %s", c->self->name,
                c->self->params[i], i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return intern_str(c->L, &c->argv[i]);
}

static int is_seq(const lyt_value *v) {
  return v->kind == LYT_VTUP || v->kind == LYT_VTILER;
}

/* A list of dim names: a tuple/list of strings, or a record's field names. */
static int32_t get_names(lytI_call *c, int i, const char **out) {
  const lyt_value *v = &c->argv[i];
  if (v->kind == LYT_VRECORD) {
    if (v->u.rec.n > LYT_LL_MAXDIMS) lytI_argerr(c, i, "%s: too many dims", c->self->name);
    for (int32_t k = 0; k < v->u.rec.n; k++) out[k] = v->u.rec.name[k];
    return v->u.rec.n;
  }
  if (v->kind == LYT_VSTR) { out[0] = intern_str(c->L, v); return 1; }
  if (!is_seq(v) || v->u.tup.n > LYT_LL_MAXDIMS)
    lytI_argerr(c, i, "%s: '%s' must be a list of dim names", c->self->name, c->self->params[i]);
  for (int32_t k = 0; k < v->u.tup.n; k++) {
    if (v->u.tup.e[k].kind != LYT_VSTR)
      lytI_argerr(c, i, "%s: dim names must be strings, got %s", c->self->name,
                  lytI_kindname(v->u.tup.e[k].kind));
    out[k] = intern_str(c->L, &v->u.tup.e[k]);
  }
  return v->u.tup.n;
}

/* A shape: an int or a tuple of ints; dims are dim0, dim1, ... */
static int32_t get_shape(lytI_call *c, int i, int64_t *out) {
  return lytI_getints(c, i, out, 0, LYT_LL_MAXDIMS);
}

/* ---------------------------------------------------------------------
** The literal
** ------------------------------------------------------------------- */

/* One basis vector: a list of nout integers (or one integer when nout is 1). */
static void read_vector(lyt_state *L, lyt_loc at, const lyt_value *v, int32_t nout,
                        const char *dim, int64_t *out) {
  if (v->kind == LYT_VINT && nout == 1) { out[0] = v->u.i; return; }
  if (!is_seq(v) || v->u.tup.n != nout)
    lytI_error(L, at, LYT_ERRRUN, "a basis of '%s' must list %d integer%s, one per output dim",
               dim, (int)nout, nout == 1 ? "" : "s");
  for (int32_t k = 0; k < nout; k++) {
    if (v->u.tup.e[k].kind != LYT_VINT)
      lytI_error(L, at, LYT_ERRRUN, "a basis of '%s' holds %s, not an integer", dim,
                 lytI_kindname(v->u.tup.e[k].kind));
    out[k] = v->u.tup.e[k].u.i;
  }
}

static void read_bases(lyt_state *L, lyt_loc at, const lyt_value *ins, int32_t nout,
                       lytG_inbases *out) {
  for (int32_t i = 0; i < ins->u.rec.n; i++) {
    const lyt_value *list = &ins->u.rec.e[i];
    const char *dim = ins->u.rec.name[i];
    if (!is_seq(list))
      lytI_error(L, at, LYT_ERRRUN, "the bases of '%s' must be a list like [[1,0],[0,1]], got %s",
                 dim, lytI_kindname(list->kind));
    if (list->u.tup.n > LYT_LL_MAXBITS)
      lytI_error(L, at, LYT_ERRRUN, "'%s' has %d bases; at most 64 input bits", dim,
                 (int)list->u.tup.n);
    int64_t *v = lytS_alloc(&L->cx, sizeof *v * (size_t)(list->u.tup.n * nout + 1));
    for (int32_t j = 0; j < list->u.tup.n; j++)
      read_vector(L, at, &list->u.tup.e[j], nout, dim, v + (size_t)j * (size_t)nout);
    out[i].name = dim;
    out[i].n = list->u.tup.n;
    out[i].v = v;
  }
}

lyt_value lytI_linear_literal(lyt_state *L, lyt_loc at, const lyt_value *ins, lyt_loc inloc,
                              const lyt_value *outs, lyt_loc outloc) {
  if (ins->kind != LYT_VRECORD)
    lytI_error(L, inloc, LYT_ERRRUN, "'->' needs a record of input bases on its left, got %s",
               lytI_kindname(ins->kind));
  if (outs->kind != LYT_VRECORD)
    lytI_error(L, outloc, LYT_ERRRUN, "'->' needs a record of output dims on its right, got %s",
               lytI_kindname(outs->kind));
  int32_t nout = outs->u.rec.n, nsized = 0;
  if (ins->u.rec.n > LYT_LL_MAXDIMS || nout > LYT_LL_MAXDIMS)
    lytI_error(L, at, LYT_ERRRUN, "a linear layout has at most %d input and %d output dims",
               LYT_LL_MAXDIMS, LYT_LL_MAXDIMS);
  int64_t sizes[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < nout; k++) {
    const lyt_value *s = &outs->u.rec.e[k];
    if (s->kind == LYT_VINT) sizes[nsized++] = s->u.i;
    else if (s->kind != LYT_VNIL)
      lytI_error(L, outloc, LYT_ERRRUN, "the size of output dim '%s' must be an integer, got %s",
                 outs->u.rec.name[k], lytI_kindname(s->kind));
  }
  if (nsized != 0 && nsized != nout)
    lytI_error(L, outloc, LYT_ERRRUN,
               "give every output dim a size, or none (then sizes are inferred)");
  lytG_inbases *b = lytS_alloc(&L->cx, sizeof *b * (size_t)(ins->u.rec.n + 1));
  read_bases(L, inloc, ins, nout, b);
  L->errloc = at;
  return ll_val(lytG_from_bases(&L->cx, ins->u.rec.n, b, nout, outs->u.rec.name,
                                nsized ? sizes : NULL, nsized ? 0 : 1));
}

lyt_value lytI_linear_mul(lyt_state *L, lyt_loc at, const lyt_value *a, const lyt_value *b) {
  if (a->kind != LYT_VLINEAR || b->kind != LYT_VLINEAR)
    lytI_error(L, at, LYT_ERRRUN, "'*' multiplies two linear layouts, got %s and %s",
               lytI_kindname(a->kind), lytI_kindname(b->kind));
  L->errloc = at;
  return ll_val(lytG_product(&L->cx, a->u.ll, b->u.ll));
}

/* ---------------------------------------------------------------------
** Application: L(register=1, lane=3), or positionally in in-dim order.
** An input dim not given is 0.
** ------------------------------------------------------------------- */

/* A record with one field per dim, named like it, values nil. */
static lyt_value dim_fields(lytI_call *c, int32_t n, const lytG_dim *d) {
  const char *names[LYT_LL_MAXDIMS] = { NULL };
  for (int32_t k = 0; k < n; k++) names[k] = d[k].name;
  return lytI_record(c, n, names);
}

static lyt_value out_record(lytI_call *c, const lytG_ll *ll, const int64_t *out) {
  lyt_value r = dim_fields(c, ll->nout, ll->out);
  for (int32_t k = 0; k < ll->nout; k++) r.u.rec.e[k] = lytI_int(out[k]);
  return r;
}

static lyt_value apply_vals(lytI_call *c, const lytG_ll *ll, const int64_t *vals) {
  int64_t out[LYT_LL_MAXDIMS];
  lytG_apply_checked(CX(c), ll, vals, out);
  return out_record(c, ll, out);
}

lyt_value lytI_apply_linear(lytI_call *c) {
  const lytG_ll *ll = c->argv[0].u.ll;
  int64_t vals[LYT_LL_MAXDIMS] = { 0 };
  for (int i = 1; i < c->argc; i++) {
    const char *kw = c->kw ? c->kw[i - 1] : NULL;
    int32_t d = kw ? lytG_in_index(ll, kw) : i - 1;
    if (kw && d < 0) lytI_argerr(c, i, "the layout has no input dim '%s'", kw);
    if (!kw && d >= ll->nin)
      lytI_argerr(c, i, "the layout has %d input dim%s, got %d values", (int)ll->nin,
                  ll->nin == 1 ? "" : "s", c->argc - 1);
    if (c->argv[i].kind != LYT_VINT)
      lytI_argerr(c, i, "an input value must be an integer, got %s",
                  lytI_kindname(c->argv[i].kind));
    vals[d] = c->argv[i].u.i;
  }
  return apply_vals(c, ll, vals);
}

/* ---------------------------------------------------------------------
** Builtins
** ------------------------------------------------------------------- */

static lyt_value b_identity_1d(lytI_call *c) {
  return ll_val(lytG_identity_1d(CX(c), lytI_getint(c, 0), get_name(c, 1), get_name(c, 2)));
}

static lyt_value b_zeros_1d(lytI_call *c) {
  int64_t out = lytI_isnil(c, 3) ? 1 : lytI_getint(c, 3);
  return ll_val(lytG_zeros_1d(CX(c), lytI_getint(c, 0), get_name(c, 1), get_name(c, 2), out));
}

static lyt_value b_strided_1d(lytI_call *c) {
  return ll_val(lytG_strided_1d(CX(c), lytI_getint(c, 0), lytI_getint(c, 1), get_name(c, 2),
                                get_name(c, 3)));
}

static lyt_value b_empty(lytI_call *c) { return ll_val(lytG_empty(CX(c))); }

/* from_bases(bases, out_dim_names, out_dim_sizes?, require_surjective?) */
static lyt_value b_from_bases(lytI_call *c) {
  if (c->argv[0].kind != LYT_VRECORD)
    lytI_argerr(c, 0, "from_bases: 'bases' must be a record {in_dim: [[...], ...]}");
  const char *names[LYT_LL_MAXDIMS];
  int64_t sizes[LYT_LL_MAXDIMS];
  int32_t nout = get_names(c, 1, names), nsz = lytI_isnil(c, 2) ? -1 : get_shape(c, 2, sizes);
  if (nsz >= 0 && nsz != nout)
    lytI_argerr(c, 2, "from_bases: %d sizes for %d output dims", (int)nsz, (int)nout);
  int surj = lytI_isnil(c, 3) ? 1 : c->argv[3].kind == LYT_VBOOL && c->argv[3].u.i;
  if (!surj && nsz < 0)
    lytI_argerr(c, 3, "from_bases: a layout that need not be surjective needs out_dim_sizes");
  lytG_inbases *b = lytS_alloc(CX(c), sizeof *b * (size_t)(c->argv[0].u.rec.n + 1));
  read_bases(c->L, c->argloc[0], &c->argv[0], nout, b);
  c->L->errloc = c->loc;
  return ll_val(lytG_from_bases(CX(c), c->argv[0].u.rec.n, b, nout, names,
                                nsz >= 0 ? sizes : NULL, surj));
}

static lyt_value b_compose(lytI_call *c) {
  return ll_val(lytG_compose(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_invert_and_compose(lytI_call *c) {
  return ll_val(lytG_invert_and_compose(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_invert(lytI_call *c) { return ll_val(lytG_invert(CX(c), get_ll(c, 0))); }
static lyt_value b_pseudoinvert(lytI_call *c) {
  return ll_val(lytG_pseudoinvert(CX(c), get_ll(c, 0)));
}

/* apply(L, {register: 1, lane: 3}) */
static lyt_value b_apply(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  const lyt_value *r = &c->argv[1];
  if (r->kind != LYT_VRECORD)
    lytI_argerr(c, 1, "apply: the inputs must be a record {in_dim: value, ...}");
  int64_t vals[LYT_LL_MAXDIMS] = { 0 };
  for (int32_t i = 0; i < r->u.rec.n; i++) {
    int32_t d = lytG_in_index(ll, r->u.rec.name[i]);
    if (d < 0) lytI_argerr(c, 1, "apply: the layout has no input dim '%s'", r->u.rec.name[i]);
    if (r->u.rec.e[i].kind != LYT_VINT)
      lytI_argerr(c, 1, "apply: the value of '%s' must be an integer", r->u.rec.name[i]);
    vals[d] = r->u.rec.e[i].u.i;
  }
  return apply_vals(c, ll, vals);
}

static lyt_value b_is_surjective(lytI_call *c) { return lytI_bool(lytG_is_surjective(get_ll(c, 0))); }
static lyt_value b_is_injective(lytI_call *c) { return lytI_bool(lytG_is_injective(get_ll(c, 0))); }
static lyt_value b_is_invertible(lytI_call *c) { return lytI_bool(lytG_is_invertible(get_ll(c, 0))); }
static lyt_value b_num_consecutive(lytI_call *c) {
  return lytI_int(lytG_num_consecutive(get_ll(c, 0)));
}

/* A record {in_dim: mask, ...} in the layout's in-dim order. */
static lyt_value b_free_variable_masks(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  uint64_t m[LYT_LL_MAXDIMS];
  lytG_free_variable_masks(ll, m);
  lyt_value r = dim_fields(c, ll->nin, ll->in);
  for (int32_t i = 0; i < ll->nin; i++) r.u.rec.e[i] = lytI_int((int64_t)m[i]);
  return r;
}

/* With or_nil true, nil where no factor exists (Triton's divideLeft and
** divideRight return an empty optional), else an error that says why. */
static lyt_value divide_side(lytI_call *c, int left) {
  const lytG_ll *A = get_ll(c, 0), *B = get_ll(c, 1);
  if (!lytI_isnil(c, 2) && c->argv[2].kind == LYT_VBOOL && c->argv[2].u.i) {
    lytG_ll *C = left ? lytG_try_divide_left(CX(c), A, B) : lytG_try_divide_right(CX(c), A, B);
    return C ? ll_val(C) : lytI_nil();
  }
  return ll_val(left ? lytG_divide_left(CX(c), A, B) : lytG_divide_right(CX(c), A, B));
}
static lyt_value b_divide_left(lytI_call *c) { return divide_side(c, 1); }
static lyt_value b_divide_right(lytI_call *c) { return divide_side(c, 0); }

static lyt_value b_quotient(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return ll_val(lytG_quotient(CX(c), get_ll(c, 0), n, d));
}

/* What Triton's lowering does for convert_layout(src -> dst). */
static lyt_value b_convert_plan(lytI_call *c) {
  lytG_cvt plan;
  lytG_cvt_plan(CX(c), get_ll(c, 0), get_ll(c, 1), &plan);
  static const char *const names[] = { "mechanism", "minimal", "transpositions" };
  lyt_value r = lytI_record(c, 3, names);
  r.u.rec.e[0] = lytI_str(c, lytG_cvt_name(plan.kind));
  r.u.rec.e[1] = ll_val(plan.minimal);
  r.u.rec.e[2] = plan.transpositions >= 0 ? lytI_int(plan.transpositions) : lytI_nil();
  return r;
}

/* Triton's LayoutUtils (linear/utils.c) */
static lyt_value b_square_sublayout_is_identity(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return lytI_bool(lytG_square_sublayout_is_identity(CX(c), get_ll(c, 0), n, d));
}

static lyt_value b_get_output_basis_mask(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return lytI_int((int64_t)lytG_output_basis_mask(CX(c), get_ll(c, 0), n, d, get_name(c, 2)));
}

static lyt_value b_get_input_basis_mask(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 2, d);
  return lytI_int((int64_t)lytG_input_basis_mask(CX(c), get_ll(c, 0), get_name(c, 1), n, d));
}

static lyt_value b_factor_identity_prefix(lytI_call *c) {
  int64_t size;
  const lytG_ll *q = lytG_factor_identity_prefix(CX(c), get_ll(c, 0), get_name(c, 1),
                                                 get_name(c, 2), lytI_getint(c, 3), &size);
  lyt_value t = lytI_tuple(c, 2);
  t.u.tup.e[0] = lytI_int(size);
  t.u.tup.e[1] = ll_val(q);
  return t;
}

/* {old: "new", ...}: the pairs of one side of rename_linear_layout_dims */
static int32_t get_renames(lytI_call *c, int i, const char **from, const char **to) {
  if (lytI_isnil(c, i)) return 0;
  const lyt_value *v = &c->argv[i];
  if (v->kind != LYT_VRECORD || v->u.rec.n > LYT_LL_MAXDIMS)
    lytI_argerr(c, i, "%s: '%s' must be a record {old: \"new\", ...}", c->self->name,
                c->self->params[i]);
  for (int32_t k = 0; k < v->u.rec.n; k++) {
    if (v->u.rec.e[k].kind != LYT_VSTR)
      lytI_argerr(c, i, "%s: the new name of '%s' must be a string", c->self->name, v->u.rec.name[k]);
    from[k] = v->u.rec.name[k];
    to[k] = intern_str(c->L, &v->u.rec.e[k]);
  }
  return v->u.rec.n;
}

static lyt_value b_rename_dims(lytI_call *c) {
  const char *inf[LYT_LL_MAXDIMS], *int_[LYT_LL_MAXDIMS], *outf[LYT_LL_MAXDIMS], *outt[LYT_LL_MAXDIMS];
  int32_t ni = get_renames(c, 1, inf, int_), no = get_renames(c, 2, outf, outt);
  return ll_val(lytG_rename_dims(CX(c), get_ll(c, 0), ni, inf, int_, no, outf, outt));
}

/* Triton's std::optional: nil for no value */
static lyt_value ll_or_nil(const lytG_ll *r) { return r ? ll_val(r) : lytI_nil(); }

static lyt_value b_get_reps(lytI_call *c) {
  return ll_or_nil(lytG_get_reps(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_factor_through(lytI_call *c) {
  return ll_or_nil(lytG_factor_through(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_image_subset(lytI_call *c) {
  return lytI_bool(lytG_factor_through(CX(c), get_ll(c, 1), get_ll(c, 0)) != NULL);
}

/* {in_dim: {stride: s, basis_mask: m}, ...} in ins' order, or nil */
static lyt_value b_get_integer_strides(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int64_t stride[LYT_LL_MAXDIMS];
  uint64_t mask[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 2, d);
  if (!lytG_integer_strides(CX(c), get_ll(c, 0), get_name(c, 1), n, d, stride, mask))
    return lytI_nil();
  static const char *const fields[] = { "stride", "basis_mask" };
  lyt_value r = lytI_record(c, n, d);
  for (int32_t k = 0; k < n; k++) {
    r.u.rec.e[k] = lytI_record(c, 2, fields);
    r.u.rec.e[k].u.rec.e[0] = lytI_int(stride[k]);
    r.u.rec.e[k].u.rec.e[1] = lytI_int((int64_t)mask[k]);
  }
  return r;
}

static lyt_value b_is_identity_on_out_dim(lytI_call *c) {
  return lytI_bool(lytG_is_identity_on_out_dim(CX(c), get_ll(c, 0), get_name(c, 1)));
}

static lyt_value b_block_local(lytI_call *c) {
  return ll_val(lytG_invert_and_compose_block_local(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_supremum(lytI_call *c) {
  const char *a[LYT_LL_MAXDIMS], *b[LYT_LL_MAXDIMS], *out[2 * LYT_LL_MAXDIMS];
  int32_t na = get_names(c, 0, a), nb = get_names(c, 1, b);
  int32_t n = lytG_supremum(CX(c), na, a, nb, b, out);
  lyt_value t = lytI_tuple(c, n);
  for (int32_t k = 0; k < n; k++) t.u.tup.e[k] = lytI_str(c, out[k]);
  return t;
}

/* ColumnAction: a record {action, in_dim, in_size_log2}; action[i] is the
** old basis that becomes basis i. */
typedef struct col_action {
  const char *in;
  int32_t log2, n;
  int32_t a[LYT_LL_MAXBITS];
} col_action;

static lyt_value action_val(lytI_call *c, const col_action *ca) {
  static const char *const fields[] = { "action", "in_dim", "in_size_log2" };
  lyt_value r = lytI_record(c, 3, fields), t = lytI_tuple(c, ca->n);
  for (int32_t k = 0; k < ca->n; k++) t.u.tup.e[k] = lytI_int(ca->a[k]);
  r.u.rec.e[0] = t;
  r.u.rec.e[1] = lytI_str(c, ca->in);
  r.u.rec.e[2] = lytI_int(ca->log2);
  return r;
}

/* log2: in_size_log2 as given, checked here */
static void check_action(lytI_call *c, int i, const lyt_value *act, int64_t log2, col_action *ca) {
  if (!is_seq(act) || act->u.tup.n > LYT_LL_MAXBITS)
    lytI_argerr(c, i, "%s: the action must be a tuple of at most %d basis indices",
                c->self->name, LYT_LL_MAXBITS);
  if (log2 < 0 || log2 > LYT_LL_MAXBITS)
    lytI_argerr(c, i, "%s: in_size_log2 %lld is outside [0, %d]", c->self->name,
                (long long)log2, LYT_LL_MAXBITS);
  ca->log2 = (int32_t)log2;
  ca->n = act->u.tup.n;
  for (int32_t k = 0; k < ca->n; k++) {
    const lyt_value *e = &act->u.tup.e[k];
    if (e->kind != LYT_VINT || e->u.i < 0 || e->u.i >= ca->log2)
      lytI_argerr(c, i, "%s: action entry %d must be a basis index in [0, %d)", c->self->name,
                  (int)k, (int)ca->log2);
    ca->a[k] = (int32_t)e->u.i;
  }
}

static const lyt_value *field(const lyt_value *r, const char *name) {
  for (int32_t k = 0; k < r->u.rec.n; k++)
    if (strcmp(r->u.rec.name[k], name) == 0) return &r->u.rec.e[k];
  return NULL;
}

static void get_action(lytI_call *c, int i, col_action *ca) {
  const lyt_value *v = &c->argv[i], *act = NULL, *in = NULL, *lg = NULL;
  if (v->kind == LYT_VRECORD) act = field(v, "action"), in = field(v, "in_dim"), lg = field(v, "in_size_log2");
  if (!act || !in || in->kind != LYT_VSTR || !lg || lg->kind != LYT_VINT)
    lytI_argerr(c, i, "%s: '%s' must be a column action, as column_action(action, in_dim, "
                "in_size_log2) makes it", c->self->name, c->self->params[i]);
  ca->in = intern_str(c->L, in);
  check_action(c, i, act, lg->u.i, ca);
}

static int action_is_identity(const col_action *ca) {
  int id = ca->n == ca->log2;
  for (int32_t k = 0; k < ca->n && id; k++) id = ca->a[k] == k;
  return id;
}

static lyt_value b_column_action(lytI_call *c) {
  col_action ca;
  ca.in = get_name(c, 1);
  check_action(c, 0, &c->argv[0], lytI_getint(c, 2), &ca);
  return action_val(c, &ca);
}

static lyt_value b_column_action_is_identity(lytI_call *c) {
  col_action ca;
  get_action(c, 0, &ca);
  return lytI_bool(action_is_identity(&ca));
}

/* On a layout: the bases of in_dim reordered (or some dropped). On a tuple
** of 2^in_size_log2 values: bit k of the new index is bit action[k] of
** the old one, so value i is old value sum(2^action[k] for bits k of i). */
static lyt_value b_apply_column_action(lytI_call *c) {
  col_action ca;
  get_action(c, 0, &ca);
  if (c->argv[1].kind == LYT_VLINEAR)
    return ll_val(lytG_column_action(CX(c), get_ll(c, 1), ca.in, ca.log2, ca.n, ca.a));
  const lyt_value *v = &c->argv[1];
  if (!is_seq(v) || ca.log2 > 30 || v->u.tup.n != ((int32_t)1 << ca.log2))
    lytI_argerr(c, 1, "%s: '%s' must be a linear layout or a tuple of 2^%d values",
                c->self->name, c->self->params[1], (int)ca.log2);
  if (ca.n > 24)
    lytI_argerr(c, 0, "%s: the action makes 2^%d values (at most 2^24)", c->self->name, (int)ca.n);
  lyt_value t = lytI_tuple(c, (int32_t)1 << ca.n);
  for (int32_t i = 0; i < t.u.tup.n; i++) {
    int32_t src = 0;
    for (int32_t k = 0; k < ca.n; k++) src ^= ((i >> k) & 1) << ca.a[k];
    t.u.tup.e[i] = v->u.tup.e[src];
  }
  return t;
}

static lyt_value b_column_action_inverse(lytI_call *c) {
  col_action ca, inv;
  get_action(c, 0, &ca);
  inv = ca;
  uint64_t seen = 0;
  for (int32_t k = 0; k < ca.n; k++) {
    seen |= (uint64_t)1 << ca.a[k];
    inv.a[ca.a[k]] = k;
  }
  if (ca.n != ca.log2 || seen != lytG_mask(ca.log2))
    lytI_argerr(c, 0, "%s: only a permutation of all %d bases has an inverse", c->self->name,
                (int)ca.log2);
  return action_val(c, &inv);
}

/* Triton's leftCompose: r[i] = self[other[i]], so applying r is applying
** self, then other. */
static lyt_value b_column_action_left_compose(lytI_call *c) {
  col_action a, b, r;
  get_action(c, 0, &a);
  get_action(c, 1, &b);
  if (strcmp(a.in, b.in) != 0 || a.log2 != b.log2 || a.n != b.n)
    lytI_argerr(c, 1, "%s: the actions must have the same in-dim, size and length",
                c->self->name);
  r = a;
  for (int32_t k = 0; k < a.n; k++) {
    if (b.a[k] >= a.n)
      lytI_argerr(c, 1, "%s: entry %d of the second action is past the first's length",
                  c->self->name, (int)k);
    r.a[k] = a.a[b.a[k]];
  }
  return action_val(c, &r);
}

static lyt_value b_equal_ignoring_out_dim_sizes(lytI_call *c) {
  return lytI_bool(lytG_equal_ignoring_out_sizes(get_ll(c, 0), get_ll(c, 1)));
}

static lyt_value b_sublayout(lytI_call *c) {
  const char *ins[LYT_LL_MAXDIMS], *outs[LYT_LL_MAXDIMS];
  int32_t ni = get_names(c, 1, ins), no = get_names(c, 2, outs);
  return ll_val(lytG_sublayout(CX(c), get_ll(c, 0), ni, ins, no, outs));
}

static lyt_value b_sublayout_is_zero(lytI_call *c) {
  const char *ins[LYT_LL_MAXDIMS], *outs[LYT_LL_MAXDIMS];
  int32_t ni = get_names(c, 1, ins), no = get_names(c, 2, outs);
  return lytI_bool(lytG_sublayout_is_zero(CX(c), get_ll(c, 0), ni, ins, no, outs));
}

static lyt_value b_is_trivial_over(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return lytI_bool(lytG_is_trivial_over(CX(c), get_ll(c, 0), n, d));
}

static lyt_value b_transpose_ins(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return ll_val(lytG_transpose_ins(CX(c), get_ll(c, 0), n, d));
}

static lyt_value b_transpose_outs(lytI_call *c) {
  const char *d[LYT_LL_MAXDIMS];
  int32_t n = get_names(c, 1, d);
  return ll_val(lytG_transpose_outs(CX(c), get_ll(c, 0), n, d));
}

/* New dims as a record {name: size, ...}. */
static int32_t get_dims(lytI_call *c, int i, lytG_dim *out) {
  const lyt_value *r = &c->argv[i];
  if (r->kind != LYT_VRECORD || r->u.rec.n > LYT_LL_MAXDIMS)
    lytI_argerr(c, i, "%s: the new dims must be a record {name: size, ...}", c->self->name);
  for (int32_t k = 0; k < r->u.rec.n; k++) {
    int64_t s = r->u.rec.e[k].kind == LYT_VINT ? r->u.rec.e[k].u.i : 0;
    if (s <= 0 || (s & (s - 1)))
      lytI_argerr(c, i, "%s: the size of '%s' must be a power of two", c->self->name,
                  r->u.rec.name[k]);
    out[k].name = r->u.rec.name[k];
    out[k].log2 = __builtin_ctzll((unsigned long long)s);
  }
  return r->u.rec.n;
}

static lyt_value b_reshape_ins(lytI_call *c) {
  lytG_dim d[LYT_LL_MAXDIMS];
  int32_t n = get_dims(c, 1, d);
  return ll_val(lytG_reshape_ins(CX(c), get_ll(c, 0), n, d));
}

static lyt_value b_reshape_outs(lytI_call *c) {
  lytG_dim d[LYT_LL_MAXDIMS];
  int32_t n = get_dims(c, 1, d);
  return ll_val(lytG_reshape_outs(CX(c), get_ll(c, 0), n, d));
}

static lyt_value b_flatten_ins(lytI_call *c) { return ll_val(lytG_flatten_ins(CX(c), get_ll(c, 0))); }
static lyt_value b_flatten_outs(lytI_call *c) { return ll_val(lytG_flatten_outs(CX(c), get_ll(c, 0))); }

static lyt_value b_resize_in_dim(lytI_call *c) {
  return ll_val(lytG_resize_in_dim(CX(c), get_ll(c, 0), get_name(c, 1), lytI_getint(c, 2)));
}
static lyt_value b_resize_out_dim(lytI_call *c) {
  return ll_val(lytG_resize_out_dim(CX(c), get_ll(c, 0), get_name(c, 1), lytI_getint(c, 2)));
}
static lyt_value b_rename_in_dim(lytI_call *c) {
  return ll_val(lytG_rename_in_dim(CX(c), get_ll(c, 0), get_name(c, 1), get_name(c, 2)));
}
static lyt_value b_squeeze_ins(lytI_call *c) {
  return ll_val(lytG_squeeze_ins(CX(c), get_ll(c, 0), get_name(c, 1)));
}
static lyt_value b_squeeze_outs(lytI_call *c) {
  return ll_val(lytG_squeeze_outs(CX(c), get_ll(c, 0), get_name(c, 1)));
}
static lyt_value b_remove_zero_bases(lytI_call *c) {
  return ll_val(lytG_remove_zero_bases(CX(c), get_ll(c, 0), get_name(c, 1)));
}
static lyt_value b_concat_ins(lytI_call *c) {
  return ll_val(lytG_concat_ins(CX(c), get_ll(c, 0), get_ll(c, 1)));
}
static lyt_value b_concat_outs(lytI_call *c) {
  return ll_val(lytG_concat_outs(CX(c), get_ll(c, 0), get_ll(c, 1)));
}

/* identity_standard_nd(in_dim, shape, order) */
static lyt_value b_identity_standard_nd(lytI_call *c) {
  int64_t shape[LYT_LL_MAXDIMS], ord[LYT_LL_MAXDIMS];
  int32_t order[LYT_LL_MAXDIMS];
  const char *in = get_name(c, 0);
  int32_t r = get_shape(c, 1, shape), ro = get_shape(c, 2, ord);
  if (ro != r) lytI_argerr(c, 2, "identity_standard_nd: order has %d entries for rank %d",
                           (int)ro, (int)r);
  for (int32_t k = 0; k < r; k++) {
    if (ord[k] < 0 || ord[k] >= r)
      lytI_argerr(c, 2, "identity_standard_nd: order entry %lld is not a dim of rank %d",
                  (long long)ord[k], (int)r);
    order[k] = (int32_t)ord[k];
  }
  return ll_val(lytG_identity_standard_nd(CX(c), in, r, shape, order, NULL));
}

static lyt_value b_not_smaller(lytI_call *c) {
  int64_t shape[LYT_LL_MAXDIMS];
  int32_t r = get_shape(c, 1, shape);
  return ll_val(lytG_ensure_not_smaller(CX(c), get_ll(c, 0), r, shape, NULL));
}

static lyt_value b_not_larger(lytI_call *c) {
  int64_t shape[LYT_LL_MAXDIMS];
  int32_t r = get_shape(c, 1, shape);
  int bcast = lytI_isnil(c, 2) || (c->argv[2].kind == LYT_VBOOL && c->argv[2].u.i);
  return ll_val(lytG_ensure_not_larger(CX(c), get_ll(c, 0), r, shape, NULL, bcast));
}

static lyt_value b_combine(lytI_call *c) {
  int64_t shape[LYT_LL_MAXDIMS];
  int32_t r = get_shape(c, 2, shape);
  return ll_val(lytG_combine_cta_cga(CX(c), get_ll(c, 0), get_ll(c, 1), r, shape, NULL));
}

/* {name: size, ...} of the input or output dims, in order. */
static lyt_value dims_record(lytI_call *c, int32_t n, const lytG_dim *d) {
  lyt_value r = dim_fields(c, n, d);
  for (int32_t k = 0; k < n; k++) r.u.rec.e[k] = lytI_int((int64_t)1 << d[k].log2);
  return r;
}

static lyt_value b_in_dims(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  return dims_record(c, ll->nin, ll->in);
}

static lyt_value b_out_dims(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  return dims_record(c, ll->nout, ll->out);
}

/* bases(L): {in_dim: (basis, ...)}, each basis a tuple of out components,
** what from_bases takes back: `for b in bases(L).lane` walks them. */
static lyt_value b_bases(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  lyt_value r = dim_fields(c, ll->nin, ll->in);
  for (int32_t i = 0; i < ll->nin; i++) {
    lyt_value t = lytI_tuple(c, ll->in[i].log2);
    for (int32_t b = 0; b < ll->in[i].log2; b++) {
      int64_t v[LYT_LL_MAXDIMS];
      for (int32_t k = 0; k < ll->nout; k++) v[k] = lytG_basis(ll, i, b, k);
      t.u.tup.e[b] = lytI_ints_val(c, v, ll->nout);
    }
    r.u.rec.e[i] = t;
  }
  return r;
}

/* linear(L[, out_dim]): a stride layout or swizzle o 0 o layout, exactly. */
static lyt_value b_linear(lytI_call *c) {
  const char *out = lytI_isnil(c, 1) ? "offset" : get_name(c, 1);
  const lyt_value *v = &c->argv[0];
  if (!lytI_kinds[v->kind].to_linear)
    lytI_argerr(c, 0, "linear: needs a layout, a composed layout or a nested layout, got %s",
                lytI_kindname(v->kind));
  return ll_val(lytI_kinds[v->kind].to_linear(c, v, out));
}

static lyt_value b_strided(lytI_call *c) {
  return lytI_layout(CX(c), lytC_strided_of_linear(CX(c), get_ll(c, 0)));
}

static lyt_value text_of(lytI_call *c, void (*pr)(lytS_buf *, const lytG_ll *)) {
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  pr(&b, get_ll(c, 0));
  return lytI_str(c, b.p);
}

/* triton_view(L, hw=false): Triton's get_distributed_view / get_shared_view. */
static lyt_value b_triton_view(lytI_call *c) {
  const lytG_ll *ll = get_ll(c, 0);
  int hw = !lytI_isnil(c, 1) && c->argv[1].kind == LYT_VBOOL && c->argv[1].u.i;
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  lytI_linear_view(c->L, &b, ll, hw, c->loc);
  return lytI_str(c, b.p);
}

static lyt_value b_triton_attr(lytI_call *c) { return text_of(c, lytG_print_attr); }
static lyt_value b_triton_str(lytI_call *c) { return text_of(c, lytG_print_triton); }

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_linear_lib[] = {
  { "identity_1d", b_identity_1d, 3, 0, P("size", "in_dim", "out_dim"), "identity_1d(size, in_dim, out_dim): x -> x",
    "identity_1d(8, \"lane\", \"dim0\")" },
  { "zeros_1d", b_zeros_1d, 3, 0, P("size", "in_dim", "out_dim", "out_dim_size"), "zeros_1d(size, in_dim, out_dim[, out_dim_size=1]): x -> 0",
    "zeros_1d(4, \"register\", \"dim0\")" },
  { "strided_1d", b_strided_1d, 4, 0, P("size", "stride", "in_dim", "out_dim"), "strided_1d(size, stride, in_dim, out_dim): x -> stride*x",
    "strided_1d(4, 2, \"lane\", \"dim0\")" },
  { "linear_empty", b_empty, 0, 0, P(NULL), "linear_empty(): no dims; the unit of *",
    "linear_empty() * identity_1d(4, \"lane\", \"dim0\")" },
  { "from_bases", b_from_bases, 2, 0, P("bases", "out_dim_names", "out_dim_sizes", "require_surjective"), "from_bases(bases, out_dim_names[, out_dim_sizes, require_surjective=true]): a linear layout from the images of each in-dim's powers of two",
    "from_bases({register: [[0,1]], lane: [[1,0],[2,0]]}, (\"dim0\", \"dim1\"))" },
  { "compose", b_compose, 2, 0, P("L", "outer"), "compose(L, outer): outer o L (Triton's L.compose(outer))",
    "compose(identity_1d(8, \"lane\", \"offset\"), strided_1d(8, 2, \"offset\", \"addr\"))" },
  { "invert_and_compose", b_invert_and_compose, 2, 0, P("L", "outer"), "invert_and_compose(L, outer): C with L(x) = outer(C(x))",
    "invert_and_compose(identity_1d(4, \"lane\", \"dim0\"), identity_1d(4, \"register\", \"dim0\"))" },
  { "invert", b_invert, 1, 0, P("L"), "invert(L): the inverse of an invertible layout",
    "invert(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "pseudoinvert", b_pseudoinvert, 1, 0, P("L"), "pseudoinvert(L): a right inverse on L's image, smallest preimages",
    "pseudoinvert(zeros_1d(2, \"register\", \"dim0\") * identity_1d(4, \"lane\", \"dim0\"))" },
  { "apply", b_apply, 2, 0, P("L", "inputs"), "apply(L, {in_dim: value, ...}): the output record",
    "apply(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), {register: 1, lane: 3})" },
  { "is_surjective", b_is_surjective, 1, 0, P("L"), "is_surjective(L): every output is reached",
    "is_surjective(zeros_1d(4, \"lane\", \"dim0\", 4))" },
  { "is_injective", b_is_injective, 1, 0, P("L"), "is_injective(L): no two inputs reach the same output",
    "is_injective(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "is_invertible", b_is_invertible, 1, 0, P("L"), "is_invertible(L): surjective and injective",
    "is_invertible(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "num_consecutive", b_num_consecutive, 1, 0, P("L"), "num_consecutive(L): Triton's getNumConsecutiveInOut",
    "num_consecutive(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32)))" },
  { "free_variable_masks", b_free_variable_masks, 1, 0, P("L"), "free_variable_masks(L): {in_dim: mask} of bits that change nothing",
    "free_variable_masks(zeros_1d(2, \"register\", \"dim0\") * identity_1d(4, \"lane\", \"dim0\"))" },
  { "divide_left", b_divide_left, 2, 0, P("A", "B", "or_nil"), "divide_left(A, B[, or_nil=false]): C with A = B * C (nil where none, with or_nil)",
    "divide_left(identity_1d(4, \"lane\", \"dim0\") * identity_1d(8, \"warp\", \"dim0\"), identity_1d(4, \"lane\", \"dim0\"))" },
  { "divide_right", b_divide_right, 2, 0, P("A", "B", "or_nil"), "divide_right(A, B[, or_nil=false]): C with A = C * B (nil where none, with or_nil)",
    "divide_right(identity_1d(4, \"lane\", \"dim0\") * identity_1d(8, \"warp\", \"dim0\"), identity_1d(8, \"warp\", \"dim0\"))" },
  { "quotient", b_quotient, 2, 0, P("L", "dims"), "quotient(L, dims): L without dims it is trivial over",
    "quotient(identity_1d(4, \"block\", \"block\") * identity_1d(8, \"register\", \"dim0\"), (\"block\",))" },
  { "convert_plan", b_convert_plan, 2, 0, P("src", "dst"), "convert_plan(src, dst): how Triton 3.6 lowers convert_layout: {mechanism, minimal, transpositions}",
    "convert_plan(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32)), to_linear(blocked((4,1), (4,8), (1,4), (0,1)), (32,32)))" },
  { "sublayout", b_sublayout, 3, 0, P("L", "in_dims", "out_dims"), "sublayout(L, in_dims, out_dims): the restriction of L to these in-dims and out-dims",
    "sublayout(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), (\"lane\",), (\"dim0\",))" },
  { "sublayout_is_zero", b_sublayout_is_zero, 3, 0, P("L", "in_dims", "out_dims"), "sublayout_is_zero(L, in_dims, out_dims): that restriction maps everything to 0",
    "sublayout_is_zero(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), (\"register\",), (\"dim0\",))" },
  { "is_trivial_over", b_is_trivial_over, 2, 0, P("L", "dims"), "is_trivial_over(L, dims): L is the identity on these dims and they mix with no other",
    "is_trivial_over(identity_1d(4, \"block\", \"block\") * identity_1d(8, \"register\", \"dim0\"), (\"block\",))" },
  { "transpose_ins", b_transpose_ins, 2, 0, P("L", "order"), "transpose_ins(L, order): reorder input dims",
    "transpose_ins(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), (\"lane\", \"register\"))" },
  { "transpose_outs", b_transpose_outs, 2, 0, P("L", "order"), "transpose_outs(L, order): reorder output dims",
    "transpose_outs(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), (\"dim1\", \"dim0\"))" },
  { "reshape_ins", b_reshape_ins, 2, 0, P("L", "dims"), "reshape_ins(L, {name: size, ...}): the in-dims regrouped into new dims of these sizes, bits in order",
    "reshape_ins(identity_1d(8, \"i\", \"o\"), {a: 2, b: 4})" },
  { "reshape_outs", b_reshape_outs, 2, 0, P("L", "dims"), "reshape_outs(L, {name: size, ...}): the out-dims regrouped into new dims of these sizes, bits in order",
    "reshape_outs(identity_1d(8, \"i\", \"o\"), {a: 2, b: 4})" },
  { "flatten_ins", b_flatten_ins, 1, 0, P("L"), "flatten_ins(L): one input dim",
    "flatten_ins(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "flatten_outs", b_flatten_outs, 1, 0, P("L"), "flatten_outs(L): one output dim",
    "flatten_outs(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "resize_in_dim", b_resize_in_dim, 3, 0, P("L", "in_dim", "size"), "resize_in_dim(L, in_dim, size): keep the first bases",
    "resize_in_dim(identity_1d(8, \"lane\", \"dim0\"), \"lane\", 4)" },
  { "resize_out_dim", b_resize_out_dim, 3, 0, P("L", "out_dim", "size"), "resize_out_dim(L, out_dim, size): shrink an output dim, dropping the higher bits of its images",
    "resize_out_dim(identity_1d(8, \"lane\", \"dim0\"), \"dim0\", 4)" },
  { "square_sublayout_is_identity", b_square_sublayout_is_identity, 2, 0, P("L", "dims"),
    "square_sublayout_is_identity(L, dims): Triton's squareSublayoutIsIdentity: over these dims (in and out), L is the identity",
    "square_sublayout_is_identity({in1: [[1],[2]]} -> {in1: 4}, (\"in1\",))" },
  { "get_output_basis_mask", b_get_output_basis_mask, 3, 0, P("L", "in_dims", "out_dim"),
    "get_output_basis_mask(L, in_dims, out_dim): Triton's getOutputBasisMask: the bits of out_dim these in-dims' bases set",
    "get_output_basis_mask({x: [[1,8],[2,16]], y: [[4,1]]} -> {out0: 8, out1: 32}, (\"x\",), \"out0\")" },
  { "get_input_basis_mask", b_get_input_basis_mask, 3, 0, P("L", "in_dim", "out_dims"),
    "get_input_basis_mask(L, in_dim, out_dims): Triton's getInputBasisMask: bit i set when basis i reaches out_dims",
    "get_input_basis_mask({x: [[1,0],[0,2],[0,0],[4,8]]} -> {out0: 8, out1: 16}, \"x\", (\"out0\",))" },
  { "factor_maximal_identity_prefix", b_factor_identity_prefix, 4, 0, P("L", "in_dim", "out_dim", "max_size"),
    "factor_maximal_identity_prefix(L, in_dim, out_dim, max_size): Triton's: (size, Q), identity1D(size) * Q == L",
    "factor_maximal_identity_prefix({x: [[1],[2],[8]], other: [[4]]} -> {out: 16}, \"x\", \"out\", 8)" },
  { "rename_linear_layout_dims", b_rename_dims, 1, 0, P("L", "ins", "outs"),
    "rename_linear_layout_dims(L, ins={old: \"new\"}, outs={...}): Triton's renameLinearLayoutDims: all at once, order kept",
    "rename_linear_layout_dims({a: [[1,0]], b: [[0,1]]} -> {x: 2, y: 2}, ins={a: \"b\", b: \"a\"}, outs={x: \"y\", y: \"x\"})" },
  { "equal_ignoring_out_dim_sizes", b_equal_ignoring_out_dim_sizes, 2, 0, P("a", "b"),
    "equal_ignoring_out_dim_sizes(a, b): Triton's equalIgnoringOutDimSizes: same bases and dims, whatever the out sizes",
    "equal_ignoring_out_dim_sizes({i: [[1]]} -> {o: 2}, {i: [[1]]} -> {o: 4})" },
  { "get_basis_mask", b_get_output_basis_mask, 3, 0, P("L", "in_dims", "out_dim"),
    "get_basis_mask(L, in_dims, out_dim): Triton's getBasisMask (formerly getOutputBasisMask): the bits of out_dim these in-dims' bases set",
    "get_basis_mask({x: [[1,8],[2,16]], y: [[4,1]]} -> {out0: 8, out1: 32}, (\"x\",), \"out0\")" },
  { "get_reps", b_get_reps, 2, 0, P("cvt", "tile"),
    "get_reps(cvt, tile): Triton's getReps: cvt with tile's leading bases zeroed, or nil where cvt does not repeat tile",
    "get_reps({in: [[1,0],[0,1]]} -> {out0: 2, out1: 2}, {in: [[1]]} -> {out0: 2})" },
  { "get_integer_strides", b_get_integer_strides, 3, 0, P("L", "out_dim", "in_dims"),
    "get_integer_strides(L, out_dim, in_dims): Triton's getIntegerStrides: {in_dim: {stride, basis_mask}} where out_dim = sum of stride * in_dim without carries, else nil",
    "get_integer_strides({x: [[2],[4]], y: [[1]]} -> {out: 8}, \"out\", (\"x\", \"y\"))" },
  { "factor_through", b_factor_through, 2, 0, P("A", "B"),
    "factor_through(A, B): Triton's factorThrough: X with compose(X, A) == B (out-dims as a set), or nil",
    "factor_through({s: [[1,1],[2,0]]} -> {x: 4, y: 2}, {v: [[3,1]]} -> {x: 4, y: 2})" },
  { "is_linear_layout_image_subset", b_image_subset, 2, 0, P("subset", "superset"),
    "is_linear_layout_image_subset(subset, superset): Triton's isLinearLayoutImageSubset: subset's image lies in superset's (same out-dims, no larger)",
    "is_linear_layout_image_subset({o: [[1,3]]} -> {y: 2, x: 4}, {s: [[1,1],[2,0]]} -> {x: 4, y: 2})" },
  { "is_identity_on_out_dim", b_is_identity_on_out_dim, 2, 0, P("L", "dim"),
    "is_identity_on_out_dim(L, dim): Triton's isIdentityOnOutDim: in-dim dim is the identity onto out-dim dim, which no other in-dim reaches",
    "is_identity_on_out_dim({register: [[0,1]], block: [[1,1]]} -> {offset: 2, block: 2}, \"block\")" },
  { "invert_and_compose_block_local", b_block_local, 2, 0, P("mem", "regs"),
    "invert_and_compose_block_local(mem, regs): Triton's invertAndComposeBlockLocal: invert_and_compose(regs, mem) with each CTA reading its own copy of what mem broadcasts over block",
    "invert_and_compose_block_local({offset: [[1]], block: [[0]]} -> {dim: 2}, {register: [], block: [[1]]} -> {dim: 2})" },
  { "supremum", b_supremum, 2, 0, P("x", "y"),
    "supremum(x, y): Triton's supremum of two ordered dim-name lists, the order `*` gives its dims",
    "supremum((\"a\", \"b\"), (\"a\", \"c\"))" },
  { "column_action", b_column_action, 3, 0, P("action", "in_dim", "in_size_log2"),
    "column_action(action, in_dim, in_size_log2): Triton's ColumnAction: basis action[i] of in_dim becomes basis i (a record)",
    "column_action((2, 0, 1), \"register\", 3)" },
  { "apply_column_action", b_apply_column_action, 2, 0, P("action", "x"),
    "apply_column_action(action, x): on a layout, in_dim's bases reordered or dropped; on a tuple of values, the values re-indexed likewise",
    "apply_column_action(column_action((1, 0), \"in\", 2), (10, 11, 12, 13))" },
  { "column_action_inverse", b_column_action_inverse, 1, 0, P("action"),
    "column_action_inverse(action): the inverse permutation",
    "column_action_inverse(column_action((2, 0, 1), \"in\", 3))" },
  { "column_action_left_compose", b_column_action_left_compose, 2, 0, P("action", "other"),
    "column_action_left_compose(action, other): Triton's leftCompose: applying it applies action, then other",
    "column_action_left_compose(column_action((2, 0, 1), \"in\", 3), column_action((1, 2, 0), \"in\", 3))" },
  { "column_action_is_identity", b_column_action_is_identity, 1, 0, P("action"),
    "column_action_is_identity(action): keeps every basis in place",
    "column_action_is_identity(column_action((0, 1), \"in\", 2))" },
  { "rename_in_dim", b_rename_in_dim, 3, 0, P("L", "old", "new"), "rename_in_dim(L, old, new): the dim keeps its place, as in Triton",
    "rename_in_dim(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}), \"register\", \"reg\")" },
  { "squeeze_ins", b_squeeze_ins, 2, 0, P("L", "in_dim"), "squeeze_ins(L, in_dim): drop a size-1 input dim",
    "squeeze_ins(identity_1d(1, \"register\", \"dim0\") * identity_1d(4, \"lane\", \"dim0\"), \"register\")" },
  { "squeeze_outs", b_squeeze_outs, 2, 0, P("L", "out_dim"), "squeeze_outs(L, out_dim): drop a size-1 output dim",
    "squeeze_outs(identity_1d(4, \"lane\", \"dim0\") * identity_1d(1, \"lane\", \"dim1\"), \"dim1\")" },
  { "remove_zero_bases", b_remove_zero_bases, 2, 0, P("L", "in_dim"), "remove_zero_bases(L, in_dim): drop the bases of in_dim that map to 0",
    "remove_zero_bases(zeros_1d(2, \"register\", \"dim0\") * identity_1d(4, \"register\", \"dim0\"), \"register\")" },
  { "concat_ins", b_concat_ins, 2, 0, P("A", "B"), "concat_ins(A, B): A's input dims, then B's",
    "concat_ins(identity_1d(4, \"lane\", \"dim0\"), zeros_1d(2, \"warp\", \"dim0\", 4))" },
  { "concat_outs", b_concat_outs, 2, 0, P("A", "B"), "concat_outs(A, B): A's output dims, then B's",
    "concat_outs(identity_1d(4, \"lane\", \"dim0\"), zeros_1d(4, \"lane\", \"dim1\"))" },
  { "identity_standard_nd", b_identity_standard_nd, 3, 0, P("in_dim", "shape", "order"), "identity_standard_nd(in_dim, shape, order): in_dim walking the dims of shape, fastest first in order",
    "identity_standard_nd(\"register\", (4,4), (1,0))" },
  { "ensure_layout_not_smaller_than", b_not_smaller, 2, 0, P("L", "shape"), "ensure_layout_not_smaller_than(L, shape): repeat to fill shape",
    "ensure_layout_not_smaller_than(identity_1d(4, \"register\", \"dim0\"), (16,))" },
  { "ensure_layout_not_larger_than", b_not_larger, 2, 0, P("L", "shape", "broadcast_registers"), "ensure_layout_not_larger_than(L, shape[, broadcast_registers=true]): broadcast into shape",
    "ensure_layout_not_larger_than(identity_1d(16, \"lane\", \"dim0\"), (4,))" },
  { "combine_cta_cga_with_shape", b_combine, 3, 0, P("cta", "cga", "shape"), "combine_cta_cga_with_shape(cta, cga, shape): a CTA layout fitted to the per-CTA shape and joined with the CGA layout (Triton's combineCtaCgaWithShape)",
    "combine_cta_cga_with_shape(identity_standard_nd(\"register\", (4,8), (1,0)), make_cga_layout((1,1), (1,1), (1,0)), (8,8))" },
  { "linear", b_linear, 1, 0, P("L", "out_dim"), "linear(L[, out_dim=\"offset\"]): a stride or swizzled layout as a linear layout, exactly",
    "linear(composition(swizzle(2,0,2), (4,4):(4,1)))" },
  { "strided", b_strided, 1, 0, P("L"), "strided(L): a linear layout that is a stride map as a stride layout, exactly",
    "strided(linear((4,2):(2,1)))" },
  { "bases", b_bases, 1, 0, P("L"), "bases(L): {in_dim: (basis, ...)}, each basis the tuple of out-dim components of an in-dim's power of two, as from_bases takes them",
    "bases(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32))).lane" },
  { "in_dims", b_in_dims, 1, 0, P("L"), "in_dims(L): {name: size, ...} of the input dims",
    "in_dims(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32)))" },
  { "out_dims", b_out_dims, 1, 0, P("L"), "out_dims(L): {name: size, ...} of the output dims",
    "out_dims(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32)))" },
  { "triton_view", b_triton_view, 1, 0, P("L", "hw"), "triton_view(L[, hw=false]): Triton 3.6's get_distributed_view/get_shared_view text",
    "triton_view(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "triton_attr", b_triton_attr, 1, 0, P("L"), "triton_attr(L): #ttg.linear<{...}> text",
    "triton_attr(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "triton_str", b_triton_str, 1, 0, P("L"), "triton_str(L): Triton's toString text",
    "triton_str(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};

/* ---------------------------------------------------------------------
** Kind operations
** ------------------------------------------------------------------- */

lyt_value lytI_copy_linear(lytS_ctx *cx, lyt_value v) {
  v.u.ll = lytS_dup(cx, v.u.ll, sizeof *v.u.ll);  /* flat; dim names are interned or static */
  return v;
}

int lytI_equal_linear(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return lytG_equal(a->u.ll, b->u.ll); }
void lytI_print_linear(lytS_buf *b, const lyt_value *v) { lytG_print(b, v->u.ll); }

const lytG_ll *lytI_layout_to_linear(lytI_call *c, const lyt_value *v, const char *out) {
  return lytC_linear_of_layout(CX(c), *v->u.lay, out);
}

const lytG_ll *lytI_composed_to_linear(lytI_call *c, const lyt_value *v, const char *out) {
  return lytC_linear_of_composed(CX(c), v->u.comp, out);
}

const lytG_ll *lytI_linear_to_linear(lytI_call *c, const lyt_value *v, const char *out) {
  (void)c; (void)out;
  return v->u.ll;
}
