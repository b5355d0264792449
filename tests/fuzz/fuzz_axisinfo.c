/*
** fuzz_axisinfo.c: libFuzzer target for the AxisInfo core and the exact
** stride <-> linear conversions. A random expression over make_range,
** splat, + - * / % xor and (1-D, 16 or 32 elements) is evaluated in
** conservative mode; whatever info Triton's rules claim must hold of the
** values (lytV_info_holds), and the exact info must be at least as
** strong (the conservative vector width never exceeds the exact one).
** Then a random flat stride layout converted to a linear layout and back
** must compute the same offsets (when the conversion exists).
*/
#include "interp/axisinfo/axisinfo.h"
#include "interp/linear/convert.h"
#include "fuzz.h"

static lytV_val *expr(const lytV_ctx *vx, bytes *b, int64_t n, int depth) {
  unsigned op = take(b) % (depth > 4 ? 2 : 9);
  int64_t k = take(b) % 17, shape[1] = { n };
  switch (op) {
    case 0: return lytV_make_range(vx, k, k + n);
    case 1: return lytV_splat(vx, k, 1, shape);
    case 2: return lytV_add(vx, expr(vx, b, n, depth + 1), expr(vx, b, n, depth + 1));
    case 3: return lytV_sub(vx, expr(vx, b, n, depth + 1), expr(vx, b, n, depth + 1));
    case 4: return lytV_mul(vx, expr(vx, b, n, depth + 1), expr(vx, b, n, depth + 1));
    case 5: return lytV_div(vx, expr(vx, b, n, depth + 1), k + 1);
    case 6: return lytV_rem(vx, expr(vx, b, n, depth + 1), k + 1);
    case 7: return lytV_xor(vx, expr(vx, b, n, depth + 1), k);
    default: return lytV_and(vx, expr(vx, b, n, depth + 1), k);
  }
}

static void check_info(lytS_ctx *cx, bytes *b) {
  lytV_ctx vx = lytV_context(cx, LYTV_CONSERVATIVE);
  lytV_val *v = expr(&vx, b, take(b) % 2 ? 16 : 32, 0);
  if (!lytV_info_holds(cx, v, &v->info)) abort();
  lytV_info ex = lytV_exact_info(cx, v);
  int64_t eb = 1 << (take(b) % 4);
  if (lytV_vector_width(cx, &v->info, 0, eb, 16, v->n) > lytV_vector_width(cx, &ex, 0, eb, 16, v->n))
    abort();
}

static void check_convert(lytS_ctx *cx, bytes *b) {
  int32_t n = 1 + (int32_t)(take(b) % 3);
  lytS_tup *s = lytS_newtup(cx, n), *d = lytS_newtup(cx, n);
  for (int32_t i = 0; i < n; i++) {
    s->e[i] = lytS_int(cx, 1 << (take(b) % 4));
    d->e[i] = lytS_int(cx, take(b) % 3 == 0 ? 0 : 1 << (take(b) % 6));
  }
  lytS_layout L = lytS_make_layout(cx, s, d);
  lytG_ll *G = lytC_linear_of_layout(cx, L, "offset");
  lytS_layout back = lytC_strided_of_linear(cx, G);
  for (int64_t i = 0; i < lytS_lsize(cx, L); i++)
    if (lytS_eval_i(cx, L, i) != lytS_eval_i(cx, back, i)) abort();
}

static void check(lytS_ctx *cx, bytes *b) {
  if (take(b) % 2 == 0) check_info(cx, b);
  else check_convert(cx, b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return run_core(data, size, 16u << 20, check);
}
