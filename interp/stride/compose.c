/*
** stride/compose.c: composition, complement and the inverses (stride core, lytS_).
**
** composition follows CuTe C++'s algorithm step by step, so it gives
** CuTe's exact layout, size-1 strides included. CuTe's own conditions
** (the weak stride test and the size divisibility it static-asserts) are
** errors here too. Beyond them CuTe checks nothing, and for some inputs
** its result is not A o B. lyt decides which with two tests:
**   - a structural one, which vouches for the result without looking at
**     points: the stride r of every mode N:r of B left-divides A's
**     coalesced shape wherever B's walk goes on past a mode (s % r == 0 or
**     r % s == 0 there: the note's strong condition, also what pycute
**     asserts; a walk that ends inside a mode needs nothing if B has one
**     live mode), and the
**     modes of a multi-mode B do not interfere (mode N:r occupies the
**     range [|r|, |r|*N) of A's refined mixed radix, and those ranges must
**     be disjoint; stride-0 and size-1 modes are free);
**   - failing that, the points themselves: for B of at most LAX_MAX
**     points, R(i) == A(B(i)) for every i. A result that passes is exact
**     whatever the structure (a coincidence of strides, a mode that
**     carries into one of size 1), so it is returned; one that fails, or a
**     B too large to check, is refused with the structural reason.
** In a build with LYT_VERIFY_CORES (the sanitizer build, make SAN=1, which
** CI runs the whole test suite in), a result that passes the structural
** test is still checked point by point when B is small (VERIFY_MAX): a
** failure there means the structural test is wrong, so it is reported as
** an internal error. Other builds leave it out: it cost a tenth of a
** workload of CuTe operations (bench/bench.py), and the stride fuzzer,
** whose own pointwise check it would turn into a clean error, then sees
** a wrong result as the finding it is.
**
** complement refuses non-injective layouts and layouts that are not
** "sorted-divisible" (the note's admissibility); the cotarget is rounded
** up as in CuTe. right_inverse/left_inverse follow CuTe C++ (right
** skips leaves that do not continue the image; left refuses
** non-injective layouts, which CuTe would quasi-invert).
*/
#include "interp/stride/layout.h"

#include <string.h>

#ifdef LYT_VERIFY_CORES
#define VERIFY_MAX 4096     /* the safety net checks B this small */
#endif
#define LAX_MAX (1 << 16)   /* a structurally doubtful result is checked up to this size */
#define SWIZZLE_MAX (1 << 20) /* a swizzle composition is checked point by point up to this size */

/* ------------------------------------------------------------------ */
/* composition                                                         */
/* ------------------------------------------------------------------ */

typedef struct span { int64_t lo, hi, n, r; } span;  /* [lo,hi) of mode n:r */

/* Why the structural test could not vouch for the result: the first
** failure, raised only if the points do not vouch for it either. */
enum { DOUBT_NONE, DOUBT_STRIDE, DOUBT_OVERLAP, DOUBT_NEGATIVE };
typedef struct doubt {
  int kind;
  int64_t r, s, rs;  /* DOUBT_STRIDE: B's stride, A's mode, what was left of r there */
  span p, q;         /* DOUBT_OVERLAP: the two modes */
} doubt;

typedef struct comp {
  lytS_layout a;     /* the left operand as given */
  lytS_flat fa;      /* coalesce_x(a) */
  span *sp;          /* ranges used by B's modes (general case only) */
  int32_t nsp, cap;
  int negative;      /* a mode with a negative stride was seen */
  int multi;         /* B has more than one mode of size > 1 and stride != 0 */
  doubt why;
} comp;

