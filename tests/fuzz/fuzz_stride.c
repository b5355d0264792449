/*
** fuzz_stride.c: libFuzzer target for the stride core on random flat
** layouts built from the input bytes: every operation either fails
** cleanly or satisfies its definition, checked pointwise: composition(A,
** B)(i) = A(B(i)), coalesce(A)(i) = A(i), A(right_inverse(A)(i)) = i on
** the inverse's domain.
*/
#include "interp/stride/layout.h"
#include "fuzz.h"

/* Up to 4 modes, extents 1..8, strides -3..28 (so that some overlap). */
static lytS_layout random_layout(lytS_ctx *cx, bytes *b) {
  int32_t n = 1 + (int32_t)(take(b) % 4);
  lytS_tup *s = lytS_newtup(cx, n), *d = lytS_newtup(cx, n);
  for (int32_t i = 0; i < n; i++) {
    s->e[i] = lytS_int(cx, 1 + take(b) % 8);
    d->e[i] = lytS_int(cx, (int64_t)(take(b) % 32) - 3);
  }
  return lytS_make_layout(cx, s, d);
}

static void check(lytS_ctx *cx, bytes *b) {
  lytS_layout A = random_layout(cx, b), B = random_layout(cx, b);
  unsigned which = take(b) % 3;
  if (which == 0) {
    lytS_layout C = lytS_compose(cx, A, B);
    for (int64_t i = 0; i < lytS_lsize(cx, B); i++) {
      int64_t bi = lytS_eval_i(cx, B, i);
      if (bi < 0 || bi >= lytS_lsize(cx, A)) continue;
      if (lytS_eval_i(cx, C, i) != lytS_eval_i(cx, A, bi)) abort();
    }
  } else if (which == 1) {
    lytS_layout C = lytS_coalesce(cx, A);
    if (lytS_lsize(cx, C) != lytS_lsize(cx, A)) abort();
    for (int64_t i = 0; i < lytS_lsize(cx, A); i++)
      if (lytS_eval_i(cx, C, i) != lytS_eval_i(cx, A, i)) abort();
  } else {
    lytS_layout R = lytS_right_inverse(cx, A);
    for (int64_t i = 0; i < lytS_lsize(cx, R); i++) {
      int64_t r = lytS_eval_i(cx, R, i);
      if (r < 0 || r >= lytS_lsize(cx, A) || lytS_eval_i(cx, A, r) != i) abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return run_core(data, size, 16u << 20, check);
}
