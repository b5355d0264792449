/*
** stride/api.c: stride layouts across the C boundary: pushing, reading and
** inverting them
** (lyt.h). Each entry runs protected and reaches the core through the
** same builtins and checks a script meets (eval/api.h).
*/
#include <string.h>

#include "interp/eval/api.h"
#include "interp/stride/values.h"
static void do_layout(lyt_state *L, lytI_req *q) {
  const int64_t *const *a = q->p;
  if (q->n < 1 || !a[0] || !a[1])
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_push_layout: rank %d (at least 1, shape and stride given)", q->n);
  lytS_tup *sh = lytS_newtup(&L->cx, q->n), *st = lytS_newtup(&L->cx, q->n);
  for (int i = 0; i < q->n; i++) {
    sh->e[i] = lytS_int(&L->cx, a[0][i]);
    st->e[i] = lytS_int(&L->cx, a[1][i]);
  }
  lytI_push(L, lytI_layout(&L->cx, lytS_make_layout(&L->cx, q->n == 1 ? sh->e[0] : sh,
                                            q->n == 1 ? st->e[0] : st)));
}

int lyt_push_layout(lyt_state *L, int rank, const int64_t *shape, const int64_t *stride) {
  const int64_t *a[2] = { shape, stride };
  lytI_req q = { .n = rank, .p = a };
  return lytI_protect(L, do_layout, &q);
}

static void do_make_layout(lyt_state *L, lytI_req *q) {
  (void)q;
  lyt_value *v = lytI_take(L, 2, "lyt_make_layout");
  const char *why = NULL;
  lytS_tup *sh = lytI_val2tup(&L->cx, &v[0], &why);
  if (!sh) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_make_layout: the shape %s", why);
  lytS_tup *st = lytI_val2tup(&L->cx, &v[1], &why);
  if (!st) lytS_fail(&L->cx, LYT_ERRRUN, "lyt_make_layout: the stride %s", why);
  lytI_replace(L, 2, lytI_layout(&L->cx, lytS_make_layout(&L->cx, sh, st)));
}

int lyt_make_layout(lyt_state *L) {
  lytI_req q = { 0 };
  return lytI_protect(L, do_make_layout, &q);
}

static void do_to_layout(lyt_state *L, lytI_req *q) {
  int64_t **a = q->out;
  if (!a[0] || !a[1] || !a[2])
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_to_layout: rank, shape and stride must not be NULL");
  const lyt_value *v = lytI_at_kind(L, q->idx, LYT_VLAYOUT, "lyt_to_layout");
  lytS_flat f = lytS_flat_of(&L->cx, *v->u.lay);
  if (f.n > q->n)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_to_layout: the layout has %d modes, room for %d", (int)f.n, q->n);
  for (int32_t i = 0; i < f.n; i++) {
    if (f.d[i]->kind != LYTS_INT)
      lytS_fail(&L->cx, LYT_ERRRUN, "lyt_to_layout: mode %d has a basis stride, not an integer", (int)i);
    a[0][i] = f.s[i];
    a[1][i] = f.d[i]->v;
  }
  *(int *)a[2] = (int)f.n;
}

int lyt_to_layout(lyt_state *L, int idx, int cap, int *rank, int64_t *shape, int64_t *stride) {
  int64_t *a[3] = { shape, stride, (int64_t *)(void *)rank };
  lytI_req q = { .idx = idx, .n = cap, .out = a };
  return lytI_protect(L, do_to_layout, &q);
}

static void do_invert(lyt_state *L, lytI_req *q) {
  (void)q;
  lyt_value *v = lytI_take(L, 1, "lyt_invert");
  if (v->kind == LYT_VLINEAR) { lytI_replace(L, 1, lytI_api_builtin(L, "invert", 1, v)); return; }
  if (v->kind != LYT_VLAYOUT) lytI_api_wrong(L, "lyt_invert", v, "a stride or linear layout");
  /* right_inverse R has L(R(i)) == i on the image's contiguous prefix;
  ** when that prefix is all of [0, size), L is a bijection and R its
  ** inverse. Anything less is not an inverse, so it is an error. */
  lyt_value r = lytI_api_builtin(L, "right_inverse", 1, v);
  int64_t n = lytS_lsize(&L->cx, *v->u.lay), m = lytS_lsize(&L->cx, *r.u.lay);
  if (n != m)
    lytS_fail(&L->cx, LYT_ERRRUN, "lyt_invert: %s is not a bijection onto [0, %lld) (its right "
              "inverse covers %lld): use right_inverse or left_inverse",
              lytS_layout_str(&L->cx, *v->u.lay), (long long)n, (long long)m);
  lytI_replace(L, 1, r);
}

int lyt_invert(lyt_state *L) { return lytI_protect(L, do_invert, NULL); }

