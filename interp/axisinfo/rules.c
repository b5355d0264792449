/*
** axisinfo/rules.c: Triton 3.6's AxisInfo rules on facts alone (lytV_t_).
**
** axisinfo.c runs on concrete index tensors and may prove more than
** Triton does (its [derived] rules). Reading a compiled module, lyt must
** know what Triton's own analysis concluded, no more and no less, since
** that is what picks the vector width of each load and store. So these
** are Triton's rules as lib/Analysis/AxisInfo.cpp states them, applied to
** facts with no values: a function argument is only its tt.divisibility,
** a program id nothing at all. Scalars are rank-1 facts of extent 1, as
** in Triton.
*/
#include <string.h>

#include "interp/axisinfo/axisinfo.h"

#define gcd lytS_gcd

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Triton's multiplyDivisor: the product, capped at kMaxDivisor. */
static int64_t mul_div(int64_t a, int64_t b) {
  return a > LYTV_MAX_DIV / b ? LYTV_MAX_DIV : a * b;
}

static int is_const(const lytV_info *x, int64_t v) { return x->has_const && x->cval == v; }
static int contiguous_dim(const lytV_info *x, const int64_t *shape, int d) {
  return x->contiguity[d] == shape[d];
}
static int constant_dim(const lytV_info *x, const int64_t *shape, int d) {
  return x->constancy[d] == shape[d];
}

/* [Triton] SplatOp and ConstantOp: contiguity 1, divisibility p2(value),
** constancy the extent, the constant known. */
lytV_info lytV_t_constant(int64_t value, int rank, const int64_t *shape) {
  lytV_info r = lytV_pessimistic(rank);
  for (int d = 0; d < rank; d++) {
    r.divisibility[d] = lytV_pow2_divisor(value);
    r.constancy[d] = shape[d];
  }
  r.has_const = 1;
  r.cval = value;
  return r;
}

lytV_info lytV_t_make_range(int64_t start, int64_t end) {
  lytV_info r = lytV_pessimistic(1);
  r.contiguity[0] = end - start;
  r.divisibility[0] = lytV_pow2_divisor(start);
  return r;
}

lytV_info lytV_t_splat(const lytV_info *a, int rank, const int64_t *shape) {
  lytV_info r = lytV_pessimistic(rank);
  for (int d = 0; d < rank; d++) {
    r.divisibility[d] = a->divisibility[0];
    r.constancy[d] = shape[d];
  }
  r.has_const = a->has_const;
  r.cval = a->cval;
  return r;
}

lytV_info lytV_t_broadcast(const lytV_info *a, int rank, const int64_t *from, const int64_t *to) {
  lytV_info r = *a;
  r.rank = rank;
  for (int d = 0; d < rank; d++) {
    r.contiguity[d] = from[d] == 1 ? 1 : a->contiguity[d];
    r.constancy[d] = from[d] == 1 ? to[d] : a->constancy[d];
  }
  return r;
}

lytV_info lytV_t_expand_dims(const lytV_info *a, int axis) {
  int64_t nd = 1;
  if (a->has_const) nd = lytV_pow2_divisor(a->cval);
  else
    for (int d = 0; d < a->rank; d++) {
      int64_t x = a->contiguity[d] > 1 ? 1 : a->divisibility[d];
      nd = d == 0 ? x : gcd(nd, x);
    }
  lytV_info r = *a;
  r.rank = a->rank + 1;
  for (int d = a->rank; d > axis; d--) {
    r.contiguity[d] = r.contiguity[d - 1];
    r.divisibility[d] = r.divisibility[d - 1];
    r.constancy[d] = r.constancy[d - 1];
  }
  r.contiguity[axis] = r.constancy[axis] = 1;
  r.divisibility[axis] = nd;
  return r;
}

static int64_t fold(lytS_ctx *cx, int op, int64_t x, int64_t y, int64_t elem) {
  switch (op) {
  case LYTV_T_ADD: return lytS_add(cx, x, y);
  case LYTV_T_SUB: return lytS_sub(cx, x, y);
  case LYTV_T_ADDPTR: return lytS_add(cx, x, lytS_mul(cx, y, elem));
  case LYTV_T_MUL: return lytS_mul(cx, x, y);
  case LYTV_T_DIV: return y ? x / y : 0;
  case LYTV_T_REM: return y ? x % y : 0;
  case LYTV_T_AND: return x & y;
  case LYTV_T_OR: return x | y;
  default: return x ^ y;
  }
}