/* c, for composing with a. Made in place: a comp returned whole was
** copied from a local GCC had just written piecewise (stride/layout.h). */
static void comp_init(lytS_ctx *cx, comp *c, lytS_layout a) {
  c->a = a;
  c->fa = lytS_coalesce_x(cx, a);
  c->sp = NULL;
  c->nsp = c->cap = c->negative = c->multi = 0;
  c->why = (doubt){ DOUBT_NONE, 0, 0, 0, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
}

static const char *flat_shape_str(lytS_ctx *cx, const lytS_flat *f) {
  if (f->n == 1) return lytS_tup_str(cx, lytS_int(cx, f->s[0]));
  lytS_tup *t = lytS_newtup(cx, f->n);
  for (int32_t i = 0; i < f->n; i++) t->e[i] = lytS_int(cx, f->s[i]);
  return lytS_tup_str(cx, t);
}

static void add_span(lytS_ctx *cx, comp *c, int64_t n, int64_t r) {
  if (c->nsp == c->cap) {
    int32_t cap = c->cap ? c->cap * 2 : 8;
    span *sp = lytS_alloc(cx, sizeof *sp * (size_t)cap);
    if (c->nsp) memcpy(sp, c->sp, sizeof *sp * (size_t)c->nsp);
    c->sp = sp;
    c->cap = cap;
  }
  int64_t ar = r < 0 ? -r : r;
  span s = { ar, lytS_mul(cx, ar, n), n, r };
  c->sp[c->nsp++] = s;
  if (r < 0) c->negative = 1;
}

/* "the left-hand side", or "the left-hand side A once coalesced" when the
** shape the checks walk is not A's own flattened shape. */
static const char *lhs_name(lytS_ctx *cx, const comp *c) {
  const char *fs = flat_shape_str(cx, &c->fa);
  if (strcmp(fs, lytS_tup_str(cx, lytS_flatten(cx, c->a.shape))) == 0) return "the left-hand side";
  const char *as = lytS_layout_str(cx, c->a);
  char *r = lytS_alloc(cx, strlen(as) + 40);
  strcpy(r, "the left-hand side ");
  strcat(r, as);
  strcat(r, " once coalesced");
  return r;
}

/* r is B's stride, rs what is left of it when the walk reaches mode s. */
static _Noreturn void stride_error(lytS_ctx *cx, const comp *c, int64_t r, int64_t s,
                                   int64_t rs) {
  if (rs == r)
    lytS_fail(cx, LYT_ERRRUN, "composition: stride %lld of the right-hand side does not "
              "left-divide shape %s of %s", (long long)r, flat_shape_str(cx, &c->fa),
              lhs_name(cx, c));
  lytS_fail(cx, LYT_ERRRUN, "composition: stride %lld of the right-hand side does not "
            "left-divide shape %s of %s (it reaches mode %lld as stride %lld, and neither "
            "divides the other)", (long long)r, flat_shape_str(cx, &c->fa), lhs_name(cx, c),
            (long long)s, (long long)rs);
}

static _Noreturn void shape_error(lytS_ctx *cx, const comp *c, int64_t n, int64_t rest,
                                  int64_t nw) {
  lytS_fail(cx, LYT_ERRRUN, "composition: size %lld of the right-hand side is not "
            "divisible by shape %s of %s (%lld %% %lld != 0)", (long long)n,
            flat_shape_str(cx, &c->fa), lhs_name(cx, c), (long long)rest, (long long)nw);
}

/* The step checks: CuTe's weak stride test always (it static-asserts even
** when the size is used up); the strong one where the walk goes on past
** this mode (more of B's size left than the mode holds at this stride).
** A walk that ends inside a mode leaves the rest of that mode's digit
** unused, where another mode of B could land and carry: with several
** live modes, the strong test holds wherever size is left. */
static void check_step(lytS_ctx *cx, comp *c, int64_t s, int64_t rs, int64_t rest,
                       int64_t r) {
  int64_t ar = rs < 0 ? -rs : rs;
  if (!(rs % s == 0 || rs < s)) stride_error(cx, c, r, s, rs);
  int strong = s % ar == 0 || ar % s == 0;
  int64_t inside = c->multi ? 1 : lytS_ceil_div_int(cx, s, ar);
  if (!strong && rest > inside && c->why.kind == DOUBT_NONE)
    c->why = (doubt){ DOUBT_STRIDE, r, s, rs, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
}

/* Result of the loop, as CuTe returns it: a lone emitted mode unwraps. */
static lytS_layout finish(lytS_ctx *cx, lytS_flat *out, int64_t rest, lytS_tup *lastd) {
  if (out->n == 0 || rest != 1) {
    out->s[out->n] = rest;
    out->d[out->n++] = lastd;
  }
  return lytS_flat_layout(cx, out);
}

/* A (flat, at least 2 modes) o N:r, r a nonzero integer. */
static lytS_layout comp_general(lytS_ctx *cx, comp *c, int64_t n, int64_t r) {
  const lytS_flat *a = &c->fa;
  lytS_flat out = lytS_flat_new(cx, a->n + 1);
  int64_t rest = n, rs = r;
  for (int32_t k = 0; k + 1 < a->n; k++) {
    int64_t s = a->s[k], ar = rs < 0 ? -rs : rs;
    check_step(cx, c, s, rs, rest, r);
    int64_t next_shape = lytS_ceil_div_int(cx, s, ar);
    int64_t next_stride = lytS_ceil_div_int(cx, ar, s) * (rs < 0 ? -1 : 1);
    if (next_shape == 1 || rest == 1) { rs = next_stride; continue; }
    int64_t nw = next_shape < rest ? next_shape : rest;
    if (rest % nw != 0) shape_error(cx, c, n, rest, nw);
    out.s[out.n] = nw;
    out.d[out.n++] = lytS_dscale(cx, a->d[k], rs);
    rest /= nw;
    rs = next_stride;
  }
  add_span(cx, c, n, r);
  return finish(cx, &out, rest, lytS_dscale(cx, a->d[a->n - 1], rs));
}

static lytS_layout comp_leaf(lytS_ctx *cx, comp *c, lytS_tup *bs, lytS_tup *bd);
static _Noreturn void doubt_error(lytS_ctx *cx, const comp *c);

/* CuTe's composition_impl: distribute over B's modes, then the leaf cases. */
static lytS_layout comp_rec(lytS_ctx *cx, comp *c, lytS_tup *bs, lytS_tup *bd) {
  if (!lytS_istup(bs)) return comp_leaf(cx, c, bs, bd);
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(bs->n ? bs->n : 1));
  for (int32_t i = 0; i < bs->n; i++) ms[i] = comp_rec(cx, c, bs->e[i], bd->e[i]);
  return lytS_concat(cx, ms, bs->n);
}

/* B's stride is a basis element: compose with the mode of A it selects. */
static lytS_layout comp_basis(lytS_ctx *cx, comp *c, lytS_tup *bs, lytS_tup *bd) {
  lytS_layout sub = c->a;
  for (int k = 0; k < bd->npath; k++) {
    if (bd->path[k] >= lytS_lrank(sub))
      lytS_fail(cx, LYT_ERRRUN, "composition: basis stride %s selects no mode of the "
                "left-hand side", lytS_tup_str(cx, bd));
    sub = lytS_lmode(cx, sub, bd->path[k]);
  }
  comp inner;
  comp_init(cx, &inner, sub);
  lytS_layout r = comp_leaf(cx, &inner, bs, lytS_int(cx, bd->v));
  if (inner.why.kind != DOUBT_NONE) doubt_error(cx, &inner);  /* basis strides: no points to check */
  return r;
}

static lytS_layout comp_leaf(lytS_ctx *cx, comp *c, lytS_tup *bs, lytS_tup *bd) {
  lytS_layout b = { bs, bd };
  if (lytS_isbasis(bd)) return comp_basis(cx, c, bs, bd);
  if (bd->v == 0) return b;  /* stride 0: B itself */
  if (c->fa.n == 1) {         /* integral A: s:(r*d) */
    lytS_layout r = { bs, lytS_dscale(cx, c->fa.d[0], bd->v) };
    return r;
  }
  return comp_general(cx, c, bs->v, bd->v);
}

/* The note's disjointness condition over the modes of a multi-mode B. */
static void check_disjoint(comp *c) {
  if (c->why.kind != DOUBT_NONE) return;
  if (c->multi && c->negative) {
    c->why.kind = DOUBT_NEGATIVE;
    return;
  }
  for (int32_t i = 0; i < c->nsp; i++)
    for (int32_t j = i + 1; j < c->nsp; j++) {
      const span *p = &c->sp[i], *q = &c->sp[j];
      if (p->n <= 1 || q->n <= 1) continue;
      if (p->hi <= q->lo || q->hi <= p->lo) continue;
      c->why = (doubt){ DOUBT_OVERLAP, 0, 0, 0, *p, *q };
      return;
    }
}

static _Noreturn void doubt_error(lytS_ctx *cx, const comp *c) {
  const doubt *w = &c->why;
  if (w->kind == DOUBT_STRIDE) stride_error(cx, c, w->r, w->s, w->rs);
  if (w->kind == DOUBT_NEGATIVE)
    lytS_fail(cx, LYT_ERRRUN, "composition: a right-hand side with several modes may not "
              "have negative strides (their carries would interfere)");
  lytS_fail(cx, LYT_ERRRUN, "composition: modes %lld:%lld and %lld:%lld of the "
            "right-hand side interfere in shape %s of %s (ranges "
            "[%lld,%lld) and [%lld,%lld) overlap)", (long long)w->p.n, (long long)w->p.r,
            (long long)w->q.n, (long long)w->q.r, flat_shape_str(cx, &c->fa), lhs_name(cx, c),
            (long long)w->p.lo, (long long)w->p.hi, (long long)w->q.lo, (long long)w->q.hi);
}

/* Index values equal, treating missing arithmetic-tuple entries as 0. */
static int index_eq(lytS_ctx *cx, lytS_tup *x, lytS_tup *y) {
  x = lytS_index_add(cx, x, lytS_int(cx, 0));
  y = lytS_index_add(cx, y, lytS_int(cx, 0));
  if (lytS_isint(x) && lytS_isint(y)) return x->v == y->v;
  if (lytS_isint(x) && x->v == 0) return index_eq(cx, y, x);
  if (!lytS_istup(x)) return 0;
  for (int32_t i = 0; i < x->n; i++) {
    lytS_tup *yi = lytS_istup(y) && i < y->n ? y->e[i] : lytS_int(cx, 0);
    if (!index_eq(cx, x->e[i], yi)) return 0;
  }
  return !lytS_istup(y) || y->n <= x->n || index_eq(cx, y, x);
}

/* Basis strides in A: evaluate as arithmetic tuples. */
static int64_t mismatch_general(lytS_ctx *cx, lytS_layout a, lytS_layout b, lytS_layout r,
                                int64_t n) {
  lytS_tup ci = { .kind = LYTS_INT };
  for (int64_t i = 0; i < n; i++) {
    lytA_mark m = lytA_getmark(cx->arena);
    ci.v = i;
    lytS_tup *bi = lytS_eval(cx, b, &ci);
    int same = index_eq(cx, lytS_eval(cx, a, bi), lytS_eval(cx, r, &ci));
    lytA_release(cx->arena, m);
    if (!same) return i;
  }
  return -1;
}

/* An integer layout flattened to leaves, for evaluating many indices
** without allocating: each leaf takes its digit, the last leaf takes what
** is left, which is CuTe's extension rule for indices past the size. */
typedef struct leaves {
  int32_t n;
  const int64_t *s;
  int64_t *d;
} leaves;

static int int_walk(const lytS_tup *s, const lytS_tup *d, int64_t *ss, int64_t *dd, int32_t *k) {
  if (!lytS_istup(s)) {
    if (!lytS_isint(d)) return 0;
    ss[*k] = s->v;
    dd[(*k)++] = d->v;
    return 1;
  }
  if (!lytS_istup(d) || d->n != s->n) return 0;
  for (int32_t i = 0; i < s->n; i++)
    if (!int_walk(s->e[i], d->e[i], ss, dd, k)) return 0;
  return 1;
}

/* 0 where a stride is no integer (or the sides nest differently). */
static int int_leaves(lytS_ctx *cx, lytS_layout l, leaves *out) {
  size_t cap = (size_t)lytS_nleaves(l.shape);
  int64_t *s = lytS_alloc(cx, sizeof *s * 2 * (cap ? cap : 1));
  out->n = 0;
  out->s = s;
  out->d = s + (cap ? cap : 1);
  return int_walk(l.shape, l.stride, s, out->d, &out->n);
}

static int64_t leaves_eval(lytS_ctx *cx, const leaves *l, int64_t i) {
  int64_t r = 0;
  for (int32_t k = 0; k < l->n; k++) {
    int64_t digit = k + 1 == l->n ? i : i % l->s[k];
    r = lytS_add(cx, r, lytS_mul(cx, digit, l->d[k]));
    i /= l->s[k];
  }
  return r;
}

/* Indices 0, 1, 2, ... of an integer layout as a counter over its
** coordinates: a step adds a stride and, where a coordinate wraps, takes
** back its extent, without the division per leaf leaves_eval pays. */
typedef struct counter {
  const leaves *l;
  int64_t *c;  /* the coordinates, the last one unbounded */
  int64_t v;   /* the layout's value at them */
} counter;

static counter counter_new(lytS_ctx *cx, const leaves *l) {
  counter k = { l, lytS_alloc(cx, sizeof *k.c * (size_t)(l->n ? l->n : 1)), 0 };
  memset(k.c, 0, sizeof *k.c * (size_t)(l->n ? l->n : 1));
  return k;
}

static inline void counter_step(lytS_ctx *cx, counter *k) {
  const leaves *l = k->l;
  if (l->n == 0) return;
  for (int32_t j = 0;; j++) {
    k->v = lytS_add(cx, k->v, l->d[j]);
    if (++k->c[j] < l->s[j] || j + 1 == l->n) return;
    k->v = lytS_sub(cx, k->v, lytS_mul(cx, l->s[j], l->d[j]));
    k->c[j] = 0;
  }
}

/* A's values at 0 .. *m - 1 by a counter, where A's size *m is at most
** twice n (B's images mostly fall there); NULL where it is larger. */
static int64_t *values_below_size(lytS_ctx *cx, const leaves *l, int64_t n, int64_t *m) {
  *m = 1;
  for (int32_t k = 0; k < l->n; k++)
    if (__builtin_mul_overflow(*m, l->s[k], m) || *m > 2 * n) return NULL;
  int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)*m);
  counter k = counter_new(cx, l);
  for (int64_t x = 0; x < *m; x++) {
    v[x] = k.v;
    if (x + 1 < *m) counter_step(cx, &k);
  }
  return v;
}

