/*
** axisinfo/axisinfo.c: Triton's AxisInfo analysis over concrete index tensors.
**
** Each operation computes its values elementwise, then its info: in
** LYTV_EXACT mode from the values (exact_dim below), in LYTV_CONSERVATIVE
** mode from the operands' info by a rule. The rules are Triton's
** (lib/Analysis/AxisInfo.cpp, visitor per op), marked [Triton]; where
** Triton has no rule or its rule can claim more than holds, the rule is
** derived in the same style and marked [derived], with the argument.
**
** One correction applies across rules [derived]: Triton's add/sub/rem
** take the operands' divisibility as the result's even when the result's
** contiguity is smaller than an operand's, so some result block starts
** sit inside an operand block, where the divisibility was never proved
** (Triton's own select/join do correct it, getDivisibilityFromContiguity).
** E.g. [0..7] + [0,0,4,4,8,8,12,12] has contiguity 2 and block starts
** 0,6,12,18, but gcd(inf, 4) claims 4. Triton stays safe because the
** vector width also takes min(contiguity, ...) over power-of-two extents;
** rebase() makes every claim here hold on its own, which the property
** tests check.
*/
#include "interp/axisinfo/axisinfo.h"

#include <string.h>

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM, OP_XOR, OP_AND };

static const char *const opname[] = {"+", "-", "*", "/", "%", "^", "&"};

/* ------------------------------------------------------------------ */
/* integer helpers                                                     */
/* ------------------------------------------------------------------ */

#define gcd lytS_gcd

static int64_t gcd3(int64_t a, int64_t b, int64_t c) { return gcd(gcd(a, b), c); }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int ispow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int64_t lytV_pow2_divisor(int64_t x) {
  if (x == 0 || x == INT64_MIN) return LYTV_MAX_DIV;
  uint64_t u = (uint64_t)x;  /* two's complement: u & -u is the lowest set bit */
  return (int64_t)(u & (~u + 1));
}

/* Product of two divisibilities, capped like Triton's multiplyDivisor. */
static int64_t mul_div(int64_t a, int64_t b) {
  return a > LYTV_MAX_DIV / b ? LYTV_MAX_DIV : a * b;
}

/* Divisibility d holds at the starts of blocks of `from` elements; what
** holds at the starts of blocks of `to`? If from divides to, every such
** start is an old one: all of d. Otherwise a new start lies inside an
** old (contiguous) block at an offset that is a multiple of
** g = gcd(from, to), so its value is an old start plus a multiple of g:
** divisible by min(d, p2(g)). [derived, see the file comment] */
static int64_t rebase(int64_t d, int64_t from, int64_t to) {
  if (to % from == 0) return d;
  return min64(d, lytV_pow2_divisor(gcd(from, to)));
}

/* 2^(number of trailing one bits of k), capped: the low bits of k that
** pass x's low bits through unchanged in x & k. */
static int64_t low_ones(int64_t k) {
  uint64_t u = ~(uint64_t)k;
  int t = u == 0 ? 64 : __builtin_ctzll(u);
  return t >= 62 ? LYTV_MAX_DIV : (int64_t)1 << t;
}

static int64_t floor_div(int64_t a, int64_t k) {
  int64_t q = a / k;
  return (a % k != 0 && a < 0) ? q - 1 : q;
}

static int64_t floor_rem(int64_t a, int64_t k) {
  int64_t r = a % k;
  return r < 0 ? r + k : r;
}

/* ------------------------------------------------------------------ */
/* values                                                              */
/* ------------------------------------------------------------------ */

lytV_ctx lytV_context(lytS_ctx *cx, lytV_mode mode) {
  lytV_ctx vx = {cx, mode};
  return vx;
}

