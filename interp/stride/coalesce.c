/*
** stride/coalesce.c: coalesce, filter_zeros and filter (stride core, lytS_).
**
** coalesce flattens a layout and merges neighbours s0:d0, s1:d1 whenever
** d1 == s0*d0, dropping size-1 leaves; the function on [0,size) is kept.
** We scan right to left exactly as CuTe's bw_coalesce does, so the rare
** corner cases (a lone size-1 result is 1:0, a single mode unwraps to an
** integer) come out the same. coalesce_x is CuTe's variant used by
** composition: a trailing size-1 leaf is read as extent 2 so that the
** function is also kept beyond the domain (CuTe's extension rule).
*/
#include "interp/stride/layout.h"

/* Does stride a equal s*b (ints or same-path basis elements)? */
static int merges(lytS_ctx *cx, const lytS_tup *b, int64_t s, const lytS_tup *a) {
  if (lytS_isint(a) && lytS_isint(b)) {
    int64_t p;
    if (__builtin_mul_overflow(s, b->v, &p)) return 0;
    return p == a->v;
  }
  if (lytS_isbasis(a) && lytS_isbasis(b)) {
    lytS_tup *sb = lytS_dscale(cx, b, s);
    return lytS_tup_eq(sb, a);
  }
  return 0;
}

/* CuTe's bw_coalesce over f's first `upto` leaves, starting from the
** (already chosen) last mode last_s:last_d. */
static lytS_flat bw_coalesce(lytS_ctx *cx, const lytS_flat *f, int32_t upto,
                             int64_t last_s, lytS_tup *last_d) {
  lytS_flat r = lytS_flat_new(cx, upto + 1);
  int64_t *s = r.s;
  lytS_tup **d = r.d;
  int32_t front = upto;  /* filled from the back: modes [front, upto] */
  s[front] = last_s;
  d[front] = last_d;
  for (int32_t i = upto - 1; i >= 0; i--) {
    if (f->s[i] == 1) continue;
    if (front == upto && s[front] == 1) {  /* replace the initial size-1 mode */
      s[front] = f->s[i];
      d[front] = f->d[i];
    } else if (merges(cx, f->d[i], f->s[i], d[front])) {
      s[front] = lytS_mul(cx, s[front], f->s[i]);
      d[front] = f->d[i];
    } else {
      front--;
      s[front] = f->s[i];
      d[front] = f->d[i];
    }
  }
  if (front == upto && s[front] == 1) d[front] = lytS_int(cx, 0);  /* CuTe returns _1:_0 */
  return (lytS_flat){ upto - front + 1, s + front, d + front };  /* (layout.h says why) */
}

/* The one leaf 1:0, what coalesce makes of no leaves. */
static lytS_flat unit_leaf(lytS_ctx *cx) {
  lytS_flat f = lytS_flat_new(cx, 1);
  f.n = 1;
  f.s[0] = 1;
  f.d[0] = lytS_int(cx, 0);
  return f;
}

/* bw_coalesce of all of f: at least one leaf. */
static lytS_flat coalesced(lytS_ctx *cx, const lytS_flat *f) {
  if (f->n == 0) return unit_leaf(cx);
  return bw_coalesce(cx, f, f->n - 1, f->s[f->n - 1], f->d[f->n - 1]);
}

lytS_layout lytS_coalesce_flat(lytS_ctx *cx, const lytS_flat *f) {
  lytS_flat r = coalesced(cx, f);
  return lytS_flat_layout(cx, &r);
}

lytS_layout lytS_coalesce(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l), r = coalesced(cx, &f);
  return lytS_flat_layout(cx, &r);
}

lytS_flat lytS_coalesce_leaves(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  return coalesced(cx, &f);
}

lytS_flat lytS_filter_leaves(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  for (int32_t k = 0; k < f.n; k++)
    if (lytS_isint(f.d[k]) && f.d[k]->v == 0) f.s[k] = 1;
  return coalesced(cx, &f);
}

lytS_flat lytS_coalesce_x(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_flat_of(cx, l);
  if (f.n == 0) return unit_leaf(cx);
  int64_t last = f.s[f.n - 1] == 1 ? 2 : f.s[f.n - 1];
  return bw_coalesce(cx, &f, f.n - 1, last, f.d[f.n - 1]);
}

/* Apply op at the leaves of profile: modes past rank(profile) are kept. */
typedef lytS_layout (*layfn)(lytS_ctx *, lytS_layout);

static lytS_layout by_profile(lytS_ctx *cx, lytS_layout l, const lytS_tup *p, layfn op,
                              const char *name) {
  if (!lytS_istup(p)) return op(cx, l);
  int32_t r = lytS_lrank(l);
  if (p->n > r)
    lytS_fail(cx, LYT_ERRRUN, "%s: profile %s has more modes than the layout (rank %d)",
              name, lytS_tup_str(cx, p), r);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(r ? r : 1));
  for (int32_t i = 0; i < r; i++) {
    lytS_layout m = lytS_lmode(cx, l, i);
    ms[i] = i < p->n ? by_profile(cx, m, p->e[i], op, name) : m;
  }
  return lytS_concat(cx, ms, r);
}

lytS_layout lytS_coalesce_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile) {
  return by_profile(cx, l, profile, lytS_coalesce, "coalesce");
}

/* Shape with extent 1 wherever the guide (stride or profile) is a 0 leaf;
** a 0 guide leaf over a subtree replaces the whole subtree. */
static lytS_tup *zero_out(lytS_ctx *cx, const lytS_tup *g, const lytS_tup *s) {
  if (lytS_istup(g)) {
    if (!lytS_istup(s) || s->n < g->n)
      lytS_fail(cx, LYT_ERRRUN, "filter_zeros: profile %s does not fit shape %s",
                lytS_tup_str(cx, g), lytS_tup_str(cx, s));
    lytS_tup *r = lytS_newtup(cx, s->n);
    for (int32_t i = 0; i < s->n; i++)
      r->e[i] = i < g->n ? zero_out(cx, g->e[i], s->e[i]) : s->e[i];
    return r;
  }
  if (!(lytS_isint(g) && g->v == 0)) return (lytS_tup *)s;
  if (!lytS_istup(s)) return lytS_int(cx, 1);
  lytS_tup *r = lytS_newtup(cx, s->n);
  for (int32_t i = 0; i < s->n; i++) r->e[i] = zero_out(cx, g, s->e[i]);
  return r;
}

lytS_layout lytS_filter_zeros(lytS_ctx *cx, lytS_layout l) {
  lytS_layout r = { zero_out(cx, l.stride, l.shape), l.stride };
  return r;
}

lytS_layout lytS_filter_zeros_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile) {
  lytS_layout r = { zero_out(cx, profile, l.shape), l.stride };
  return r;
}

lytS_layout lytS_filter(lytS_ctx *cx, lytS_layout l) {
  lytS_flat r = lytS_filter_leaves(cx, l);
  return lytS_flat_layout(cx, &r);
}

lytS_layout lytS_filter_prof(lytS_ctx *cx, lytS_layout l, const lytS_tup *profile) {
  return by_profile(cx, l, profile, lytS_filter, "filter");
}