/* The first i < n where R(i) != A(B(i)), or -1. */
static int64_t mismatch(lytS_ctx *cx, lytS_layout a, lytS_layout b, lytS_layout r, int64_t n) {
  lytA_mark m = lytA_getmark(cx->arena);
  leaves la, lb, lr;
  int64_t bad = -1;
  if (int_leaves(cx, a, &la) && int_leaves(cx, b, &lb) && int_leaves(cx, r, &lr)) {
    counter kb = counter_new(cx, &lb), kr = counter_new(cx, &lr);
    int64_t size_a, *va = values_below_size(cx, &la, n, &size_a);
    for (int64_t i = 0; i < n && bad < 0; i++) {
      int64_t x = kb.v;
      if ((va && x >= 0 && x < size_a ? va[x] : leaves_eval(cx, &la, x)) != kr.v) bad = i;
      if (i + 1 < n) counter_step(cx, &kb), counter_step(cx, &kr);
    }
    lytA_release(cx->arena, m);
    return bad;
  }
  lytA_release(cx->arena, m);
  return mismatch_general(cx, a, b, r, n);
}

/* CuTe's algorithm with CuTe's own checks; c says what the structural
** test thought of it. */
/* Whether leaf k of B's shape and leaf k of its stride make a mode that
** moves (extent above 1, stride not 0). */
static int live_leaf(int64_t s, const lytS_tup *d) { return s > 1 && !(lytS_isint(d) && d->v == 0); }