/* A result of [rank] dims with room for its values; checks the shape. */
static lytV_val *new_val(lytS_ctx *cx, int rank, const int64_t *shape, int64_t **vals) {
  if (rank < 1 || rank > LYTV_MAXRANK)
    lytS_fail(cx, LYT_ERRRUN, "rank %d outside 1..%d", rank, LYTV_MAXRANK);
  lytV_val *r = lytS_alloc(cx, sizeof *r);
  memset(r, 0, sizeof *r);
  r->rank = rank;
  r->n = 1;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 1)
      lytS_fail(cx, LYT_ERRRUN, "extent %lld of dim %d must be positive",
                (long long)shape[d], d);
    if (shape[d] > LYTV_MAX_ELEMS / r->n)
      lytS_fail(cx, LYT_ERRLIMIT, "tensor exceeds %lld elements",
                (long long)LYTV_MAX_ELEMS);
    r->shape[d] = shape[d];
    r->n *= shape[d];
  }
  *vals = lytS_alloc(cx, sizeof **vals * (size_t)r->n);
  r->v = *vals;
  r->info.rank = rank;
  return r;
}

/* Distance between neighbours along dim d (row major). */
static int64_t stride_of(const lytV_val *v, int d) {
  int64_t s = 1;
  for (int e = d + 1; e < v->rank; e++) s *= v->shape[e];
  return s;
}

static int same_shape(const lytV_val *a, const lytV_val *b) {
  if (a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->shape[d] != b->shape[d]) return 0;
  return 1;
}

static const char *shape_str(lytS_ctx *cx, const lytV_val *v) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytS_buf_puts(&b, "[");
  for (int d = 0; d < v->rank; d++)
    lytS_buf_printf(&b, "%s%lld", d ? ", " : "", (long long)v->shape[d]);
  lytS_buf_puts(&b, "]");
  return b.p;
}

/* ------------------------------------------------------------------ */
/* exact info                                                          */
/* ------------------------------------------------------------------ */

/* Along dim d: the valid block lengths are the divisors of n that divide
** every "break" position (an index i > 0 whose element is not its
** predecessor + 1, resp. not equal to it, on some line). So the largest
** is the gcd of n and all break positions: one pass, no search. */
static void exact_runs(const lytV_val *v, int d, int64_t *cont, int64_t *cons) {
  int64_t n = v->shape[d], st = stride_of(v, d);
  int64_t gc = n, gk = n;
  for (int64_t e = 0; e < v->n; e++) {
    int64_t i = (e / st) % n;
    if (i == 0) continue;
    int64_t prev = v->v[e - st], cur = v->v[e];
    if (gc > 1 && !(prev < INT64_MAX && cur == prev + 1)) gc = gcd(gc, i);
    if (gk > 1 && cur != prev) gk = gcd(gk, i);
  }
  *cont = gc;
  *cons = gk;
}

/* Largest power of two dividing every element whose index along d is a
** multiple of c (every block start). */
static int64_t divisibility_at(const lytV_val *v, int d, int64_t c) {
  int64_t n = v->shape[d], st = stride_of(v, d), dv = LYTV_MAX_DIV;
  for (int64_t e = 0; e < v->n && dv > 1; e++)
    if (((e / st) % n) % c == 0) dv = min64(dv, lytV_pow2_divisor(v->v[e]));
  return dv;
}

static int all_equal(const lytV_val *v) {
  for (int64_t e = 1; e < v->n; e++)
    if (v->v[e] != v->v[0]) return 0;
  return 1;
}

lytV_info lytV_exact_info(lytS_ctx *cx, const lytV_val *v) {
  (void)cx;  /* cannot fail; kept for symmetry with the other queries */
  lytV_info r;
  memset(&r, 0, sizeof r);
  r.rank = v->rank;
  for (int d = 0; d < v->rank; d++) {
    exact_runs(v, d, &r.contiguity[d], &r.constancy[d]);
    r.divisibility[d] = divisibility_at(v, d, r.contiguity[d]);
  }
  r.has_const = all_equal(v);
  r.cval = r.has_const ? v->v[0] : 0;
  return r;
}

