/*
** axisinfo/api.c: AxisInfo across the C boundary: an index value's facts, and
** the vector width they allow
** (lyt.h). Each entry runs protected and reaches the core through the
** same builtins and checks a script meets (eval/api.h).
*/
#include <string.h>

#include "interp/axisinfo/values.h"
#include "interp/eval/api.h"

_Static_assert(LYT_AXIS_MAXRANK == LYTV_MAXRANK, "lyt_axisinfo mirrors lytV_info");

static void do_to_axisinfo(lyt_state *L, lytI_req *q) {
  const lyt_value *v = lytI_at(L, q->idx, "lyt_to_axisinfo");
  if (v->kind != LYT_VINDEX) lytI_api_wrong(L, "lyt_to_axisinfo", v, "an index value");
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
  lytI_req q = { .idx = idx, .n = exact != 0, .out = (int64_t *)(void *)info };
  return lytI_protect(L, do_to_axisinfo, &q);
}

/* q: the info p, the dim idx, the element's bytes n, the pointer's
** alignment nin, the elements per thread i (0: any), the width out. */
static void do_vector_width(lyt_state *L, lytI_req *q) {
  const lyt_axisinfo *a = q->p;
  lytS_ctx *cx = &L->cx;
  if (!a || a->rank < 1 || a->rank > LYT_AXIS_MAXRANK)
    lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: rank %d (1..%d)", a ? a->rank : 0, LYT_AXIS_MAXRANK);
  if (q->idx < 0 || q->idx >= a->rank)
    lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: dim %d is not a dim of a rank-%d access", q->idx, a->rank);
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
  if (q->i < 0) lytS_fail(cx, LYT_ERRRUN, "lyt_vector_width: elems_per_thread is negative");
  *(int64_t *)q->out = lytV_vector_width(cx, &in, q->idx, q->n, q->nin, q->i ? q->i : (int64_t)1 << 30);
}

int lyt_vector_width(lyt_state *L, const lyt_axisinfo *info, int dim, int elem_bytes,
                     int ptr_align, int64_t elems_per_thread, int64_t *width) {
  int64_t w = 0;
  lytI_req q = { .p = info, .idx = dim, .n = elem_bytes, .nin = ptr_align, .i = elems_per_thread,
                 .out = &w };
  int st = lytI_protect(L, do_vector_width, &q);
  if (st == LYT_OK && width) *width = w;
  return st;
}

