/*
** axe/builtins.c: Axe layouts in the language. The two conventions stay
** explicit: a literal with axis-tagged strides, `(8,2):(4@lane,1@warp)`,
** is only a list of iters as written; axe(...) reads such a list in the
** paper's convention (the first iter is the most significant digit, the
** logical coordinate is flattened row-major), while a CuTe layout given
** to axe(...) is converted exactly (its colexicographic modes reversed),
** so it keeps its meaning.
*/
#include <string.h>

#include "interp/axe/values.h"
#include "interp/eval/kind.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

static lyt_value axe_val(int kind, const lytX_layout *x) {
  lyt_value v = { .kind = (lyt_vkind)kind };
  v.u.axe = x;
  return v;
}

/* The elements of a flat shape or stride: an int, an axis stride, or a
** flat tuple of them. */
static int32_t flat_items(lyt_state *L, lyt_loc at, const lyt_value *v, const lyt_value **out) {
  if (v->kind != LYT_VTUP) { out[0] = v; return 1; }
  if (v->u.tup.n > LYTX_MAXITERS)
    lytI_error(L, at, LYT_ERRRUN, "an Axe shard has at most %d iters", LYTX_MAXITERS);
  for (int32_t i = 0; i < v->u.tup.n; i++) {
    if (v->u.tup.e[i].kind == LYT_VTUP)
      lytI_error(L, at, LYT_ERRRUN, "Axe iters are a flat list; nested tuples are CuTe's");
    out[i] = &v->u.tup.e[i];
  }
  return v->u.tup.n;
}

lyt_value lytI_iters(lyt_state *L, lyt_loc at, const lyt_value *shape, const lyt_value *stride) {
  const lyt_value *s[LYTX_MAXITERS], *d[LYTX_MAXITERS];
  int32_t ns = flat_items(L, at, shape, s), nd = flat_items(L, at, stride, d);
  if (ns != nd)
    lytI_error(L, at, LYT_ERRRUN, "%d extents but %d strides", (int)ns, (int)nd);
  lytX_layout *x = lytX_new(&L->cx);
  L->errloc = at;
  for (int32_t i = 0; i < ns; i++) {
    if (s[i]->kind != LYT_VINT)
      lytI_error(L, at, LYT_ERRRUN, "an iter's extent must be an integer, got %s",
                 lytI_kindname(s[i]->kind));
    if (d[i]->kind != LYT_VINT && d[i]->kind != LYT_VAXIS)
      lytI_error(L, at, LYT_ERRRUN, "an iter's stride must be an integer or n@axis, got %s",
                 lytI_kindname(d[i]->kind));
    int tagged = d[i]->kind == LYT_VAXIS;
    lytX_shard(&L->cx, x, s[i]->u.i, tagged ? d[i]->u.ax.v : d[i]->u.i,
               tagged ? d[i]->u.ax.axis : LYTX_MEM);
  }
  return axe_val(LYT_VITERS, x);
}

/* axe(shard, replica=nil, offset=nil) */
static void add_replicas(lytI_call *c, lytX_layout *x) {
  const lyt_value *r = &c->argv[1];
  if (r->kind == LYT_VNIL) return;
  if (r->kind != LYT_VITERS)
    lytI_argerr(c, 1, "axe: the replica must be iters like 2:4@warp, got %s",
                lytI_kindname(r->kind));
  for (int32_t i = 0; i < r->u.axe->nd; i++)
    lytX_replica(CX(c), x, r->u.axe->d[i].extent, r->u.axe->d[i].stride, r->u.axe->d[i].axis);
}

static void add_offset(lytI_call *c, lytX_layout *x, const lyt_value *o) {
  if (o->kind == LYT_VAXIS) { lytX_offset(CX(c), x, o->u.ax.v, o->u.ax.axis); return; }
  if (o->kind == LYT_VTUP) {
    for (int32_t i = 0; i < o->u.tup.n; i++) add_offset(c, x, &o->u.tup.e[i]);
    return;
  }
  if (o->kind != LYT_VRECORD)
    lytI_argerr(c, 2, "axe: the offset must be {axis: value, ...} or n@axis, got %s",
                lytI_kindname(o->kind));
  for (int32_t i = 0; i < o->u.rec.n; i++) {
    if (o->u.rec.e[i].kind != LYT_VINT)
      lytI_argerr(c, 2, "axe: the offset of '%s' must be an integer", o->u.rec.name[i]);
    lytX_offset(CX(c), x, o->u.rec.e[i].u.i, o->u.rec.name[i]);
  }
}