/* A claimed block length holds iff it divides n and the exact one. */
static int length_holds(int64_t claim, int64_t exact, int64_t n) {
  return claim >= 1 && n % claim == 0 && exact % claim == 0;
}

int lytV_info_holds(lytS_ctx *cx, const lytV_val *v, const lytV_info *info) {
  lytV_info ex = lytV_exact_info(cx, v);
  if (info->rank != v->rank) return 0;
  for (int d = 0; d < v->rank; d++) {
    int64_t c = info->contiguity[d], dv = info->divisibility[d];
    if (!length_holds(c, ex.contiguity[d], v->shape[d])) return 0;
    if (!length_holds(info->constancy[d], ex.constancy[d], v->shape[d])) return 0;
    if (!ispow2(dv) || dv > LYTV_MAX_DIV) return 0;
    if (divisibility_at(v, d, c) < dv) return 0;  /* both powers of two */
  }
  return !info->has_const || (ex.has_const && v->v[0] == info->cval);
}

/* The result's info: exact, or the conservative one the rule gave. */
static lytV_val *finish(const lytV_ctx *vx, lytV_val *r, const lytV_info *cons) {
  if (vx->mode == LYTV_EXACT) r->info = lytV_exact_info(vx->cx, r);
  else r->info = *cons;
  r->info.rank = r->rank;
  return r;
}

/* ------------------------------------------------------------------ */
/* leaves                                                              */
/* ------------------------------------------------------------------ */

lytV_info lytV_pessimistic(int rank) {
  lytV_info r;
  memset(&r, 0, sizeof r);
  r.rank = rank;
  for (int d = 0; d < LYTV_MAXRANK; d++)
    r.contiguity[d] = r.divisibility[d] = r.constancy[d] = 1;
  return r;
}

/* [Triton] MakeRangeOp: contiguity end - start, divisibility p2(start),
** constancy 1. */
lytV_val *lytV_make_range(const lytV_ctx *vx, int64_t start, int64_t end) {
  int64_t len = lytS_sub(vx->cx, end, start), *vals;
  if (!ispow2(len))
    lytS_fail(vx->cx, LYT_ERRRUN,
              "make_range(%lld, %lld): length %lld is not a positive power of two",
              (long long)start, (long long)end, (long long)len);
  lytV_val *r = new_val(vx->cx, 1, &len, &vals);
  for (int64_t i = 0; i < len; i++) vals[i] = start + i;  /* < end: no overflow */
  lytV_info c = lytV_pessimistic(1);
  c.contiguity[0] = len;
  c.divisibility[0] = lytV_pow2_divisor(start);
  return finish(vx, r, &c);
}

/* The info of a splat, also the rhs of every by-constant operation:
** lytV_t_constant (axisinfo/rules.c), Triton's SplatOp and ConstantOp. */
static lytV_info splat_info(int rank, const int64_t *shape, int64_t value) {
  return lytV_t_constant(value, rank, shape);
}

lytV_val *lytV_splat(const lytV_ctx *vx, int64_t value, int rank, const int64_t *shape) {
  int64_t *vals;
  lytV_val *r = new_val(vx->cx, rank, shape, &vals);
  for (int64_t e = 0; e < r->n; e++) vals[e] = value;
  lytV_info c = splat_info(rank, shape, value);
  return finish(vx, r, &c);
}

lytV_val *lytV_from_values(lytS_ctx *cx, int rank, const int64_t *shape,
                           const int64_t *values) {
  int64_t *vals;
  lytV_val *r = new_val(cx, rank, shape, &vals);
  memcpy(vals, values, sizeof *vals * (size_t)r->n);
  r->info = lytV_exact_info(cx, r);
  return r;
}