/* B's live modes, counted without flattening it; 0 where its sides nest
** differently (lytS_flat_of then pairs their leaves in order). */
static int count_live(const lytS_tup *s, const lytS_tup *d, int32_t *live) {
  if (!lytS_istup(s)) {
    if (lytS_istup(d)) return 0;
    *live += live_leaf(s->v, d);
    return 1;
  }
  if (!lytS_istup(d) || d->n != s->n) return 0;
  for (int32_t i = 0; i < s->n; i++)
    if (!count_live(s->e[i], d->e[i], live)) return 0;
  return 1;
}

static lytS_layout compose(lytS_ctx *cx, lytS_layout a, lytS_layout b, comp *c) {
  lytS_check_shape(cx, b.shape, "composition");
  comp_init(cx, c, a);
  int32_t live = 0;
  if (!count_live(b.shape, b.stride, &live)) {
    lytS_flat fb = lytS_flat_of(cx, b);
    live = 0;
    for (int32_t i = 0; i < fb.n; i++) live += live_leaf(fb.s[i], fb.d[i]);
  }
  c->multi = live > 1;
  lytS_layout r = comp_rec(cx, c, b.shape, b.stride);
  check_disjoint(c);
  return r;
}

lytS_layout lytS_compose_cute(lytS_ctx *cx, lytS_layout a, lytS_layout b) {
  comp c;
  return compose(cx, a, b, &c);
}

