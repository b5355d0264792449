/*
** axisinfo/builtins.c: Triton's AxisInfo analysis in the language. An index
** value holds the concrete index values and the contiguity, divisibility
** and constancy Triton's conservative rules give them; since lyt always
** has the values, axis_info(x, exact=true) also gives the exact info, the
** best any analysis could claim. `+ - * / %` work on index values (an
** integer operand is splatted); vector_width applies the rule the
** backends use to pick ld/st widths.
*/
#include <string.h>

#include "interp/axisinfo/values.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

static lyt_value index_val(const lytV_val *x) {
  lyt_value v = { .kind = LYT_VINDEX };
  v.u.index = x;
  return v;
}

static lytV_ctx conservative(lyt_state *L) {
  return lytV_context(&L->cx, LYTV_CONSERVATIVE);
}

static const lytV_val *get_index(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VINDEX)
    lytI_argerr(c, i, "%s: '%s' must be an index value, got %s", c->self->name,
                c->self->params[i], i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.index;
}

/* A shape: an int (1-D) or a tuple of 1 to LYTV_MAXRANK ints. */
static int get_shape(lytI_call *c, int i, int64_t *shape) {
  return (int)lytI_getints(c, i, shape, 1, LYTV_MAXRANK);
}

/* ---------------------------------------------------------------------
** Operators, called by the evaluator when an operand is an index
** ------------------------------------------------------------------- */

static const lytV_val *as_index(lyt_state *L, lyt_loc at, const lyt_value *v,
                                const lytV_val *like) {
  if (v->kind == LYT_VINDEX) return v->u.index;
  if (v->kind != LYT_VINT)
    lytI_error(L, at, LYT_ERRRUN, "an index value combines with an index or an integer, not %s %s",
               lytI_article(v->kind), lytI_kindname(v->kind));
  lytV_ctx vx = conservative(L);
  return lytV_splat(&vx, v->u.i, like->rank, like->shape);
}

lyt_value lytI_index_arith(lyt_state *L, int op, lyt_loc at, const lyt_value *a,
                           const lyt_value *b) {
  lytV_ctx vx = conservative(L);
  L->errloc = at;
  if (op == '/' || op == '%') {
    if (a->kind != LYT_VINDEX || b->kind != LYT_VINT)
      lytI_error(L, at, LYT_ERRRUN, "an index value is divided by an integer constant");
    return index_val(op == '/' ? lytV_div(&vx, a->u.index, b->u.i)
                               : lytV_rem(&vx, a->u.index, b->u.i));
  }
  const lytV_val *like = a->kind == LYT_VINDEX ? a->u.index : b->u.index;
  const lytV_val *x = as_index(L, at, a, like), *y = as_index(L, at, b, like);
  if (op == '+') return index_val(lytV_add(&vx, x, y));
  if (op == '-') return index_val(lytV_sub(&vx, x, y));
  return index_val(lytV_mul(&vx, x, y));
}

/* ---------------------------------------------------------------------
** Builtins
** ------------------------------------------------------------------- */

static lyt_value b_make_range(lytI_call *c) {
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_make_range(&vx, lytI_getint(c, 0), lytI_getint(c, 1)));
}

static lyt_value b_splat(lytI_call *c) {
  int64_t shape[LYTV_MAXRANK];
  int r = get_shape(c, 1, shape);
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_splat(&vx, lytI_getint(c, 0), r, shape));
}