lytV_val *lytV_from_fn(lytS_ctx *cx, int rank, const int64_t *shape, int64_t first,
                       lytV_index_fn fn, void *ud) {
  int64_t *vals;
  lytV_val *r = new_val(cx, rank, shape, &vals);
  lytS_add(cx, first, r->n - 1);  /* the last id must exist */
  for (int64_t e = 0; e < r->n; e++) vals[e] = fn(cx, ud, first + e);
  r->info = lytV_exact_info(cx, r);
  return r;
}

lytV_val *lytV_assume(lytS_ctx *cx, const lytV_val *v, const lytV_info *info) {
  if (!lytV_info_holds(cx, v, info))
    lytS_fail(cx, LYT_ERRRUN, "hint %s does not hold of the values %s",
              lytV_info_str(cx, info), lytV_values_str(cx, v));
  lytV_val *r = lytS_alloc(cx, sizeof *r);
  *r = *v;
  r->info = *info;
  return r;
}

/* ------------------------------------------------------------------ */
/* conservative rules of the binary operations                         */
/* ------------------------------------------------------------------ */
/* Each fills dim d of r from a (lhs) and b (rhs); n is the extent. For
** the by-constant operations b is the constant's splat_info, as in
** Triton, where the constant is a splatted tensor operand. */

/* [Triton] AddIOp/SubIOp: contiguous + constant blocks stay contiguous;
** for sub only lhs may be the contiguous one (rhs contiguous makes a
** decreasing run). Constancy: gcd. Divisibility: gcd, rebased [derived]. */
static void rule_addsub(lytV_info *r, const lytV_info *a, const lytV_info *b,
                        int d, int64_t n, int op) {
  (void)n;
  int64_t c = gcd(a->contiguity[d], b->constancy[d]);
  if (op == OP_ADD) c = max64(c, gcd(a->constancy[d], b->contiguity[d]));
  r->contiguity[d] = c;
  r->constancy[d] = gcd(a->constancy[d], b->constancy[d]);
  r->divisibility[d] = gcd(rebase(a->divisibility[d], a->contiguity[d], c),
                           rebase(b->divisibility[d], b->contiguity[d], c));
}

static int is_const(const lytV_info *x, int64_t v) { return x->has_const && x->cval == v; }

/* [Triton] MulIOp: contiguity survives only x * 1; divisibilities
** multiply, but a contiguous operand counts as 1 (only its block starts
** carry its divisibility, and the product has contiguity 1). */
static void rule_mul(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op) {
  (void)n, (void)op;
  int64_t ca = is_const(b, 1) ? a->contiguity[d] : 1;
  int64_t cb = is_const(a, 1) ? b->contiguity[d] : 1;
  r->contiguity[d] = max64(ca, cb);
  r->constancy[d] = gcd(a->constancy[d], b->constancy[d]);
  int64_t da = a->contiguity[d] > 1 && !is_const(b, 1) ? 1 : a->divisibility[d];
  int64_t db = b->contiguity[d] > 1 && !is_const(a, 1) ? 1 : b->divisibility[d];
  r->divisibility[d] = mul_div(da, db);
}

/* [Triton] DivSIOp by constant k: contiguity only for k == 1. Constancy:
** when lhs is contiguous over the whole dim, blocks of
** g = gcd(c, div(lhs), p2(k)) start at multiples of g, which divides k,
** so they sit inside one [qk, qk+k) and share the quotient (with floor
** division this holds for negative values too). Divisibility: x // 1,
** or x // 2^j of elements each divisible by div (lhs contiguity 1). */
static void rule_div(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op) {
  (void)op;
  r->contiguity[d] = is_const(b, 1) ? a->contiguity[d] : 1;
  int64_t k = gcd(a->constancy[d], b->constancy[d]);
  if (a->contiguity[d] == n && b->constancy[d] == n)
    k = max64(k, gcd3(a->contiguity[d], a->divisibility[d], b->divisibility[d]));
  r->constancy[d] = k;
  int64_t dv = 1;
  if (is_const(a, 0) || is_const(b, 1)) dv = a->divisibility[d];
  else if (b->has_const && ispow2(b->cval) && a->contiguity[d] == 1)
    dv = max64(1, a->divisibility[d] / b->cval);
  r->divisibility[d] = dv;
}