lytS_layout lytS_compose(lytS_ctx *cx, lytS_layout a, lytS_layout b) {
  comp c;
  lytS_layout r = compose(cx, a, b, &c);
  if (c.why.kind != DOUBT_NONE) {
    int64_t n = lytS_lsize(cx, b);
    if (lytS_has_basis(b.stride) || n > LAX_MAX || mismatch(cx, a, b, r, n) >= 0)
      doubt_error(cx, &c);
    return r;
  }
#ifdef LYT_VERIFY_CORES
  int64_t n = lytS_lsize(cx, b);
  int64_t bad = !lytS_has_basis(b.stride) && n <= VERIFY_MAX ? mismatch(cx, a, b, r, n) : -1;
  if (bad >= 0)
    lytS_fail(cx, LYT_ERRRUN, "composition: internal error: result %s differs from "
              "%s o %s at %lld", lytS_layout_str(cx, r), lytS_layout_str(cx, a),
              lytS_layout_str(cx, b), (long long)bad);
#endif
  return r;
}

/* ------------------------------------------------------------------ */
/* a swizzle on the right                                              */
/* ------------------------------------------------------------------ */

/* CuTe's composition(L, Sw<B,M,S>): L's images of the swizzle's two bit
** fields become the fields of a new swizzle Sw' (make_swizzle<Y,Z>), and
** the result is Sw' o L. CuTe says it "works in simple cases": it is L o Sw
** only where L carries those bits over unchanged, so lyt checks every
** index of L: L(Sw(i)) == Sw'(L(i)). *out is Sw'; its B is 0 where the
** swizzle vanishes (the result is L). */
void lytS_compose_swizzle(lytS_ctx *cx, lytS_layout l, lytS_swizzle sw, lytS_swizzle *out) {
  leaves ll;
  if (!int_leaves(cx, l, &ll))
    lytS_fail(cx, LYT_ERRRUN, "composition: %s has basis strides; a swizzle composes on the "
              "right of integer strides only", lytS_layout_str(cx, l));
  uint64_t ones = ((uint64_t)1 << sw.b) - 1;
  int64_t y = leaves_eval(cx, &ll, (int64_t)(ones << (sw.m + (sw.s > 0 ? sw.s : 0))));
  int64_t z = leaves_eval(cx, &ll, (int64_t)(ones << (sw.m - (sw.s < 0 ? sw.s : 0))));
  out->b = 0, out->m = 0, out->s = 0;
  if (y < 0 || z < 0 || __builtin_popcountll((uint64_t)y) != __builtin_popcountll((uint64_t)z))
    lytS_fail(cx, LYT_ERRRUN, "composition: %s maps the bit fields of Sw<%d,%d,%d> to %lld "
              "and %lld, which are no swizzle's fields (CuTe's make_swizzle asserts)",
              lytS_layout_str(cx, l), sw.b, sw.m, sw.s, (long long)y, (long long)z);
  int b = __builtin_popcountll((uint64_t)y);
  if (b == 0) return;
  int ty = __builtin_ctzll((uint64_t)y), tz = __builtin_ctzll((uint64_t)z), m = ty < tz ? ty : tz, sh = ty - tz;
  uint64_t rones = ((uint64_t)1 << b) - 1;
  uint64_t code = rones << (m + (sh > 0 ? sh : 0)) | rones << (m - (sh < 0 ? sh : 0));
  if ((sh < 0 ? -sh : sh) < b || ((uint64_t)y | (uint64_t)z) != code)
    lytS_fail(cx, LYT_ERRRUN, "composition: %s maps the bit fields of Sw<%d,%d,%d> to %lld "
              "and %lld, which are not two fields of one swizzle (CuTe's make_swizzle asserts)",
              lytS_layout_str(cx, l), sw.b, sw.m, sw.s, (long long)y, (long long)z);
  lytS_swizzle r = lytS_make_swizzle(cx, b, m, sh);
  int64_t n = lytS_lsize(cx, l);
  if (n > SWIZZLE_MAX)
    lytS_fail(cx, LYT_ERRRUN, "composition: %s has %lld points; lyt checks a composition with a "
              "swizzle point by point and refuses layouts over %d points", lytS_layout_str(cx, l),
              (long long)n, SWIZZLE_MAX);
  for (int64_t i = 0; i < n; i++) {
    int64_t want = leaves_eval(cx, &ll, lytS_swizzle_apply(cx, sw, i));
    int64_t img = leaves_eval(cx, &ll, i);
    if (img < 0 || want != lytS_swizzle_apply(cx, r, img))
      lytS_fail(cx, LYT_ERRRUN, "composition: %s o Sw<%d,%d,%d> is no swizzled layout: CuTe's "
                "answer Sw<%d,%d,%d> o %s gives %lld at index %lld where the composition is %lld",
                lytS_layout_str(cx, l), sw.b, sw.m, sw.s, r.b, r.m, r.s, lytS_layout_str(cx, l),
                (long long)(img < 0 ? img : lytS_swizzle_apply(cx, r, img)), (long long)i,
                (long long)want);
  }
  *out = r;
}

