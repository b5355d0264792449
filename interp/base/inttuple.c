/*
** base/inttuple.c: CuTe's IntTuple (stride core, lytS_).
**
** Shapes, strides and coordinates are trees of integers. Every function
** here follows CuTe C++ (cute/int_tuple.hpp) with all integers treated
** as static, because lyt has no run-time integers to keep apart. Where
** CuTe would static_assert, we fail with a message instead; arithmetic is
** checked (lytS_mul/lytS_add) so nothing ever wraps. The text builder
** lytS_buf lives here too, since printing tuples is the first user.
*/
#include "interp/base/inttuple.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* text builder                                                        */
/* ------------------------------------------------------------------ */

void lytS_buf_init(lytS_buf *b, lytS_ctx *cx) {
  b->cx = cx;
  b->cap = 64;
  b->n = 0;
  b->p = lytS_alloc(cx, b->cap);
  b->p[0] = '\0';
}

/* Room for n more bytes and the NUL. */
static void buf_room(lytS_buf *b, size_t n) {
  if (b->n + n + 1 <= b->cap) return;
  size_t cap = b->cap * 2;
  while (cap < b->n + n + 1) cap *= 2;
  char *p = lytS_alloc(b->cx, cap);  /* the arena frees the old one later */
  memcpy(p, b->p, b->n);
  b->p = p;
  b->cap = cap;
}