/* [Triton] RemSIOp by constant k: when lhs is contiguous over the whole
** dim, blocks of g = gcd(c, div(lhs), p2(k)) map to r, r+1, ... (g divides
** k and the block start). Divisibility: x = qk + r, so r is divisible by
** gcd(div(x), p2(k)) (rebased [derived]); Triton gives 1 on extent-1 dims
** (rhs constancy 1), kept. Constancy: x % 1 == 0 everywhere. */
static void rule_rem(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op) {
  (void)op;
  int64_t c = 1;
  if (a->contiguity[d] == n && b->constancy[d] == n)
    c = gcd3(a->contiguity[d], a->divisibility[d], b->divisibility[d]);
  r->contiguity[d] = c;
  r->divisibility[d] = b->constancy[d] > 1
      ? gcd(rebase(a->divisibility[d], a->contiguity[d], c), b->divisibility[d])
      : 1;
  r->constancy[d] = is_const(b, 1) ? n : gcd(a->constancy[d], b->constancy[d]);
}

/* [derived] XOrIOp by constant k (Triton: constancy only). x ^ k is
** one-to-one, so constancy is lhs's. Blocks of g = gcd(c, div(lhs), p2(k))
** start at multiples of g <= p2(k), and k has no bits below p2(k), so
** (s + j) ^ k = (s ^ k) + j: they stay contiguous (why XOR swizzles keep
** vectors). A start's value s ^ k is divisible by min(div(s), p2(k)). */
static void rule_xor(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op) {
  (void)n, (void)op;
  int64_t pk = b->divisibility[d];
  int64_t c = gcd3(a->contiguity[d], a->divisibility[d], pk);
  r->contiguity[d] = c;
  r->constancy[d] = gcd(a->constancy[d], b->constancy[d]);
  r->divisibility[d] = min64(rebase(a->divisibility[d], a->contiguity[d], c), pk);
}

/* [derived] AndIOp by constant k (Triton: constancy only). With t = 2^(k's
** trailing ones), x & k passes a block's low bits below t through:
** blocks of gcd(c, div(lhs), t) stay contiguous. With p2(k) it clears
** them: blocks of gcd(c, div(lhs), p2(k)) become constant (as div). x & k
** is divisible by whatever x or k is divisible by: the max. */
static void rule_and(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op) {
  (void)n, (void)op;
  int64_t pk = b->divisibility[d], g = gcd(a->contiguity[d], a->divisibility[d]);
  int64_t c = gcd(g, low_ones(b->cval));
  r->contiguity[d] = c;
  r->constancy[d] = max64(gcd(a->constancy[d], b->constancy[d]), gcd(g, pk));
  r->divisibility[d] = max64(rebase(a->divisibility[d], a->contiguity[d], c), pk);
}

typedef void rule_fn(lytV_info *r, const lytV_info *a, const lytV_info *b,
                     int d, int64_t n, int op);

static rule_fn *const rules[] = {rule_addsub, rule_addsub, rule_mul, rule_div,
                                 rule_rem, rule_xor, rule_and};

/* [Triton] BinaryOpVisitorImpl: when the result's value is known it is a
** constant: contiguity 1, divisibility p2(value), constancy the larger. */
static void const_result(lytV_info *r, const lytV_info *a, const lytV_info *b,
                         int64_t value) {
  for (int d = 0; d < a->rank; d++) {
    r->contiguity[d] = 1;
    r->divisibility[d] = lytV_pow2_divisor(value);
    r->constancy[d] = max64(a->constancy[d], b->constancy[d]);
  }
  r->has_const = 1;
  r->cval = value;
}