static lyt_value b_axe(lytI_call *c) {
  const lyt_value *s = &c->argv[0];
  if (!lytI_kinds[s->kind].to_axe)
    lytI_argerr(c, 0, "axe: the shard must be iters like (8,2):(4@lane,1@warp), a CuTe, "
                "linear or nested layout, got %s", lytI_kindname(s->kind));
  lytX_layout *x = lytI_kinds[s->kind].to_axe(c, s);
  add_replicas(c, x);
  if (!lytI_isnil(c, 2)) add_offset(c, x, &c->argv[2]);
  lytX_check(CX(c), x);
  return axe_val(LYT_VAXE, x);
}

static const lytX_layout *get_axe(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VAXE)
    lytI_argerr(c, i, "%s: '%s' must be an Axe layout (made by axe(...)), got %s",
                c->self->name, c->self->params[i],
                i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.axe;
}

/* A coordinate or shape: an int or a flat tuple of ints. */
static int32_t get_ints(lytI_call *c, int i, int64_t *out) {
  return lytI_getints(c, i, out, 0, LYTX_MAXDIMS);
}

/* Points print outermost axis first, as the paper writes them; axes it
** does not rank keep the layout's order after the ranked ones. */
static const char *const axis_rank[] = {
  "gpuid", "gpuid_x", "gpuid_y", "pid", "cbx", "cby", "cbz", "bx", "by", "bz", "wgid",
  "warp", "warpid", "wid_in_wg", "tid_in_wg", "tx", "tid", "lane", "laneid", "reg",
  "P", "F", "Bank", "TLane", "TCol", "m",
};

static int rank_of(const char *a) {
  for (size_t i = 0; i < sizeof axis_rank / sizeof axis_rank[0]; i++)
    if (strcmp(a, axis_rank[i]) == 0) return (int)i;
  return (int)(sizeof axis_rank / sizeof axis_rank[0]);
}

static lytX_points ordered(lytI_call *c, const lytX_points *p) {
  const char *names[LYTX_MAXAXES];
  int32_t n = p->naxes;
  memcpy(names, p->axis, sizeof names[0] * (size_t)n);
  for (int32_t i = 1; i < n; i++)  /* stable insertion sort by rank */
    for (int32_t j = i; j > 0 && rank_of(names[j - 1]) > rank_of(names[j]); j--) {
      const char *t = names[j]; names[j] = names[j - 1]; names[j - 1] = t;
    }
  return lytX_points_reorder(CX(c), p, n, names);
}

static lyt_value point_record(lytI_call *c, const lytX_points *p, int32_t i) {
  lyt_value r = lytI_record(c, p->naxes, p->axis);
  for (int32_t k = 0; k < p->naxes; k++) r.u.rec.e[k] = lytI_int(p->v[(int64_t)i * p->naxes + k]);
  return r;
}

/* forward(A, coord, shape): the set of physical points, as records. */
static lyt_value b_forward(lytI_call *c) {
  const lytX_layout *x = get_axe(c, 0);
  int64_t crd[LYTX_MAXDIMS], shape[LYTX_MAXDIMS];
  int32_t r = get_ints(c, 1, crd), rs = get_ints(c, 2, shape);
  if (r != rs)
    lytI_argerr(c, 1, "forward: a coordinate of rank %d for a shape of rank %d", (int)r, (int)rs);
  lytX_points raw = lytX_apply(CX(c), x, rs, shape, crd);
  lytX_points p = ordered(c, &raw);
  lyt_value t = lytI_tuple(c, p.n);
  for (int32_t i = 0; i < p.n; i++) t.u.tup.e[i] = point_record(c, &p, i);
  return t;
}

