/*
** nested/builtins.c: IREE nested layouts in the language. The conversions to
** Axe and linear layouts live in axe(...) and linear(...).
*/
#include <string.h>

#include "interp/nested/values.h"

#define CX(c) lytI_cx(c)
#define OWNED_MAX 65536  /* elements owned() lists */

static const lytN_layout *get_nested(lytI_call *c, int i) {
  if (c->argv[i].kind != LYT_VNESTED)
    lytI_argerr(c, i, "%s: needs a nested layout (made by nested(...)), got %s", c->self->name,
                lytI_kindname(c->argv[i].kind));
  return c->argv[i].u.nested;
}

/* nested(subgroup_tile, batch_tile, outer_tile, thread_tile, element_tile,
**        subgroup_strides, thread_strides, subgroup_size=, subgroups=) */
static lyt_value b_nested(lytI_call *c) {
  int64_t v[7][LYTN_MAXRANK];
  int32_t rank = lytI_getints(c, 0, v[0], 1, LYTN_MAXRANK);
  for (int i = 1; i < 7; i++)
    if (lytI_getints(c, i, v[i], 1, LYTN_MAXRANK) != rank)
      lytI_argerr(c, i, "nested: %s has %d entries but subgroup_tile has %d",
                  c->self->params[i], (int)lytI_getints(c, i, v[i], 1, LYTN_MAXRANK), (int)rank);
  const int64_t *tiles[LYTN_LEVELS] = { v[0], v[1], v[2], v[3], v[4] };
  lyt_value r = { .kind = LYT_VNESTED };
  r.u.nested = lytN_make(CX(c), rank, tiles, v[5], v[6], lytI_getposint_opt(c, 7), lytI_getposint_opt(c, 8));
  return r;
}

/* owned(L, subgroup, thread): the elements in the order of the thread's
** distributed vector. */
static lyt_value b_owned(lytI_call *c) {
  const lytN_layout *N = get_nested(c, 0);
  int64_t sg = lytI_getint(c, 1), lane = lytI_getint(c, 2), x[LYTN_MAXRANK];
  if (sg < 0 || sg >= N->subgroups)
    lytI_argerr(c, 1, "owned: subgroup %lld is out of range [0, %lld)", (long long)sg,
                (long long)N->subgroups);
  if (lane < 0 || lane >= N->subgroup_size)
    lytI_argerr(c, 2, "owned: thread %lld is out of range [0, %lld) (the subgroup size)",
                (long long)lane, (long long)N->subgroup_size);
  int64_t n = lytN_registers(N);
  if (n > OWNED_MAX)
    lytI_callerr(c, "owned: %lld elements per thread is more than a tuple holds (%d)",
                 (long long)n, OWNED_MAX);
  lyt_value t = lytI_tuple(c, (int32_t)n);
  for (int64_t r = 0; r < n; r++) {
    lytN_coord(CX(c), N, sg, lane, r, x);
    t.u.tup.e[r] = lytI_ints_val(c, x, N->rank);
  }
  return t;
}

static lyt_value b_distributed_shape(lytI_call *c) {
  int64_t s[3 * LYTN_MAXRANK];
  if (!lytI_isnil(c, 1) && c->argv[1].kind != LYT_VBOOL)
    lytI_argerr(c, 1, "distributed_shape: packed must be true or false");
  int packed = !lytI_isnil(c, 1) && c->argv[1].u.i;
  const lytN_layout *N = get_nested(c, 0);
  return lytI_ints_val(c, s, lytN_dist_shape(N, packed, s));
}

static lyt_value b_iree_attr(lytI_call *c) {
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  lytN_print_attr(&b, get_nested(c, 0));
  return lytI_str(c, b.p);
}

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_nested_lib[] = {
  { "nested", b_nested, 7, 0, P("subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile", "subgroup_strides", "thread_strides", "subgroup_size", "subgroups"), "nested(subgroup_tile, batch_tile, outer_tile, thread_tile, element_tile, subgroup_strides, thread_strides[, subgroup_size, subgroups]): an IREE nested layout",
    "nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4))" },
  { "owned", b_owned, 3, 0, P("L", "subgroup", "thread"), "owned(L, subgroup, thread): the coordinates a thread holds, in the order of its distributed vector",
    "owned(nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4)), 0, 5)" },
  { "distributed_shape", b_distributed_shape, 1, 0, P("L", "packed"), "distributed_shape(L[, packed=false]): the per-thread vector shape (packed: [batch..., outer..., element...])",
    "distributed_shape(nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4)))" },
  { "iree_attr", b_iree_attr, 1, 0, P("L"), "iree_attr(L): IREE's #iree_vector_ext.nested_layout<...> text",
    "iree_attr(nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4)))" },
  { "to_iree", b_iree_attr, 1, 0, P("L"), "to_iree(L): IREE's #iree_vector_ext.nested_layout<...> text (as iree_attr; from_iree reads it)",
    "to_iree(nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4)))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};

/* ---------------------------------------------------------------------
** Kind operations
** ------------------------------------------------------------------- */

lyt_value lytI_copy_nested(lytS_ctx *cx, lyt_value v) {
  v.u.nested = lytS_dup(cx, v.u.nested, sizeof *v.u.nested);  /* a flat struct */
  return v;
}

int lytI_equal_nested(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  return memcmp(a->u.nested, b->u.nested, sizeof *a->u.nested) == 0;
}

void lytI_print_nested(lytS_buf *b, const lyt_value *v) { lytN_print(b, v->u.nested); }

const lytG_ll *lytI_nested_to_linear(lytI_call *c, const lyt_value *v, const char *out) {
  (void)out;
  return lytN_to_linear(lytI_cx(c), v->u.nested);
}

lytX_layout *lytI_nested_to_axe(lytI_call *c, const lyt_value *v) {
  return lytN_to_axe(lytI_cx(c), v->u.nested);
}