/* CuTe's composition(L, Sw o 0 o B) is composition(composition(L, Sw), B),
** that is Sw' o (L o B) with Sw' from lytS_compose_swizzle. Sw' o L equals
** L o Sw only on L's domain, and B may leave it (CuTe extends L's last
** mode), so every point of the result is checked: L(Sw(B(i))) ==
** Sw'((L o B)(i)). */
lytS_layout lytS_compose_swizzled(lytS_ctx *cx, lytS_layout l, lytS_swizzle sw, lytS_layout b,
                                  lytS_swizzle *out) {
  lytS_compose_swizzle(cx, l, sw, out);
  lytS_layout r = lytS_compose(cx, l, b);
  int64_t n = lytS_lsize(cx, b);
  leaves ll, lb, lr;
  if (n > SWIZZLE_MAX || !int_leaves(cx, l, &ll) || !int_leaves(cx, b, &lb) || !int_leaves(cx, r, &lr))
    lytS_fail(cx, LYT_ERRRUN, "composition: %s o (Sw<%d,%d,%d> o %s) is checked point by point "
              "and needs integer strides and at most %d points", lytS_layout_str(cx, l), sw.b,
              sw.m, sw.s, lytS_layout_str(cx, b), SWIZZLE_MAX);
  for (int64_t i = 0; i < n; i++) {
    int64_t want = leaves_eval(cx, &ll, lytS_swizzle_apply(cx, sw, leaves_eval(cx, &lb, i)));
    int64_t got = lytS_swizzle_apply(cx, *out, leaves_eval(cx, &lr, i));
    if (got != want)
      lytS_fail(cx, LYT_ERRRUN, "composition: CuTe's answer Sw<%d,%d,%d> o %s for %s o "
                "(Sw<%d,%d,%d> o %s) gives %lld at index %lld where the composition is %lld",
                out->b, out->m, out->s, lytS_layout_str(cx, r), lytS_layout_str(cx, l), sw.b,
                sw.m, sw.s, lytS_layout_str(cx, b), (long long)got, (long long)i, (long long)want);
  }
  return r;
}

lytS_layout lytS_compose_tiler(lytS_ctx *cx, lytS_layout a, const lytS_tiler *t) {
  if (t->kind == LYT_TILE_LAYOUT) return lytS_compose(cx, a, t->lay);
  if (t->kind == LYT_TILE_UNDER) return a;
  int32_t r = lytS_lrank(a);
  if (t->n > r)
    lytS_fail(cx, LYT_ERRRUN, "composition: the tiler has %d modes but the layout only %d",
              t->n, r);
  /* CuTe C++ drops the modes of a that the tiler does not cover */
  lytS_layout *ms = lytS_alloc(cx, sizeof *ms * (size_t)(t->n ? t->n : 1));
  for (int32_t i = 0; i < t->n; i++)
    ms[i] = lytS_compose_tiler(cx, lytS_lmode(cx, a, i), &t->e[i]);
  return lytS_concat(cx, ms, t->n);
}

static void tiler_fill(lytS_ctx *cx, lytS_tiler *t, const lytS_tup *s) {
  memset(t, 0, sizeof *t);
  if (lytS_isunder(s)) { t->kind = LYT_TILE_UNDER; return; }
  if (lytS_isint(s)) {
    t->kind = LYT_TILE_LAYOUT;
    t->lay = lytS_int_layout(cx, s->v, 1);
    t->from_int = 1;
    lytS_check_shape(cx, s, "tiler");
    return;
  }
  if (!lytS_istup(s))
    lytS_fail(cx, LYT_ERRRUN, "tiler: %s is not a shape", lytS_tup_str(cx, s));
  t->kind = LYT_TILE_NEST;
  t->n = s->n;
  t->e = lytS_alloc(cx, sizeof *t->e * (size_t)(s->n ? s->n : 1));
  for (int32_t i = 0; i < s->n; i++) tiler_fill(cx, &t->e[i], s->e[i]);
}

lytS_tiler *lytS_tiler_of_shape(lytS_ctx *cx, const lytS_tup *shape) {
  lytS_tiler *t = lytS_alloc(cx, sizeof *t);
  tiler_fill(cx, t, shape);
  return t;
}

lytS_tiler *lytS_tiler_of_layout(lytS_ctx *cx, lytS_layout l) {
  lytS_tiler *t = lytS_alloc(cx, sizeof *t);
  memset(t, 0, sizeof *t);
  t->kind = LYT_TILE_LAYOUT;
  t->lay = l;
  return t;
}