/* backward(A, {axis: value, ...}, shape): the logical coordinates, a tuple. */
static lyt_value b_backward(lytI_call *c) {
  const lytX_layout *x = get_axe(c, 0);
  const lyt_value *pr = &c->argv[1];
  if (pr->kind != LYT_VRECORD)
    lytI_argerr(c, 1, "backward: the physical point must be a record {axis: value, ...}");
  int64_t vals[LYTX_MAXAXES], p[LYTX_MAXAXES], shape[LYTX_MAXDIMS];
  if (pr->u.rec.n > LYTX_MAXAXES) lytI_argerr(c, 1, "backward: too many axes");
  for (int32_t k = 0; k < pr->u.rec.n; k++) {
    if (pr->u.rec.e[k].kind != LYT_VINT)
      lytI_argerr(c, 1, "backward: the value of '%s' must be an integer", pr->u.rec.name[k]);
    vals[k] = pr->u.rec.e[k].u.i;
  }
  int32_t rs = get_ints(c, 2, shape);
  lytX_point(CX(c), x, pr->u.rec.n, pr->u.rec.name, vals, p);
  lytX_coords xs = lytX_preimage(CX(c), x, rs, shape, p);
  lyt_value t = lytI_tuple(c, xs.n);
  for (int32_t i = 0; i < xs.n; i++) {
    lyt_value one = lytI_tuple(c, xs.rank);
    for (int32_t d = 0; d < xs.rank; d++) one.u.tup.e[d] = lytI_int(xs.v[(int64_t)i * xs.rank + d]);
    t.u.tup.e[i] = one;
  }
  return t;
}

static lyt_value b_canonicalize(lytI_call *c) {
  return axe_val(LYT_VAXE, lytX_canonicalize(CX(c), get_axe(c, 0)));
}

static lyt_value b_to_cute(lytI_call *c) {
  return lytI_layout(CX(c), lytX_to_cute(CX(c), get_axe(c, 0)));
}

/* Two shapes of the same rank (arguments i and j). */
static int32_t two_shapes(lytI_call *c, int i, int j, int64_t *a, int64_t *b) {
  int32_t ra = get_ints(c, i, a), rb = get_ints(c, j, b);
  if (ra != rb)
    lytI_argerr(c, j, "%s: the shapes have ranks %d and %d", c->self->name, (int)ra, (int)rb);
  return ra;
}

/* axe_tile(outer, inner, outer_shape, inner_shape) */
static lyt_value b_tile(lytI_call *c) {
  int64_t os[LYTX_MAXDIMS], is[LYTX_MAXDIMS];
  int32_t r = two_shapes(c, 2, 3, os, is);
  return axe_val(LYT_VAXE, lytX_tile(CX(c), get_axe(c, 0), get_axe(c, 1), r, os, is));
}

static lyt_value b_direct_sum(lytI_call *c) {
  int64_t as[LYTX_MAXDIMS], bs[LYTX_MAXDIMS];
  int32_t r = two_shapes(c, 2, 3, as, bs);
  return axe_val(LYT_VAXE, lytX_direct_sum(CX(c), get_axe(c, 0), get_axe(c, 1), r, as, bs));
}

/* axe_slice(A, shape, begin, extent) */
static lyt_value b_slice(lytI_call *c) {
  int64_t sh[LYTX_MAXDIMS], b[LYTX_MAXDIMS], e[LYTX_MAXDIMS];
  int32_t r = get_ints(c, 1, sh);
  if (get_ints(c, 2, b) != r || get_ints(c, 3, e) != r)
    lytI_callerr(c, "axe_slice: shape, begin and extent must have the same rank");
  return axe_val(LYT_VAXE, lytX_slice(CX(c), get_axe(c, 0), r, sh, b, e));
}

/* axe_group(A, shape): the shard split so that each logical dim owns whole iters. */
static lyt_value b_group(lytI_call *c) {
  int64_t sh[LYTX_MAXDIMS];
  int32_t seps[LYTX_MAXDIMS + 1];
  int32_t r = get_ints(c, 1, sh);
  return axe_val(LYT_VAXE, lytX_group(CX(c), get_axe(c, 0), r, sh, seps));
}

/* The optional dim names of axe_to_linear and axe_from_linear. */
static const char *dim_arg(lytI_call *c, int i, const char *dflt) {
  if (lytI_isnil(c, i)) return dflt;
  if (c->argv[i].kind != LYT_VSTR)
    lytI_argerr(c, i, "%s: %s must be a string", c->self->name, c->self->params[i]);
  return lytI_intern(c->L, c->argv[i].u.str.s, (size_t)c->argv[i].u.str.len);
}