/* Values from a tuple (1-D) or a tuple of equal tuples (2-D), row-major. */
/* info={contiguity: (..), divisibility: (..), constancy: (..)[, constant: k]},
** a tuple of one int per dim (or an int, 1-D), as print writes an index. */
static const lytV_info *info_arg(lytI_call *c, int i, int rank) {
  static const char *const names[3] = { "contiguity", "divisibility", "constancy" };
  const lyt_value *r = &c->argv[i];
  if (r->kind != LYT_VRECORD)
    lytI_argerr(c, i, "from_values: info must be a record {contiguity, divisibility, constancy}");
  lytV_info *info = lytS_alloc(CX(c), sizeof *info);
  memset(info, 0, sizeof *info);
  info->rank = rank;
  int64_t *dst[3] = { info->contiguity, info->divisibility, info->constancy };
  int seen = 0;
  for (int32_t f = 0; f < r->u.rec.n; f++) {
    const char *name = r->u.rec.name[f];
    const lyt_value *x = &r->u.rec.e[f];
    if (strcmp(name, "constant") == 0) {
      if (x->kind != LYT_VINT) lytI_argerr(c, i, "from_values: info.constant must be an integer");
      info->has_const = 1, info->cval = x->u.i;
      continue;
    }
    int k = 0;
    while (k < 3 && strcmp(name, names[k]) != 0) k++;
    if (k == 3) lytI_argerr(c, i, "from_values: info has no field '%s'", name);
    int ok = x->kind == LYT_VINT ? rank == 1 : x->kind == LYT_VTUP && x->u.tup.n == rank;
    for (int d = 0; ok && d < rank; d++) {
      const lyt_value *e = x->kind == LYT_VINT ? x : &x->u.tup.e[d];
      ok = e->kind == LYT_VINT;
      if (ok) dst[k][d] = e->u.i;
    }
    if (!ok) lytI_argerr(c, i, "from_values: info.%s must give one integer per dim (%d)", name, rank);
    seen |= 1 << k;
  }
  if (seen != 7) lytI_argerr(c, i, "from_values: info needs contiguity, divisibility and constancy");
  return info;
}

static lyt_value b_from_values(lytI_call *c) {
  const lyt_value *t = &c->argv[0];
  if (t->kind != LYT_VTUP || t->u.tup.n == 0)
    lytI_argerr(c, 0, "from_values: needs a tuple of integers or of equal tuples");
  int two = t->u.tup.e[0].kind == LYT_VTUP;
  int64_t shape[2] = { t->u.tup.n, two ? t->u.tup.e[0].u.tup.n : 1 };
  int64_t n = shape[0] * shape[1];
  int64_t *v = lytS_alloc(CX(c), sizeof *v * (size_t)n);
  for (int64_t i = 0; i < shape[0]; i++)
    for (int64_t j = 0; j < shape[1]; j++) {
      const lyt_value *row = &t->u.tup.e[i];
      if (two && (row->kind != LYT_VTUP || row->u.tup.n != shape[1]))
        lytI_argerr(c, 0, "from_values: the rows must be tuples of %lld integers",
                    (long long)shape[1]);
      const lyt_value *x = two ? &row->u.tup.e[j] : row;
      if (x->kind != LYT_VINT) lytI_argerr(c, 0, "from_values: the values must be integers");
      v[i * shape[1] + j] = x->u.i;
    }
  lytV_val *r = lytV_from_values(CX(c), two ? 2 : 1, shape, v);
  return index_val(lytI_isnil(c, 1) ? r : lytV_assume(CX(c), r, info_arg(c, 1, r->rank)));
}

static int64_t layout_at(lytS_ctx *cx, void *ud, int64_t id) {
  const lytS_layout *l = ud;
  if (id >= lytS_lsize(cx, *l))
    lytS_fail(cx, LYT_ERRRUN, "index_of: id %lld is outside the layout's %lld elements",
              (long long)id, (long long)lytS_lsize(cx, *l));
  return lytS_crd2idx_i64(cx, id, l->shape, l->stride);
}

/* index_of(L, n): the offsets L(0), ..., L(n-1), as a thread range maps. */
static lyt_value b_index_of(lytI_call *c) {
  lytS_layout *l = lytS_alloc(CX(c), sizeof *l);
  *l = lytI_getlayout(c, 0);
  int64_t shape[1] = { lytI_getint(c, 1) };
  return index_val(lytV_from_fn(CX(c), 1, shape, 0, layout_at, l));
}