/* ------------------------------------------------------------------ */
/* complement                                                          */
/* ------------------------------------------------------------------ */

/* Index of the smallest stride among the unused leaves (first on ties),
** the order CuTe's min/find fold visits them in. */
static int32_t next_min(const int64_t *d, const char *used, int32_t n) {
  int32_t best = -1;
  for (int32_t i = 0; i < n; i++)
    if (!used[i] && (best < 0 || d[i] < d[best])) best = i;
  return best;
}

static int64_t *int_strides(lytS_ctx *cx, const lytS_flat *f, const char *op) {
  int64_t *d = lytS_alloc(cx, sizeof *d * (size_t)(f->n ? f->n : 1));
  for (int32_t i = 0; i < f->n; i++) {
    d[i] = lytS_dint(cx, f->d[i], op);
    if (d[i] < 0)
      lytS_fail(cx, LYT_ERRRUN, "%s: negative stride %lld is not supported", op,
                (long long)d[i]);
  }
  return d;
}

/* One complement mode d/cur : cur, refusing what the note calls inadmissible. */
static int64_t comp_mode(lytS_ctx *cx, lytS_layout a, int64_t d, int64_t cur) {
  if (d / cur == 0)
    lytS_fail(cx, LYT_ERRRUN, "complement: layout %s is not injective (after sorting by "
              "stride, stride %lld is below %lld = shape*stride of the previous mode)",
              lytS_layout_str(cx, a), (long long)d, (long long)cur);
  if (d % cur != 0)
    lytS_fail(cx, LYT_ERRRUN, "complement: layout %s is not sorted-divisible (after "
              "sorting by stride, %lld = shape*stride of the previous mode does not "
              "divide stride %lld)", lytS_layout_str(cx, a), (long long)cur, (long long)d);
  return d / cur;
}

static void check_cotarget(lytS_ctx *cx, const lytS_tup *t, const lytS_tup *all) {
  if (lytS_istup(t)) {
    for (int32_t i = 0; i < t->n; i++) check_cotarget(cx, t->e[i], all);
  } else if (lytS_isint(t) && t->v <= 0) {
    lytS_fail(cx, LYT_ERRRUN, "complement: cotarget %s is not positive",
              lytS_tup_str(cx, all));
  }
}

lytS_layout lytS_complement(lytS_ctx *cx, lytS_layout a, const lytS_tup *cotarget) {
  check_cotarget(cx, cotarget, cotarget);
  lytS_check_shape(cx, cotarget, "complement");
  lytS_flat f = lytS_filter_leaves(cx, a);
  if (f.n == 1 && f.s[0] == 1)  /* nothing left: a compact layout of the cotarget */
    return lytS_make_left(cx, lytS_int(cx, lytS_size(cx, cotarget)));
  int64_t *d = int_strides(cx, &f, "complement");
  size_t nf = f.n > 0 ? (size_t)f.n : 1;  /* f.n >= 1 here; says so to the optimiser */
  char *used = lytS_alloc(cx, nf);
  memset(used, 0, nf);
  lytS_flat r = lytS_flat_new(cx, f.n + 1);
  int64_t cur = 1;
  for (int32_t k = 0; k < f.n; k++) {
    int32_t i = next_min(d, used, f.n);
    used[i] = 1;
    r.s[r.n] = comp_mode(cx, a, d[i], cur);
    r.d[r.n++] = lytS_int(cx, cur);
    cur = lytS_mul(cx, d[i], f.s[i]);
  }
  /* A shape cotarget is divided mode by mode, as CuTe's ceil_div does
  ** (lytS_complement_covering says what that can leave out). */
  lytS_tup *rest = lytS_ceil_div(cx, cotarget, lytS_int(cx, cur));
  r.s[r.n] = lytS_size(cx, rest);
  r.d[r.n] = lytS_int(cx, r.s[r.n] == 1 ? 0 : cur);
  r.n++;
  return lytS_coalesce_flat(cx, &r);
}

/* complement as the builtin gives it. Dividing a shape cotarget mode by
** mode can leave less than the cotarget holds ((12,32) over 32 is (1,11):
** 352 < 384). CuTe returns that all the same, against its own
** postcondition cosize((A, R)) >= size(cotarget); its divides and
** ceil_div rely on it (a tile count), so the core keeps it, but a user
** asking for a complement gets an error instead of a short layout. */
lytS_layout lytS_complement_covering(lytS_ctx *cx, lytS_layout a, const lytS_tup *cotarget) {
  lytS_layout r = lytS_complement(cx, a, cotarget);
  if (!lytS_istup(cotarget)) return r;  /* an integer is divided whole */
  int64_t want = lytS_size(cx, cotarget);
  int64_t got = lytS_cosize(cx, lytS_concat(cx, (lytS_layout[2]){ a, r }, 2));
  if (got < want)
    lytS_fail(cx, LYT_ERRRUN, "complement: CuTe divides the cotarget %s mode by mode, which "
              "gives %s, reaching %lld of its %lld elements; give the cotarget as the integer "
              "%lld to cover it", lytS_tup_str(cx, cotarget), lytS_layout_str(cx, r),
              (long long)got, (long long)want, (long long)want);
  return r;
}