/* axe_to_linear(A, in_dim="index", replica_dim=nil) */
static lyt_value b_to_linear(lytI_call *c) {
  lyt_value v = { .kind = LYT_VLINEAR };
  v.u.ll = lytX_to_linear(CX(c), get_axe(c, 0), dim_arg(c, 1, "index"), dim_arg(c, 2, NULL));
  return v;
}

/* axe_from_linear(G, in_dim="index", replica_dim=nil): the inverse. */
static lyt_value b_from_linear(lytI_call *c) {
  if (c->argv[0].kind != LYT_VLINEAR)
    lytI_argerr(c, 0, "axe_from_linear: needs a linear layout, got %s",
                lytI_kindname(c->argv[0].kind));
  return axe_val(LYT_VAXE, lytX_from_linear(CX(c), c->argv[0].u.ll, dim_arg(c, 1, "index"),
                                            dim_arg(c, 2, NULL)));
}

static int in_set(const char *axis, int32_t n, const char *const *axes) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(axis, axes[i]) == 0) return 1;
  return 0;
}

/* axe_select(A, axes): only the iters, replicas and offsets on these axes.
** Selecting `m` from a device sharding gives each device's local layout:
** the dropped device iters are the coordinates that pick the device. */
static lyt_value b_select(lytI_call *c) {
  const lytX_layout *x = get_axe(c, 0);
  const lyt_value *a = &c->argv[1];
  const char *axes[LYTX_MAXAXES];
  int32_t n = 0;
  const lyt_value *items = a->kind == LYT_VTUP ? a->u.tup.e : a;
  int32_t count = a->kind == LYT_VTUP ? a->u.tup.n : 1;
  if (count > LYTX_MAXAXES) lytI_argerr(c, 1, "axe_select: too many axes");
  for (int32_t i = 0; i < count; i++) {
    if (items[i].kind != LYT_VSTR)
      lytI_argerr(c, 1, "axe_select: axes are names like \"m\" or (\"lane\", \"reg\")");
    axes[n++] = lytI_intern(c->L, items[i].u.str.s, (size_t)items[i].u.str.len);
  }
  lytX_layout *r = lytX_new(CX(c));
  for (int32_t i = 0; i < x->nd; i++)
    if (in_set(x->d[i].axis, n, axes)) lytX_shard(CX(c), r, x->d[i].extent, x->d[i].stride, x->d[i].axis);
  for (int32_t i = 0; i < x->nr; i++)
    if (in_set(x->r[i].axis, n, axes)) lytX_replica(CX(c), r, x->r[i].extent, x->r[i].stride, x->r[i].axis);
  for (int32_t i = 0; i < x->no; i++)
    if (in_set(x->oaxis[i], n, axes)) lytX_offset(CX(c), r, x->off[i], x->oaxis[i]);
  if (r->nd == 0)
    lytI_argerr(c, 1, "axe_select: the layout has no shard iter on these axes");
  return axe_val(LYT_VAXE, r);
}

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_axe_lib[] = {
  { "axe", b_axe, 1, 0, P("shard", "replica", "offset"), "axe(shard[, replica, offset]): an Axe layout; iters read row-major; a CuTe, linear (Triton direction) or nested layout converted exactly",
    "axe((8,2):(4@lane,1@warp), 2:4@warp)" },
  { "forward", b_forward, 3, 0, P("A", "coord", "shape"), "forward(A, coord, shape): the physical points {axis: value} of a logical coordinate",
    "forward(axe((8,4):(4@lane,1@lane)), (1,2), (8,4))" },
  { "backward", b_backward, 3, 0, P("A", "point", "shape"), "backward(A, point, shape): the logical coordinates mapped to a physical point",
    "backward(axe((8,4):(4@lane,1@lane)), {lane: 6}, (8,4))" },
  { "axe_canonicalize", b_canonicalize, 1, 0, P("A"), "axe_canonicalize(A): merged iters, sorted replicas, no zero offsets",
    "axe_canonicalize(axe((2,4):(4@lane,1@lane)))" },
  { "axe_to_cute", b_to_cute, 1, 0, P("A"), "axe_to_cute(A): a memory-only Axe layout as a CuTe layout, exactly",
    "axe_to_cute(axe((4,2):(2,1)))" },
  { "axe_tile", b_tile, 4, 0, P("outer", "inner", "outer_shape", "inner_shape"), "axe_tile(outer, inner, outer_shape, inner_shape): TVM's tile",
    "axe_tile(axe(2:1@warp), axe((8,4):(4@lane,1@lane)), (2,), (32,))" },
  { "axe_direct_sum", b_direct_sum, 4, 0, P("a", "b", "a_shape", "b_shape"), "axe_direct_sum(a, b, a_shape, b_shape): a*b_shape + b maps to A(a) + B(b)",
    "axe_direct_sum(axe(2:8), axe(8:1), (2,), (8,))" },
  { "axe_slice", b_slice, 4, 0, P("A", "shape", "begin", "extent"), "axe_slice(A, shape, begin, extent): the layout of a box, or an error",
    "axe_slice(axe((8,16):(16,1)), (8,16), (0,8), (8,8))" },
  { "axe_group", b_group, 2, 0, P("A", "shape"), "axe_group(A, shape): iters split so each logical dim owns whole iters",
    "axe_group(axe(32:1@lane), (4,8))" },
  { "axe_select", b_select, 2, 0, P("A", "axes"), "axe_select(A, axes): only the iters on these axes (\"m\": a device's local layout)",
    "axe_select(axe((8,2):(4@lane,1@warp), 2:4@warp), (\"lane\",))" },
  { "axe_to_linear", b_to_linear, 1, 0, P("A", "in_dim", "replica_dim"), "axe_to_linear(A[, in_dim=\"index\", replica_dim]): power-of-two Axe layouts as linear layouts",
    "axe_to_linear(axe((8,2,4,2):(4@lane,1@warp,1@lane,1@reg)))" },
  { "axe_from_linear", b_from_linear, 1, 0, P("G", "in_dim", "replica_dim"), "axe_from_linear(G[, in_dim=\"index\", replica_dim]): the inverse of axe_to_linear (axe(G) reads Triton's direction)",
    "axe_from_linear(identity_1d(8, \"index\", \"lane\"))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};

/* ---------------------------------------------------------------------
** Kind operations
** ------------------------------------------------------------------- */

lyt_value lytI_copy_axis(lytS_ctx *cx, lyt_value v) { (void)cx; return v; }  /* axis interned */

lyt_value lytI_copy_axe(lytS_ctx *cx, lyt_value v) {
  v.u.axe = lytS_dup(cx, v.u.axe, sizeof *v.u.axe);  /* flat; axis names are interned */
  return v;
}

int lytI_equal_axis(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  return a->u.ax.v == b->u.ax.v && a->u.ax.axis == b->u.ax.axis;
}

int lytI_equal_axe(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return lytX_equal(a->u.axe, b->u.axe); }

void lytI_print_axis(lytS_buf *b, const lyt_value *v) {
  lytS_buf_printf(b, "%lld@%s", (long long)v->u.ax.v, v->u.ax.axis);
}

void lytI_print_iters(lytS_buf *b, const lyt_value *v) { lytX_print_shard(b, v->u.axe); }

void lytI_print_axe(lytS_buf *b, const lyt_value *v) {
  const lytX_layout *x = v->u.axe;
  lytS_buf_puts(b, "axe(");
  lytX_print_shard(b, x);
  if (x->nr) { lytS_buf_puts(b, ", replica="); lytX_print_replica(b, x); }
  if (x->no) { lytS_buf_puts(b, ", offset="); lytX_print_offset(b, x); }
  lytS_buf_puts(b, ")");
}

lytX_layout *lytI_iters_to_axe(lytI_call *c, const lyt_value *v) { return lytX_copy(CX(c), v->u.axe); }
lytX_layout *lytI_layout_to_axe(lytI_call *c, const lyt_value *v) { return lytX_from_cute(CX(c), *v->u.lay); }
lytX_layout *lytI_linear_to_axe(lytI_call *c, const lyt_value *v) {
  return lytX_from_distributed(CX(c), v->u.ll);
}