static lyt_value b_broadcast(lytI_call *c) {
  int64_t shape[LYTV_MAXRANK];
  int r = get_shape(c, 1, shape);
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_broadcast(&vx, get_index(c, 0), r, shape));
}

static lyt_value b_expand_dims(lytI_call *c) {
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_expand_dims(&vx, get_index(c, 0), (int)lytI_getint(c, 1)));
}

static lyt_value b_xor(lytI_call *c) {
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_xor(&vx, get_index(c, 0), lytI_getint(c, 1)));
}

static lyt_value b_bitand(lytI_call *c) {
  lytV_ctx vx = conservative(c->L);
  return index_val(lytV_and(&vx, get_index(c, 0), lytI_getint(c, 1)));
}

static lyt_value b_values(lytI_call *c) {
  const lytV_val *x = get_index(c, 0);
  if (x->rank == 1) return lytI_ints_val(c, x->v, (int32_t)x->n);
  if (x->rank != 2) lytI_argerr(c, 0, "values: only 1-D and 2-D index values become tuples");
  lyt_value t = lytI_tuple(c, (int32_t)x->shape[0]);
  for (int64_t i = 0; i < x->shape[0]; i++)
    t.u.tup.e[i] = lytI_ints_val(c, x->v + i * x->shape[1], (int32_t)x->shape[1]);
  return t;
}

static int want_exact(lytI_call *c, int i) {
  return !lytI_isnil(c, i) && c->argv[i].kind == LYT_VBOOL && c->argv[i].u.i;
}

static lytV_info info_of(lytI_call *c, const lytV_val *x, int exact) {
  return exact ? lytV_exact_info(CX(c), x) : x->info;
}

/* {contiguity: (..), divisibility: (..), constancy: (..)}, one entry per dim. */
static lyt_value b_axis_info(lytI_call *c) {
  const lytV_val *x = get_index(c, 0);
  lytV_info in = info_of(c, x, want_exact(c, 1));
  static const char *const names[3] = { "contiguity", "divisibility", "constancy" };
  const int64_t *rows[3] = { in.contiguity, in.divisibility, in.constancy };
  lyt_value r = lytI_record(c, 3, names);
  for (int k = 0; k < 3; k++) r.u.rec.e[k] = lytI_ints_val(c, rows[k], in.rank);
  return r;
}

