/*
** stride/swizzle.c: CuTe's Swizzle<B,M,S> and composed layouts sw o offset o L
** (stride core, lytS_).
**
** A swizzle XORs the B bits at position M+max(0,S) onto the B bits at
** M-min(0,S): f(x) = x ^ shiftr(x & yyy, S). It is an involution on
** non-negative offsets. A composed layout keeps its shape, size and cosize
** from the inner layout (as CuTe C++ does, unlike pycute); the algebra
** acts on the inner layout and the swizzle rides along.
*/
#include "interp/stride/layout.h"

#define SWIZZLE_BITS 63  /* every mask must fit a non-negative int64 */

lytS_swizzle lytS_make_swizzle(lytS_ctx *cx, int64_t b, int64_t m, int64_t s) {
  if (s < -SWIZZLE_BITS || s > SWIZZLE_BITS)  /* before |S|: -INT64_MIN does not exist */
    lytS_fail(cx, LYT_ERRRUN, "swizzle: S=%lld is outside -%d..%d", (long long)s, SWIZZLE_BITS,
              SWIZZLE_BITS);
  int64_t as = s < 0 ? -s : s;
  if (b < 0 || m < 0)
    lytS_fail(cx, LYT_ERRRUN, "swizzle: %s=%lld must be non-negative", b < 0 ? "B" : "M",
              (long long)(b < 0 ? b : m));
  if (as < b)
    lytS_fail(cx, LYT_ERRRUN, "swizzle: |S|=%lld must be at least B=%lld (the bit "
              "fields would overlap)", (long long)as, (long long)b);
  if (b > SWIZZLE_BITS || m > SWIZZLE_BITS || as > SWIZZLE_BITS || b + m + as > SWIZZLE_BITS)
    lytS_fail(cx, LYT_ERRRUN, "swizzle: B+M+|S| = %lld exceeds %d bits",
              (long long)(b + m + as), SWIZZLE_BITS);
  lytS_swizzle sw = { (int32_t)b, (int32_t)m, (int32_t)s };
  return sw;
}

int lytS_swizzle_is_identity(lytS_swizzle sw) { return sw.b == 0; }

int64_t lytS_swizzle_apply(lytS_ctx *cx, lytS_swizzle sw, int64_t x) {
  if (x < 0)
    lytS_fail(cx, LYT_ERRRUN, "swizzle: cannot apply Sw<%d,%d,%d> to the negative "
              "index %lld", sw.b, sw.m, sw.s, (long long)x);
  uint64_t ones = ((uint64_t)1 << sw.b) - 1;
  uint64_t yyy = ones << (sw.m + (sw.s > 0 ? sw.s : 0));
  uint64_t ux = (uint64_t)x, y = ux & yyy;
  uint64_t sh = sw.s >= 0 ? y >> sw.s : y << -sw.s;
  return (int64_t)(ux ^ sh);
}

lytS_composed *lytS_make_composed(lytS_ctx *cx, lytS_swizzle sw, int64_t off, lytS_layout l) {
  lytS_composed *c = lytS_alloc(cx, sizeof *c);
  c->sw = sw;
  c->offset = off;
  c->inner = l;
  return c;
}

lytS_composed *lytS_composed_with(lytS_ctx *cx, const lytS_composed *c, lytS_layout inner) {
  return lytS_make_composed(cx, c->sw, c->offset, inner);
}

int64_t lytS_composed_eval(lytS_ctx *cx, const lytS_composed *c, const lytS_tup *crd) {
  int64_t i = lytS_crd2idx_int(cx, crd, c->inner.shape, c->inner.stride);
  return lytS_swizzle_apply(cx, c->sw, lytS_add(cx, c->offset, i));
}

void lytS_print_swizzle(lytS_buf *b, lytS_swizzle sw) {
  lytS_buf_printf(b, "Sw<%d,%d,%d>", sw.b, sw.m, sw.s);
}

void lytS_print_composed(lytS_buf *b, const lytS_composed *c) {
  lytS_print_swizzle(b, c->sw);
  lytS_buf_printf(b, " o %lld o ", (long long)c->offset);
  lytS_print_layout(b, c->inner);
}