/* One dim of a binary op's result (the visitors' getContiguity,
** getDivisibility and getConstancy). */
static void binary_dim(lytV_info *r, int op, const lytV_info *a, const lytV_info *b,
                       const int64_t *shape, int d, int64_t elem) {
  int64_t ca = a->contiguity[d], cb = b->contiguity[d], da = a->divisibility[d];
  int64_t db = b->divisibility[d], ka = a->constancy[d], kb = b->constancy[d];
  int64_t c = 1, dv = 1, k = gcd(ka, kb);
  switch (op) {
  case LYTV_T_ADD: case LYTV_T_ADDPTR:
    c = max64(gcd(ka, cb), gcd(ca, kb));
    dv = gcd(da, op == LYTV_T_ADDPTR ? mul_div(db, elem) : db);
    break;
  case LYTV_T_SUB:  /* a contiguous rhs makes a decreasing run */
    c = gcd(ca, kb);
    dv = gcd(da, db);
    break;
  case LYTV_T_MUL:  /* [2^n, 2^n+1, ...] counts as divisible by 1 */
    c = max64(is_const(b, 1) ? ca : 1, is_const(a, 1) ? cb : 1);
    dv = mul_div(ca > 1 && !is_const(b, 1) ? 1 : da, cb > 1 && !is_const(a, 1) ? 1 : db);
    break;
  case LYTV_T_DIV:
    c = is_const(b, 1) ? ca : 1;
    if (contiguous_dim(a, shape, d) && constant_dim(b, shape, d)) k = max64(k, gcd(ca, gcd(da, db)));
    dv = is_const(a, 0) || is_const(b, 1) ? da : 1;
    break;
  case LYTV_T_REM:
    if (contiguous_dim(a, shape, d) && constant_dim(b, shape, d)) c = gcd(ca, gcd(da, db));
    dv = gcd(da, db);
    k = is_const(b, 1) ? shape[d] : k;
    break;
  default:  /* and, or, xor: only constancy */
    break;
  }
  r->contiguity[d] = c;
  r->divisibility[d] = dv;
  r->constancy[d] = k;
}

lytV_info lytV_t_binary(lytS_ctx *cx, int op, const lytV_info *a, const lytV_info *b, int rank,
                        const int64_t *shape, int64_t elem) {
  lytV_info r = lytV_pessimistic(rank);
  for (int d = 0; d < rank; d++) binary_dim(&r, op, a, b, shape, d, elem);
  if (a->has_const && b->has_const) {  /* the value is known: a constant */
    r.has_const = 1;
    r.cval = fold(cx, op, a->cval, b->cval, elem);
    for (int d = 0; d < rank; d++) {
      r.contiguity[d] = 1;
      r.divisibility[d] = lytV_pow2_divisor(r.cval);
      r.constancy[d] = max64(a->constancy[d], b->constancy[d]);
    }
  }
  return r;
}

/* CmpIOp: the result's constancy; a constant compared with a contiguous
** run keeps the same answer over the blocks both divisibilities allow. */
lytV_info lytV_t_cmp(int pred, const lytV_info *a, const lytV_info *b, int rank, const int64_t *shape) {
  lytV_info r = lytV_pessimistic(rank);
  int gt_le = pred == LYTV_T_GT || pred == LYTV_T_LE, lt_ge = pred == LYTV_T_LT || pred == LYTV_T_GE;
  for (int d = 0; d < rank; d++) {
    int64_t k;
    if (a->has_const && b->has_const) k = a->constancy[d];
    else {
      k = gcd(a->constancy[d], b->constancy[d]);
      if (gt_le && constant_dim(a, shape, d))
        k = max64(k, gcd(b->contiguity[d], gcd(a->divisibility[d], b->divisibility[d])));
      else if (lt_ge && constant_dim(b, shape, d))
        k = max64(k, gcd(a->contiguity[d], gcd(a->divisibility[d], b->divisibility[d])));
    }
    r.constancy[d] = k;
  }
  return r;
}

lytV_info lytV_t_select(const lytV_info *c, const lytV_info *a, const lytV_info *b, int rank) {
  if (c->has_const) return c->cval ? *a : *b;
  lytV_info r = lytV_pessimistic(rank);
  for (int d = 0; d < rank; d++) {
    r.contiguity[d] = min64(gcd(a->contiguity[d], c->constancy[d]), gcd(b->contiguity[d], c->constancy[d]));
    r.divisibility[d] = min64(a->divisibility[d], b->divisibility[d]);
    r.constancy[d] = min64(gcd(a->constancy[d], c->constancy[d]), gcd(b->constancy[d], c->constancy[d]));
  }
  if (a->has_const && b->has_const && a->cval == b->cval) {
    r.has_const = 1;
    r.cval = a->cval;
  }
  return r;
}

lytV_info lytV_t_join(const lytV_info *a, const lytV_info *b) {
  lytV_info r = *a;
  for (int d = 0; d < a->rank; d++) {
    r.contiguity[d] = gcd(a->contiguity[d], b->contiguity[d]);
    r.divisibility[d] = gcd(a->divisibility[d], b->divisibility[d]);
    r.constancy[d] = gcd(a->constancy[d], b->constancy[d]);
  }
  r.has_const = a->has_const && b->has_const && a->cval == b->cval;
  return r;
}

int lytV_t_same(const lytV_info *a, const lytV_info *b) {
  if (a->rank != b->rank || a->has_const != b->has_const || (a->has_const && a->cval != b->cval))
    return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->contiguity[d] != b->contiguity[d] || a->divisibility[d] != b->divisibility[d] ||
        a->constancy[d] != b->constancy[d])
      return 0;
  return 1;
}