/* vector_width(x, dim, elem_bytes, ptr_align=16, elems_per_thread, exact=false) */
static lyt_value b_vector_width(lytI_call *c) {
  const lytV_val *x = get_index(c, 0);
  int64_t dim = lytI_getint(c, 1);
  if (dim < 0 || dim >= x->rank)
    lytI_argerr(c, 1, "vector_width: dim %lld is not a dim of a rank-%d index", (long long)dim,
                x->rank);
  int64_t align = lytI_isnil(c, 3) ? 16 : lytI_getint(c, 3);
  int64_t per = lytI_isnil(c, 4) ? x->shape[dim] : lytI_getint(c, 4);
  lytV_info in = info_of(c, x, want_exact(c, 5));
  return lytI_int(lytV_vector_width(CX(c), &in, (int)dim, lytI_getint(c, 2), align, per));
}

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_axisinfo_lib[] = {
  { "make_range", b_make_range, 2, 0, P("start", "end"), "make_range(start, end): the index values start..end-1 (Triton's tl.arange)",
    "values(make_range(0, 8))" },
  { "splat", b_splat, 2, 0, P("value", "shape"), "splat(value, shape): a constant index",
    "values(make_range(0, 4) + splat(16, (4,)))" },
  { "from_values", b_from_values, 1, 0, P("values", "info"), "from_values(values[, info]): an index with these values (1-D or 2-D tuple) and their exact AxisInfo, or the weaker info={contiguity, divisibility, constancy[, constant]} given (checked; how print writes an index)",
    "axis_info(from_values((0,1,2,3,8,9,10,11)))" },
  { "index_of", b_index_of, 2, 0, P("L", "n"), "index_of(L, n): the offsets L(0), ..., L(n-1)",
    "values(index_of((4,8):(8,1), 8))" },
  { "broadcast", b_broadcast, 2, 0, P("x", "shape"), "broadcast(x, shape): x repeated along its size-1 dims to shape",
    "values(broadcast(expand_dims(make_range(0, 4), 1), (4,2)))" },
  { "expand_dims", b_expand_dims, 2, 0, P("x", "axis"), "expand_dims(x, axis): x with a size-1 dim inserted at axis",
    "axis_info(expand_dims(make_range(0, 8), 0))" },
  { "xor", b_xor, 2, 0, P("x", "k"), "xor(x, k): x XOR a constant",
    "values(xor(make_range(0, 8), 3))" },
  { "bitand", b_bitand, 2, 0, P("x", "k"), "bitand(x, k): x AND a constant",
    "values(bitand(make_range(0, 8), 6))" },
  { "values", b_values, 1, 0, P("x"), "values(x): the index values as a tuple",
    "values(make_range(4, 8) * splat(2, (4,)))" },
  { "axis_info", b_axis_info, 1, 0, P("x", "exact"), "axis_info(x[, exact=false]): {contiguity, divisibility, constancy} per dim; Triton's rules, or exact from the values",
    "axis_info(make_range(0, 128))" },
  { "vector_width", b_vector_width, 3, 0, P("x", "dim", "elem_bytes", "ptr_align", "elems_per_thread", "exact"), "vector_width(x, dim, elem_bytes[, ptr_align=16, elems_per_thread, exact=false]): elements per ld/st",
    "vector_width(make_range(0, 128), 0, 4)" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};

/* ---------------------------------------------------------------------
** Kind operations
** ------------------------------------------------------------------- */

lyt_value lytI_copy_index(lytS_ctx *cx, lyt_value v) {
  lytV_val *x = lytS_alloc(cx, sizeof *x);
  int64_t *vals = lytS_alloc(cx, sizeof *vals * (size_t)v.u.index->n);
  *x = *v.u.index;
  memcpy(vals, v.u.index->v, sizeof *vals * (size_t)v.u.index->n);
  x->v = vals;
  v.u.index = x;
  return v;
}

int lytI_equal_index(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  const lytV_val *x = a->u.index, *y = b->u.index;
  return x->rank == y->rank && x->n == y->n && memcmp(x->shape, y->shape, sizeof x->shape) == 0 &&
         memcmp(x->v, y->v, sizeof(int64_t) * (size_t)x->n) == 0;
}

static void print_ints(lytS_buf *b, const int64_t *x, int64_t n) {
  lytS_buf_puts(b, "(");
  for (int64_t i = 0; i < n; i++) lytS_buf_printf(b, "%s%lld", i ? "," : "", (long long)x[i]);
  lytS_buf_puts(b, ")");
}

/* As lyt source that reads back: from_values(values, info={...}). */
void lytI_print_index(lytS_buf *b, const lyt_value *v) {
  const lytV_val *x = v->u.index;
  const lytV_info *in = &x->info;
  lytS_buf_puts(b, "from_values(");
  if (x->rank == 1) {
    print_ints(b, x->v, x->n);
  } else {
    lytS_buf_puts(b, "(");
    for (int64_t i = 0; i < x->shape[0]; i++) {
      if (i) lytS_buf_puts(b, ",");
      print_ints(b, x->v + i * x->shape[1], x->shape[1]);
    }
    lytS_buf_puts(b, ")");
  }
  lytS_buf_puts(b, ", info={contiguity: ");
  print_ints(b, in->contiguity, in->rank);
  lytS_buf_puts(b, ", divisibility: ");
  print_ints(b, in->divisibility, in->rank);
  lytS_buf_puts(b, ", constancy: ");
  print_ints(b, in->constancy, in->rank);
  if (in->has_const) lytS_buf_printf(b, ", constant: %lld", (long long)in->cval);
  lytS_buf_puts(b, "})");
}
