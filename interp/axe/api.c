/*
** axe/api.c: Axe layouts across the C boundary: pushing and reading them
** (lyt.h). Each entry runs protected and reaches the core through the
** same builtins and checks a script meets (eval/api.h).
*/
#include <string.h>

#include "interp/axe/values.h"
#include "interp/eval/api.h"

_Static_assert(LYT_AXE_MAXITERS == LYTX_MAXITERS && LYT_AXE_MAXAXES == LYTX_MAXAXES,
               "lyt_axe mirrors lytX_layout");

static const char *axis_name(lyt_state *L, const char *a) {
  return lytI_api_name(L, "lyt_push_axe", a ? a : LYTX_MEM);
}

static void do_axe(lyt_state *L, lytI_req *q) {
  const lyt_axe *d = q->p;
  lytS_ctx *cx = &L->cx;
  if (!d) lytS_fail(cx, LYT_ERRRUN, "lyt_push_axe: the description is NULL");
  if (d->nshard < 0 || d->nreplica < 0 || d->noffset < 0 || d->nshard > LYT_AXE_MAXITERS ||
      d->nreplica > LYT_AXE_MAXITERS || d->noffset > LYT_AXE_MAXAXES)
    lytS_fail(cx, LYT_ERRRUN, "lyt_push_axe: %d shard, %d replica iters and %d offsets (at most %d, %d, %d)",
              d->nshard, d->nreplica, d->noffset, LYT_AXE_MAXITERS, LYT_AXE_MAXITERS, LYT_AXE_MAXAXES);
  lytX_layout *x = lytX_new(cx);
  for (int i = 0; i < d->nshard; i++)
    lytX_shard(cx, x, d->shard[i].extent, d->shard[i].stride, axis_name(L, d->shard[i].axis));
  for (int i = 0; i < d->nreplica; i++)
    lytX_replica(cx, x, d->replica[i].extent, d->replica[i].stride, axis_name(L, d->replica[i].axis));
  for (int i = 0; i < d->noffset; i++) lytX_offset(cx, x, d->offset[i], axis_name(L, d->offset_axis[i]));
  lytX_check(cx, x);
  lyt_value r = { .kind = LYT_VAXE };
  r.u.axe = x;
  lytI_push(L, r);
}

int lyt_push_axe(lyt_state *L, const lyt_axe *d) {
  lytI_req q = { .p = d };
  return lytI_protect(L, do_axe, &q);
}

static void do_to_axe(lyt_state *L, lytI_req *q) {
  lyt_axe *d = q->out;
  const lytX_layout *x = lytI_at_kind(L, q->idx, LYT_VAXE, "lyt_to_axe")->u.axe;
  memset(d, 0, sizeof *d);
  d->nshard = x->nd, d->nreplica = x->nr, d->noffset = x->no;
  for (int i = 0; i < x->nd; i++) d->shard[i] = (lyt_iter){ x->d[i].extent, x->d[i].stride, x->d[i].axis };
  for (int i = 0; i < x->nr; i++) d->replica[i] = (lyt_iter){ x->r[i].extent, x->r[i].stride, x->r[i].axis };
  for (int i = 0; i < x->no; i++) d->offset_axis[i] = x->oaxis[i], d->offset[i] = x->off[i];
}

int lyt_to_axe(lyt_state *L, int idx, lyt_axe *d) {
  return lytI_read_into(L, do_to_axe, idx, d, "lyt_to_axe");
}