void lytS_buf_add(lytS_buf *b, const char *s, size_t n) {
  buf_room(b, n);
  /* most pieces are a byte or a few digits, shorter than a call to memcpy */
  char *o = b->p + b->n;
  if (n <= 8) for (size_t i = 0; i < n; i++) o[i] = s[i];
  else memcpy(o, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

void lytS_buf_puts(lytS_buf *b, const char *s) { lytS_buf_add(b, s, strlen(s)); }

/* v's digits at o, which has room for 20 bytes. Printing layouts is mostly
** integers: vsnprintf for each was 11% of a workload of layout operations. */
static inline char *put_int(char *o, int64_t v) {
  if ((uint64_t)v < 10) {
    *o++ = (char)('0' + v);
    return o;
  }
  char d[24], *p = d + sizeof d;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do *--p = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) *--p = '-';
  while (p < d + sizeof d) *o++ = *p++;
  return o;
}

void lytS_buf_int(lytS_buf *b, int64_t v) {
  buf_room(b, 20);
  b->n = (size_t)(put_int(b->p + b->n, v) - b->p);
  b->p[b->n] = '\0';
}

void lytS_buf_printf(lytS_buf *b, const char *fmt, ...) {
  char small[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) { lytS_buf_add(b, small, (size_t)n); return; }
  char *big = lytS_alloc(b->cx, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  lytS_buf_add(b, big, (size_t)n);
}

/* ------------------------------------------------------------------ */
/* construction                                                        */
/* ------------------------------------------------------------------ */

static lytS_tup *node(lytS_ctx *cx, int kind) {
  lytS_tup *t = lytS_alloc(cx, sizeof *t);
  memset(t, 0, sizeof *t);
  t->kind = (uint8_t)kind;
  return t;
}

#define SMALL_INT(x) { .kind = LYTS_INT, .v = (x) }
#define SMALL4(x) SMALL_INT(x), SMALL_INT((x) + 1), SMALL_INT((x) + 2), SMALL_INT((x) + 3)
#define SMALL16(x) SMALL4(x), SMALL4((x) + 4), SMALL4((x) + 8), SMALL4((x) + 12)
#define SMALL64(x) SMALL16(x), SMALL16((x) + 16), SMALL16((x) + 32), SMALL16((x) + 48)
const lytS_tup lytS_small_int[LYTS_SMALL_INTS] = {
  SMALL64(0), SMALL64(64), SMALL64(128), SMALL64(192)
};

lytS_tup *lytS_new_int(lytS_ctx *cx, int64_t v) {
  lytS_tup *t = node(cx, LYTS_INT);
  t->v = v;
  return t;
}

lytS_tup *lytS_under(lytS_ctx *cx) { return node(cx, LYTS_UNDER); }

/* The node and its elements in one block. */
lytS_tup *lytS_pair(lytS_ctx *cx, lytS_tup *a, lytS_tup *b) {
  lytS_tup *t = lytS_newtup(cx, 2);
  t->e[0] = a;
  t->e[1] = b;
  return t;
}

lytS_tup *lytS_basis(lytS_ctx *cx, int64_t scale, const uint8_t *path, int npath) {
  if (npath > LYT_BASIS_MAX)
    lytS_fail(cx, LYT_ERRLIMIT, "basis element nested deeper than %d", LYT_BASIS_MAX);
  if (npath == 0) return lytS_int(cx, scale);  /* E<> is the integer 1 */
  lytS_tup *t = node(cx, LYTS_BASIS);
  t->v = scale;
  t->npath = (uint8_t)npath;
  memcpy(t->path, path, (size_t)npath);
  return t;
}

/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */

int lytS_tup_eq(const lytS_tup *a, const lytS_tup *b) {
  if (a->kind != b->kind) return 0;
  switch (a->kind) {
  case LYTS_INT: return a->v == b->v;
  case LYTS_UNDER: return 1;
  case LYTS_BASIS:
    return a->v == b->v && a->npath == b->npath &&
           memcmp(a->path, b->path, a->npath) == 0;
  default:
    if (a->n != b->n) return 0;
    for (int32_t i = 0; i < a->n; i++)
      if (!lytS_tup_eq(a->e[i], b->e[i])) return 0;
    return 1;
  }
}

int32_t lytS_rank(const lytS_tup *t) { return lytS_istup(t) ? t->n : 1; }

int32_t lytS_depth(const lytS_tup *t) {
  if (!lytS_istup(t)) return 0;
  int32_t d = 0;
  for (int32_t i = 0; i < t->n; i++) {
    int32_t di = lytS_depth(t->e[i]);
    if (di > d) d = di;
  }
  return d + 1;
}

int64_t lytS_size(lytS_ctx *cx, const lytS_tup *t) {
  if (lytS_isint(t)) return t->v;
  if (!lytS_istup(t))
    lytS_fail(cx, LYT_ERRRUN, "size: %s is not an integer tuple", lytS_tup_str(cx, t));
  int64_t p = 1;
  for (int32_t i = 0; i < t->n; i++) p = lytS_mul(cx, p, lytS_size(cx, t->e[i]));
  return p;
}

int32_t lytS_nleaves(const lytS_tup *t) {
  if (!lytS_istup(t)) return 1;
  int32_t n = 0;
  for (int32_t i = 0; i < t->n; i++)  /* most elements are leaves: no call for them */
    n += lytS_istup(t->e[i]) ? lytS_nleaves(t->e[i]) : 1;
  return n;
}

int lytS_has_under(const lytS_tup *t) {
  if (lytS_isunder(t)) return 1;
  if (!lytS_istup(t)) return 0;
  for (int32_t i = 0; i < t->n; i++)
    if (lytS_has_under(t->e[i])) return 1;
  return 0;
}

int lytS_has_basis(const lytS_tup *t) {
  if (lytS_isbasis(t)) return 1;
  if (!lytS_istup(t)) return 0;
  for (int32_t i = 0; i < t->n; i++)
    if (lytS_has_basis(t->e[i])) return 1;
  return 0;
}

lytS_tup *lytS_mode(const lytS_tup *t, int32_t i) {
  return lytS_istup(t) ? t->e[i] : (lytS_tup *)t;
}

void lytS_check_shape(lytS_ctx *cx, const lytS_tup *t, const char *what) {
  if (lytS_istup(t)) {
    for (int32_t i = 0; i < t->n; i++) lytS_check_shape(cx, t->e[i], what);
    return;
  }
  if (!lytS_isint(t))
    lytS_fail(cx, LYT_ERRRUN, "%s: a shape holds only integers, not %s", what,
              lytS_tup_str(cx, t));
  if (t->v <= 0)
    lytS_fail(cx, LYT_ERRRUN, "%s: shape extent %lld is not positive", what,
              (long long)t->v);
}

/* ------------------------------------------------------------------ */
/* IntTuple algebra                                                    */
/* ------------------------------------------------------------------ */

void lytS_leaves(const lytS_tup *t, lytS_tup **out, int32_t *n) {
  if (!lytS_istup(t)) { out[(*n)++] = (lytS_tup *)t; return; }
  for (int32_t i = 0; i < t->n; i++) lytS_leaves(t->e[i], out, n);
}

lytS_tup *lytS_flatten(lytS_ctx *cx, const lytS_tup *t) {
  if (!lytS_istup(t)) return (lytS_tup *)t;
  lytS_tup *r = lytS_newtup(cx, lytS_nleaves(t));
  int32_t n = 0;
  lytS_leaves(t, r->e, &n);
  return r;
}

lytS_tup *lytS_product_each(lytS_ctx *cx, const lytS_tup *t) {
  if (!lytS_istup(t)) return lytS_int(cx, lytS_size(cx, t));
  lytS_tup *r = lytS_newtup(cx, t->n);
  for (int32_t i = 0; i < t->n; i++) r->e[i] = lytS_int(cx, lytS_size(cx, t->e[i]));
  return r;
}

/* Exclusive prefix product, congruent with t; *run carries the product. */
static lytS_tup *prefix(lytS_ctx *cx, const lytS_tup *t, int64_t *run) {
  if (!lytS_istup(t)) {
    lytS_tup *r = lytS_int(cx, *run);
    *run = lytS_mul(cx, *run, lytS_size(cx, t));
    return r;
  }
  lytS_tup *r = lytS_newtup(cx, t->n);
  for (int32_t i = 0; i < t->n; i++) r->e[i] = prefix(cx, t->e[i], run);
  return r;
}

lytS_tup *lytS_prefix_product(lytS_ctx *cx, const lytS_tup *t) {
  int64_t run = 1;
  return prefix(cx, t, &run);
}

int64_t lytS_inner_product(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b) {
  if (lytS_istup(a) && lytS_istup(b)) {
    if (a->n != b->n)
      lytS_fail(cx, LYT_ERRRUN, "inner_product: ranks %d and %d differ", a->n, b->n);
    int64_t s = 0;
    for (int32_t i = 0; i < a->n; i++)
      s = lytS_add(cx, s, lytS_inner_product(cx, a->e[i], b->e[i]));
    return s;
  }
  if (!lytS_isint(a) || !lytS_isint(b))
    lytS_fail(cx, LYT_ERRRUN, "inner_product: %s and %s are not congruent",
              lytS_tup_str(cx, a), lytS_tup_str(cx, b));
  return lytS_mul(cx, a->v, b->v);
}

int64_t lytS_ceil_div_int(lytS_ctx *cx, int64_t a, int64_t b) {
  if (b <= 0) lytS_fail(cx, LYT_ERRRUN, "ceil_div: divisor %lld is not positive", (long long)b);
  return lytS_add(cx, a, b - 1) / b;
}

/* int / int for shape_div: CuTe static-asserts that one divides the other. */
static int64_t shape_div_int(lytS_ctx *cx, int64_t a, int64_t b) {
  if (a <= 0 || b <= 0)
    lytS_fail(cx, LYT_ERRRUN, "shape_div: %lld and %lld must be positive",
              (long long)a, (long long)b);
  if (a % b != 0 && b % a != 0)
    lytS_fail(cx, LYT_ERRRUN, "shape_div: neither of %lld and %lld divides the other",
              (long long)a, (long long)b);
  return lytS_ceil_div_int(cx, a, b);
}

typedef int64_t (*divfn)(lytS_ctx *, int64_t, int64_t);

/* The common skeleton of shape_div and ceil_div: tuple/int folds the
** divisor left to right (rest = div(rest, a_i)); tuple/tuple is by mode
** (ceil_div pads a short divisor with 1s, shape_div needs equal ranks). */
static lytS_tup *tdiv(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b, divfn f,
                      int pad, const char *what) {
  if (lytS_istup(a) && lytS_istup(b)) {
    if (pad ? b->n > a->n : b->n != a->n)
      lytS_fail(cx, LYT_ERRRUN, "%s: ranks of %s and %s do not match", what,
                lytS_tup_str(cx, a), lytS_tup_str(cx, b));
    lytS_tup *r = lytS_newtup(cx, a->n);
    for (int32_t i = 0; i < a->n; i++)
      r->e[i] = i < b->n ? tdiv(cx, a->e[i], b->e[i], f, pad, what) : a->e[i];
    return r;
  }
  if (lytS_istup(a)) {
    lytS_tup *r = lytS_newtup(cx, a->n);
    lytS_tup *rest = (lytS_tup *)b;
    for (int32_t i = 0; i < a->n; i++) {
      r->e[i] = tdiv(cx, a->e[i], rest, f, pad, what);
      rest = tdiv(cx, rest, a->e[i], f, pad, what);
    }
    return r;
  }
  if (lytS_istup(b)) return lytS_int(cx, f(cx, lytS_size(cx, a), lytS_size(cx, b)));
  if (!lytS_isint(a) || !lytS_isint(b))
    lytS_fail(cx, LYT_ERRRUN, "%s: operands must be integer tuples", what);
  return lytS_int(cx, f(cx, a->v, b->v));
}

lytS_tup *lytS_shape_div(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b) {
  return tdiv(cx, a, b, shape_div_int, 0, "shape_div");
}

lytS_tup *lytS_ceil_div(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b) {
  return tdiv(cx, a, b, lytS_ceil_div_int, 1, "ceil_div");
}

int lytS_congruent(const lytS_tup *a, const lytS_tup *b) {
  if (lytS_istup(a) != lytS_istup(b)) return 0;
  if (!lytS_istup(a)) return 1;
  if (a->n != b->n) return 0;
  for (int32_t i = 0; i < a->n; i++)
    if (!lytS_congruent(a->e[i], b->e[i])) return 0;
  return 1;
}

int lytS_weakly_congruent(const lytS_tup *a, const lytS_tup *b) {
  if (!lytS_istup(a)) return 1;
  if (!lytS_istup(b) || a->n != b->n) return 0;
  for (int32_t i = 0; i < a->n; i++)
    if (!lytS_weakly_congruent(a->e[i], b->e[i])) return 0;
  return 1;
}

int lytS_compatible(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b) {
  if (!lytS_istup(a)) return lytS_size(cx, a) == lytS_size(cx, b);
  if (!lytS_istup(b) || a->n != b->n) return 0;
  for (int32_t i = 0; i < a->n; i++)
    if (!lytS_compatible(cx, a->e[i], b->e[i])) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* index values: ints, or arithmetic tuples built from basis strides    */
/* ------------------------------------------------------------------ */

/* A basis element as an arithmetic tuple: (0,..,(0,..,v),..). */
static lytS_tup *basis_atuple(lytS_ctx *cx, const lytS_tup *e, int k) {
  if (k == e->npath) return lytS_int(cx, e->v);
  int32_t m = e->path[k];
  lytS_tup *r = lytS_newtup(cx, m + 1);
  for (int32_t i = 0; i < m; i++) r->e[i] = lytS_int(cx, 0);
  r->e[m] = basis_atuple(cx, e, k + 1);
  return r;
}

static int is_zero(const lytS_tup *t) { return lytS_isint(t) && t->v == 0; }

lytS_tup *lytS_index_add(lytS_ctx *cx, lytS_tup *a, lytS_tup *b) {
  if (lytS_isbasis(a)) a = basis_atuple(cx, a, 0);
  if (lytS_isbasis(b)) b = basis_atuple(cx, b, 0);
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  if (lytS_isint(a) && lytS_isint(b)) return lytS_int(cx, lytS_add(cx, a->v, b->v));
  if (!lytS_istup(a) || !lytS_istup(b))
    lytS_fail(cx, LYT_ERRRUN, "cannot add %s and %s (an integer offset and a basis "
              "coordinate)", lytS_tup_str(cx, a), lytS_tup_str(cx, b));
  int32_t n = a->n > b->n ? a->n : b->n;
  lytS_tup *r = lytS_newtup(cx, n);
  for (int32_t i = 0; i < n; i++) {
    if (i >= a->n) r->e[i] = b->e[i];
    else if (i >= b->n) r->e[i] = a->e[i];
    else r->e[i] = lytS_index_add(cx, a->e[i], b->e[i]);
  }
  return r;
}

/* c * d where d is an int or basis stride. */
static lytS_tup *scale_stride(lytS_ctx *cx, int64_t c, const lytS_tup *d) {
  if (lytS_isint(d)) return lytS_int(cx, lytS_mul(cx, c, d->v));
  if (!lytS_isbasis(d))
    lytS_fail(cx, LYT_ERRRUN, "stride %s is not an integer or basis element",
              lytS_tup_str(cx, d));
  return lytS_basis(cx, lytS_mul(cx, c, d->v), d->path, d->npath);
}

/* ------------------------------------------------------------------ */
/* crd2idx / idx2crd                                                   */
/* ------------------------------------------------------------------ */

static void rank_mismatch(lytS_ctx *cx, const char *op, const lytS_tup *c, const lytS_tup *s) {
  const char *pre = strcmp(op, "coordinate") == 0 ? "" : op, *sep = *pre ? ": " : "";
  if (lytS_istup(c) && lytS_istup(s))
    lytS_fail(cx, LYT_ERRRUN, "%s%scoordinate %s has %d modes but shape %s has %d", pre, sep,
              lytS_tup_str(cx, c), c->n, lytS_tup_str(cx, s), s->n);
  if (lytS_istup(c))
    lytS_fail(cx, LYT_ERRRUN, "%s%scoordinate %s is a tuple but shape %s is an integer", pre,
              sep, lytS_tup_str(cx, c), lytS_tup_str(cx, s));
  lytS_fail(cx, LYT_ERRRUN, "%s%scoordinate %s does not match shape %s", pre, sep,
            lytS_tup_str(cx, c), lytS_tup_str(cx, s));
}

lytS_tup *lytS_crd2idx(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape,
                       const lytS_tup *stride) {
  if (lytS_isunder(c)) return lytS_int(cx, 0);
  if (lytS_istup(c)) {
    if (!lytS_istup(shape) || shape->n != c->n) rank_mismatch(cx, "crd2idx", c, shape);
    lytS_tup *r = lytS_int(cx, 0);
    for (int32_t i = 0; i < c->n; i++)
      r = lytS_index_add(cx, r, lytS_crd2idx(cx, c->e[i], shape->e[i], stride->e[i]));
    return r;
  }
  if (!lytS_isint(c)) rank_mismatch(cx, "crd2idx", c, shape);
  if (!lytS_istup(shape)) return scale_stride(cx, c->v, stride);
  if (shape->n == 0) rank_mismatch(cx, "crd2idx", c, shape);
  /* integer on a tuple: divmod through every mode but the last, which
  ** takes the remaining quotient (CuTe's extension beyond the domain) */
  lytS_tup *r = lytS_int(cx, 0);
  int64_t rest = c->v;
  for (int32_t i = 0; i + 1 < shape->n; i++) {
    int64_t si = lytS_size(cx, shape->e[i]);
    lytS_tup ci = { .kind = LYTS_INT, .v = rest % si };
    r = lytS_index_add(cx, r, lytS_crd2idx(cx, &ci, shape->e[i], stride->e[i]));
    rest /= si;
  }
  lytS_tup cl = { .kind = LYTS_INT, .v = rest };
  return lytS_index_add(cx, r, lytS_crd2idx(cx, &cl, shape->e[shape->n - 1],
                                            stride->e[shape->n - 1]));
}

int64_t lytS_crd2idx_int(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape,
                         const lytS_tup *stride) {
  lytS_tup *r = lytS_crd2idx(cx, c, shape, stride);
  if (!lytS_isint(r))
    lytS_fail(cx, LYT_ERRRUN, "index %s is not an integer", lytS_tup_str(cx, r));
  return r->v;
}

int64_t lytS_crd2idx_i64(lytS_ctx *cx, int64_t i, const lytS_tup *shape,
                         const lytS_tup *stride) {
  lytS_tup c = { .kind = LYTS_INT, .v = i };
  return lytS_crd2idx_int(cx, &c, shape, stride);
}

int64_t lytS_crd2idx_colex(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape) {
  if (lytS_isint(c)) return c->v;
  if (lytS_isunder(c)) return 0;
  if (!lytS_istup(c) || !lytS_istup(shape) || c->n != shape->n)
    rank_mismatch(cx, "crd2idx", c, shape);
  int64_t r = 0;  /* Horner from the last mode down */
  for (int32_t i = c->n - 1; i >= 0; i--) {
    r = lytS_mul(cx, r, lytS_size(cx, shape->e[i]));
    r = lytS_add(cx, r, lytS_crd2idx_colex(cx, c->e[i], shape->e[i]));
  }
  return r;
}

/* 2-arg idx2crd of an integer: every mode but the last wraps. */
static lytS_tup *idx2crd_int(lytS_ctx *cx, int64_t i, const lytS_tup *shape) {
  if (!lytS_istup(shape)) return lytS_int(cx, i);
  lytS_tup *r = lytS_newtup(cx, shape->n);
  for (int32_t k = 0; k < shape->n; k++) {
    if (k + 1 == shape->n) { r->e[k] = idx2crd_int(cx, i, shape->e[k]); break; }
    int64_t sk = lytS_size(cx, shape->e[k]);
    r->e[k] = idx2crd_int(cx, i % sk, shape->e[k]);
    i /= sk;
  }
  return r;
}

/* 3-arg idx2crd of an integer: (i / d) % s per leaf; size-1 leaves give 0. */
static lytS_tup *idx2crd_strided(lytS_ctx *cx, int64_t i, const lytS_tup *s,
                                 const lytS_tup *d) {
  if (lytS_istup(s)) {
    if (!lytS_istup(d) || d->n != s->n) rank_mismatch(cx, "idx2crd", d, s);
    lytS_tup *r = lytS_newtup(cx, s->n);
    for (int32_t k = 0; k < s->n; k++) r->e[k] = idx2crd_strided(cx, i, s->e[k], d->e[k]);
    return r;
  }
  if (!lytS_isint(s) || !lytS_isint(d)) rank_mismatch(cx, "idx2crd", d, s);
  if (s->v == 1) return lytS_int(cx, 0);
  if (d->v == 0 || s->v <= 0)
    lytS_fail(cx, LYT_ERRRUN, "idx2crd: cannot invert stride %lld of extent %lld",
              (long long)d->v, (long long)s->v);
  return lytS_int(cx, (i / d->v) % s->v);
}

lytS_tup *lytS_idx2crd(lytS_ctx *cx, const lytS_tup *i, const lytS_tup *shape,
                       const lytS_tup *stride) {
  if (lytS_istup(i)) {  /* mode by mode */
    if (!lytS_istup(shape) || shape->n != i->n) rank_mismatch(cx, "idx2crd", i, shape);
    if (stride && (!lytS_istup(stride) || stride->n != i->n))
      rank_mismatch(cx, "idx2crd", i, stride);
    lytS_tup *r = lytS_newtup(cx, i->n);
    for (int32_t k = 0; k < i->n; k++)
      r->e[k] = lytS_idx2crd(cx, i->e[k], shape->e[k], stride ? stride->e[k] : NULL);
    return r;
  }
  if (!lytS_isint(i))
    lytS_fail(cx, LYT_ERRRUN, "idx2crd: index %s is not an integer", lytS_tup_str(cx, i));
  return stride ? idx2crd_strided(cx, i->v, shape, stride) : idx2crd_int(cx, i->v, shape);
}

void lytS_check_coord(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape) {
  if (lytS_isunder(c)) return;
  if (lytS_istup(c)) {
    if (!lytS_istup(shape) || shape->n != c->n) rank_mismatch(cx, "coordinate", c, shape);
    for (int32_t i = 0; i < c->n; i++) lytS_check_coord(cx, c->e[i], shape->e[i]);
    return;
  }
  if (!lytS_isint(c)) rank_mismatch(cx, "coordinate", c, shape);
  int64_t n = lytS_size(cx, shape);
  if (c->v < 0 || c->v >= n)
    lytS_fail(cx, LYT_ERRRUN, "out-of-range coordinate %lld for a mode of size %lld (shape %s)",
              (long long)c->v, (long long)n, lytS_tup_str(cx, shape));
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

/* t's text from o on, when it is integers and tuples of them and fits
** before end; NULL otherwise, with *other set when t holds something
** else. Printing's common case, written into the buffer's free bytes
** without a call per piece. */
static char *put_tup(char *o, const char *end, const lytS_tup *t, int *other) {
  if (lytS_isint(t)) return end - o < 21 ? NULL : put_int(o, t->v);
  if (!lytS_istup(t)) {
    *other = 1;
    return NULL;
  }
  if (end - o < 22) return NULL;
  *o++ = '(';
  for (int32_t i = 0; i < t->n; i++) {
    const lytS_tup *e = t->e[i];
    if (end - o < 22) return NULL;  /* a comma, an integer, and a ')' or a '(' */
    if (i) *o++ = ',';
    o = lytS_isint(e) ? put_int(o, e->v) : put_tup(o, end, e, other);
    if (!o) return NULL;
  }
  if (o == end) return NULL;
  *o++ = ')';
  return o;
}

void lytS_print_tup(lytS_buf *b, const lytS_tup *t) {
  int other = 0;
  for (;;) {  /* out of room: twice the room, so all tries cost twice the text */
    char *e = put_tup(b->p + b->n, b->p + b->cap - 1, t, &other);
    if (e) {
      b->n = (size_t)(e - b->p);
      b->p[b->n] = '\0';
      return;
    }
    if (other) break;  /* nothing is taken: piece by piece below */
    buf_room(b, b->cap);
  }
  switch (t->kind) {
  case LYTS_INT: lytS_buf_int(b, t->v); return;
  case LYTS_UNDER: lytS_buf_putc(b, '_'); return;
  case LYTS_BASIS:
    /* CuTe prints E<1,0> as _1@0@1: the innermost index first */
    lytS_buf_int(b, t->v);
    for (int k = t->npath - 1; k >= 0; k--) lytS_buf_printf(b, "@%d", t->path[k]);
    return;
  default:
    lytS_buf_putc(b, '(');
    for (int32_t i = 0; i < t->n; i++) {
      if (i) lytS_buf_putc(b, ',');
      lytS_print_tup(b, t->e[i]);
    }
    lytS_buf_putc(b, ')');
  }
}

const char *lytS_tup_str(lytS_ctx *cx, const lytS_tup *t) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_print_tup(&b, t);
  return b.p;
}