lytS_layout lytS_complement1(lytS_ctx *cx, lytS_layout a) {
  int64_t co = lytS_cosize(cx, lytS_filter(cx, a));
  return lytS_complement(cx, a, lytS_int(cx, co));
}

/* ------------------------------------------------------------------ */
/* inverses                                                            */
/* ------------------------------------------------------------------ */

/* CuTe's SortByKey: an exchange sort on the stride (not stable; kept so
** that ties come out in CuTe's order). */
static int32_t *sort_by_stride(lytS_ctx *cx, const int64_t *d, int32_t n) {
  int32_t *ix = lytS_alloc(cx, sizeof *ix * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) ix[i] = i;
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = i + 1; j < n; j++)
      if (d[ix[j]] < d[ix[i]]) { int32_t t = ix[i]; ix[i] = ix[j]; ix[j] = t; }
  return ix;
}

static int64_t *exclusive_prefix(lytS_ctx *cx, const lytS_flat *f) {
  int64_t *p = lytS_alloc(cx, sizeof *p * (size_t)(f->n + 1));
  p[0] = 1;
  for (int32_t i = 0; i < f->n; i++) p[i + 1] = lytS_mul(cx, p[i], f->s[i]);
  return p;
}

static int64_t *any_int_strides(lytS_ctx *cx, const lytS_flat *f, const char *op) {
  int64_t *d = lytS_alloc(cx, sizeof *d * (size_t)(f->n ? f->n : 1));
  for (int32_t i = 0; i < f->n; i++) d[i] = lytS_dint(cx, f->d[i], op);
  return d;
}

lytS_layout lytS_right_inverse(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_coalesce_leaves(cx, l);
  int64_t *d = any_int_strides(cx, &f, "right_inverse");
  int64_t *pre = exclusive_prefix(cx, &f);
  int32_t *ix = sort_by_stride(cx, d, f.n);
  lytS_flat r = lytS_flat_new(cx, f.n + 1);
  r.s[0] = 1;
  r.d[0] = lytS_int(cx, 0);
  r.n = 1;
  int64_t cur = 1;
  for (int32_t k = 0; k < f.n; k++) {
    int32_t i = ix[k];
    if (d[i] != cur) continue;  /* C++ skips leaves that do not continue the image */
    r.s[r.n] = f.s[i];
    r.d[r.n++] = lytS_int(cx, pre[i]);
    cur = lytS_mul(cx, f.s[i], d[i]);
  }
  return lytS_coalesce_flat(cx, &r);
}

static void left_check(lytS_ctx *cx, lytS_layout l, const lytS_flat *f, const int64_t *d,
                       const int32_t *ix) {
  for (int32_t k = 0; k < f->n; k++) {
    int32_t i = ix[k];
    if (d[i] < 0)  /* CuTe answers (-1,4):(0,1) for 4:-1: an extent of -1, no layout */
      lytS_fail(cx, LYT_ERRRUN, "left_inverse: %s has the negative stride %lld, so it maps "
                "onto negative offsets, and a layout's domain holds none: no layout is its "
                "left inverse", lytS_layout_str(cx, l), (long long)d[i]);
    if (d[i] == 0 && f->s[i] > 1)
      lytS_fail(cx, LYT_ERRRUN, "left_inverse: layout %s is not injective (stride 0)",
                lytS_layout_str(cx, l));
  }
}

lytS_layout lytS_left_inverse(lytS_ctx *cx, lytS_layout l) {
  lytS_flat f = lytS_coalesce_leaves(cx, l);
  int64_t *d = any_int_strides(cx, &f, "left_inverse");
  int64_t *pre = exclusive_prefix(cx, &f);
  int32_t *ix = sort_by_stride(cx, d, f.n);
  left_check(cx, l, &f, d, ix);
  /* shapes d0, d1/d0, ..., then the extent of the largest-stride leaf;
  ** strides 0, then the prefix product of each taken leaf */
  lytS_flat r = lytS_flat_new(cx, f.n + 1);
  r.d[0] = lytS_int(cx, 0);
  int64_t sz = 1, prev_end = 0;
  for (int32_t k = 0; k < f.n; k++) {
    int32_t i = ix[k];
    if (d[i] == 0) continue;
    if (d[i] % sz != 0)
      lytS_fail(cx, LYT_ERRRUN, "left_inverse: stride %lld of %s is not divisible by %lld "
                "(CuTe's left inverse divisibility condition)", (long long)d[i],
                lytS_layout_str(cx, l), (long long)sz);
    if (d[i] < prev_end)
      lytS_fail(cx, LYT_ERRRUN, "left_inverse: layout %s is not injective",
                lytS_layout_str(cx, l));
    r.s[r.n] = d[i] / sz;
    r.d[++r.n] = lytS_int(cx, pre[i]);
    sz = d[i];
    prev_end = lytS_mul(cx, d[i], f.s[i]);
  }
  r.s[r.n++] = f.s[ix[f.n - 1]];
  return lytS_coalesce_flat(cx, &r);
}