/* The known constant of a op b, if any: both known ([Triton]), x % 1
** ([Triton]), x & 0 and x * 0 / 0 * x ([derived]). */
static int known_value(const lytV_info *a, const lytV_info *b, int op) {
  if (a->has_const && b->has_const) return 1;
  if (op == OP_REM && is_const(b, 1)) return 1;
  if (op == OP_AND && is_const(b, 0)) return 1;
  return op == OP_MUL && (is_const(a, 0) || is_const(b, 0));
}

/* x ^ 0 and x & -1 are x itself [derived]. */
static int identity(const lytV_info *b, int op) {
  return (op == OP_XOR && is_const(b, 0)) || (op == OP_AND && is_const(b, -1));
}

static lytV_info conservative(const lytV_val *r, const lytV_info *a,
                              const lytV_info *b, int op) {
  lytV_info c = lytV_pessimistic(r->rank);
  if (known_value(a, b, op)) const_result(&c, a, b, r->v[0]);
  else if (identity(b, op)) c = *a;
  else
    for (int d = 0; d < r->rank; d++) rules[op](&c, a, b, d, r->shape[d], op);
  return c;
}

/* ------------------------------------------------------------------ */
/* binary operations                                                   */
/* ------------------------------------------------------------------ */

static int64_t apply(lytS_ctx *cx, int op, int64_t x, int64_t y) {
  switch (op) {
  case OP_ADD: return lytS_add(cx, x, y);
  case OP_SUB: return lytS_sub(cx, x, y);
  case OP_MUL: return lytS_mul(cx, x, y);
  case OP_DIV: return floor_div(x, y);  /* y > 0: checked by the caller */
  case OP_REM: return floor_rem(x, y);
  case OP_XOR: return x ^ y;
  default: return x & y;
  }
}

static lytV_val *binary(const lytV_ctx *vx, int op, const lytV_val *a,
                        const lytV_val *b, const lytV_info *binfo) {
  if (!same_shape(a, b))
    lytS_fail(vx->cx, LYT_ERRRUN, "shape mismatch in %s: %s vs %s", opname[op],
              shape_str(vx->cx, a), shape_str(vx->cx, b));
  int64_t *vals;
  lytV_val *r = new_val(vx->cx, a->rank, a->shape, &vals);
  for (int64_t e = 0; e < r->n; e++) vals[e] = apply(vx->cx, op, a->v[e], b->v[e]);
  lytV_info c = conservative(r, &a->info, binfo, op);
  return finish(vx, r, &c);
}

lytV_val *lytV_add(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b) {
  return binary(vx, OP_ADD, a, b, &b->info);
}

lytV_val *lytV_sub(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b) {
  return binary(vx, OP_SUB, a, b, &b->info);
}

lytV_val *lytV_mul(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b) {
  return binary(vx, OP_MUL, a, b, &b->info);
}

/* a op k, with k splatted to a's shape (its info: splat_info). */
static lytV_val *by_const(const lytV_ctx *vx, int op, const lytV_val *a, int64_t k) {
  if ((op == OP_DIV || op == OP_REM) && k == 0)
    lytS_fail(vx->cx, LYT_ERRRUN, "division by zero in %s", opname[op]);
  if ((op == OP_DIV || op == OP_REM) && k < 0)
    lytS_fail(vx->cx, LYT_ERRRUN, "divisor %lld of %s must be positive",
              (long long)k, opname[op]);
  lytV_val *b = lytV_splat(vx, k, a->rank, a->shape);
  lytV_info binfo = splat_info(a->rank, a->shape, k);
  return binary(vx, op, a, b, &binfo);
}

lytV_val *lytV_div(const lytV_ctx *vx, const lytV_val *a, int64_t k) {
  return by_const(vx, OP_DIV, a, k);
}

lytV_val *lytV_rem(const lytV_ctx *vx, const lytV_val *a, int64_t k) {
  return by_const(vx, OP_REM, a, k);
}

lytV_val *lytV_xor(const lytV_ctx *vx, const lytV_val *a, int64_t k) {
  return by_const(vx, OP_XOR, a, k);
}

lytV_val *lytV_and(const lytV_ctx *vx, const lytV_val *a, int64_t k) {
  return by_const(vx, OP_AND, a, k);
}

/* ------------------------------------------------------------------ */
/* shape operations                                                    */
/* ------------------------------------------------------------------ */

/* Row-major index in a of the element at row-major index e of a
** broadcast of a to shape (dims of extent 1 in a repeat). */
static int64_t source_index(const lytV_val *a, const int64_t *shape, int64_t e) {
  int64_t src = 0, sstride = 1;
  for (int d = a->rank - 1; d >= 0; d--) {
    int64_t i = e % shape[d];
    e /= shape[d];
    if (a->shape[d] != 1) src += i * sstride;
    sstride *= a->shape[d];
  }
  return src;
}

static void check_broadcast(lytS_ctx *cx, const lytV_val *a, int rank, const int64_t *shape) {
  if (rank != a->rank)
    lytS_fail(cx, LYT_ERRRUN, "broadcast from rank %d to rank %d: expand_dims first",
              a->rank, rank);
  for (int d = 0; d < rank; d++)
    if (a->shape[d] != shape[d] && a->shape[d] != 1)
      lytS_fail(cx, LYT_ERRRUN, "shape mismatch: cannot broadcast %s: dim %d is %lld, not 1 or %lld",
                shape_str(cx, a), d, (long long)a->shape[d], (long long)shape[d]);
}

/* [Triton] BroadcastOp: a repeated dim (extent 1 before) has contiguity 1
** and constancy the new extent; the rest, and all divisibility, carry over. */
lytV_val *lytV_broadcast(const lytV_ctx *vx, const lytV_val *a, int rank,
                         const int64_t *shape) {
  check_broadcast(vx->cx, a, rank, shape);
  int64_t *vals;
  lytV_val *r = new_val(vx->cx, rank, shape, &vals);
  for (int64_t e = 0; e < r->n; e++) vals[e] = a->v[source_index(a, shape, e)];
  lytV_info c = a->info;
  for (int d = 0; d < rank; d++)
    if (a->shape[d] == 1 && shape[d] != 1) {
      c.contiguity[d] = 1;
      c.constancy[d] = shape[d];
    }
  return finish(vx, r, &c);
}

/* [Triton] ExpandDimsOp: the new dim has contiguity and constancy 1 (its
** extent is 1); every element starts a block along it, so its
** divisibility must divide every element: p2 of a known constant, else
** the gcd over the dims whose contiguity is 1 (a contiguous dim's
** divisibility speaks only of block starts: counts as 1). */
static int64_t every_element_div(const lytV_info *a) {
  if (a->has_const) return lytV_pow2_divisor(a->cval);
  int64_t dv = LYTV_MAX_DIV;
  for (int d = 0; d < a->rank; d++)
    dv = gcd(dv, a->contiguity[d] > 1 ? 1 : a->divisibility[d]);
  return dv;
}

static void insert_dim(int64_t *x, int rank, int axis, int64_t v) {
  memmove(x + axis + 1, x + axis, sizeof *x * (size_t)(rank - axis));
  x[axis] = v;
}

lytV_val *lytV_expand_dims(const lytV_ctx *vx, const lytV_val *a, int axis) {
  if (axis < 0 || axis > a->rank)
    lytS_fail(vx->cx, LYT_ERRRUN, "expand_dims axis %d outside 0..%d", axis, a->rank);
  if (a->rank == LYTV_MAXRANK)
    lytS_fail(vx->cx, LYT_ERRRUN, "expand_dims: rank %d would exceed %d",
              a->rank + 1, LYTV_MAXRANK);
  lytV_val *r = lytS_alloc(vx->cx, sizeof *r);
  *r = *a;  /* same values in the same order: share them */
  r->rank = a->rank + 1;
  insert_dim(r->shape, a->rank, axis, 1);
  lytV_info c = a->info;
  insert_dim(c.contiguity, a->rank, axis, 1);
  insert_dim(c.constancy, a->rank, axis, 1);
  insert_dim(c.divisibility, a->rank, axis, every_element_div(&a->info));
  return finish(vx, r, &c);
}

/* ------------------------------------------------------------------ */
/* vector width                                                        */
/* ------------------------------------------------------------------ */

static void check_pow2(lytS_ctx *cx, int64_t x, const char *what) {
  if (!ispow2(x))
    lytS_fail(cx, LYT_ERRRUN, "%s %lld is not a positive power of two", what, (long long)x);
}

/* See axisinfo/axisinfo.h for the formula and why each term is there. */
int64_t lytV_vector_width(lytS_ctx *cx, const lytV_info *info, int dim,
                          int64_t elem_bytes, int64_t ptr_align_bytes,
                          int64_t elems_per_thread) {
  if (dim < 0 || dim >= info->rank)
    lytS_fail(cx, LYT_ERRRUN, "vector_width: dim %d outside 0..%d", dim, info->rank - 1);
  check_pow2(cx, elem_bytes, "element size");
  check_pow2(cx, ptr_align_bytes, "pointer alignment");
  if (elems_per_thread < 1)
    lytS_fail(cx, LYT_ERRRUN, "elements per thread %lld must be positive",
              (long long)elems_per_thread);
  int64_t addr = gcd(ptr_align_bytes, mul_div(info->divisibility[dim], elem_bytes));
  int64_t w = max64(1, addr / elem_bytes);  /* alignment in elements */
  w = min64(w, lytV_pow2_divisor(info->contiguity[dim]));
  w = min64(w, lytV_pow2_divisor(elems_per_thread));
  return max64(1, min64(w, LYTV_MAX_VEC_BYTES / elem_bytes));
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

static void print_list(lytS_buf *b, const char *name, const int64_t *x, int rank) {
  lytS_buf_printf(b, "%s: [", name);
  for (int d = 0; d < rank; d++) {
    if (d) lytS_buf_puts(b, ", ");
    if (x[d] == LYTV_MAX_DIV) lytS_buf_puts(b, "inf");
    else lytS_buf_int(b, x[d]);
  }
  lytS_buf_puts(b, "]");
}

void lytV_print_info(lytS_buf *b, const lytV_info *info) {
  lytS_buf_puts(b, "{");
  print_list(b, "contiguity", info->contiguity, info->rank);
  print_list(b, ", divisibility", info->divisibility, info->rank);
  print_list(b, ", constancy", info->constancy, info->rank);
  if (info->has_const) lytS_buf_printf(b, ", constant: %lld", (long long)info->cval);
  lytS_buf_puts(b, "}");
}

const char *lytV_info_str(lytS_ctx *cx, const lytV_info *info) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytV_print_info(&b, info);
  return b.p;
}

/* Dims d.. of the block starting at element *e, advancing *e. */
static void print_dims(lytS_buf *b, const lytV_val *v, int d, int64_t *e) {
  lytS_buf_puts(b, "[");
  for (int64_t i = 0; i < v->shape[d]; i++) {
    if (i) lytS_buf_puts(b, ", ");
    if (d + 1 < v->rank) print_dims(b, v, d + 1, e);
    else lytS_buf_int(b, v->v[(*e)++]);
  }
  lytS_buf_puts(b, "]");
}

void lytV_print_values(lytS_buf *b, const lytV_val *v) {
  int64_t e = 0;
  print_dims(b, v, 0, &e);
}

const char *lytV_values_str(lytS_ctx *cx, const lytV_val *v) {
  lytS_buf b;
  lytS_buf_init(&b, cx);
  lytV_print_values(&b, v);
  return b.p;
}
