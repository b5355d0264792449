/*
** fuzz_linear.c: libFuzzer target for the GF(2) core on random layouts
** built from the input bytes: every operation either fails cleanly or
** satisfies its definition, checked pointwise: compose(L, M)(x) =
** M(L(x)); invert(L)(L(x)) = x for an invertible L; L(pseudoinvert(L)(y))
** = y on L's image; the stride <-> linear conversions agree pointwise.
*/
#include "interp/linear/linear.h"
#include "fuzz.h"

/* A layout with in-dims "a","b" and out-dims "x","y" of random sizes and bases. */
static lytG_ll *random_ll(lytS_ctx *cx, bytes *b, const char *in0, const char *in1,
                          const char *out0, const char *out1) {
  lytG_dim in[2] = { { in0, (int32_t)(take(b) % 5) }, { in1, (int32_t)(take(b) % 5) } };
  lytG_dim out[2] = { { out0, (int32_t)(take(b) % 5) }, { out1, (int32_t)(take(b) % 5) } };
  int32_t nin = in[0].log2 + in[1].log2, nout = out[0].log2 + out[1].log2;
  uint64_t col[16] = { 0 };
  for (int32_t j = 0; j < nin; j++) col[j] = (take(b) | (uint64_t)take(b) << 8) & ((UINT64_C(1) << nout) - 1);
  return lytG_make(cx, 2, in, 2, out, col, 0);
}

static void check_compose(lytS_ctx *cx, bytes *b) {
  lytG_ll *L = random_ll(cx, b, "a", "b", "x", "y");
  lytG_ll *M = random_ll(cx, b, "x", "y", "u", "v");
  lytG_ll *C = lytG_compose(cx, L, M);
  int64_t in[2], mid[2], out[2], got[2];
  for (in[0] = 0; in[0] < (1 << L->in[0].log2); in[0]++)
    for (in[1] = 0; in[1] < (1 << L->in[1].log2); in[1]++) {
      lytG_apply(L, in, mid);
      if (mid[0] >= (1 << M->in[0].log2) || mid[1] >= (1 << M->in[1].log2)) continue;
      lytG_apply(M, mid, out);
      lytG_apply(C, in, got);
      if (memcmp(out, got, sizeof out)) abort();
    }
}

static void check_invert(lytS_ctx *cx, bytes *b) {
  lytG_ll *L = random_ll(cx, b, "a", "b", "a", "b");
  if (!lytG_is_invertible(L)) return;
  lytG_ll *I = lytG_invert(cx, L);
  int64_t in[2], mid[2], back[2];
  for (in[0] = 0; in[0] < (1 << L->in[0].log2); in[0]++)
    for (in[1] = 0; in[1] < (1 << L->in[1].log2); in[1]++) {
      lytG_apply(L, in, mid);
      lytG_apply(I, mid, back);
      if (memcmp(in, back, sizeof in)) abort();
    }
}

static void check_pseudo(lytS_ctx *cx, bytes *b) {
  lytG_ll *L = random_ll(cx, b, "a", "b", "x", "y");
  lytG_ll *P = lytG_pseudoinvert(cx, L);
  int64_t in[2], y[2], pre[2], again[2];
  for (in[0] = 0; in[0] < (1 << L->in[0].log2); in[0]++)
    for (in[1] = 0; in[1] < (1 << L->in[1].log2); in[1]++) {
      lytG_apply(L, in, y);
      lytG_apply(P, y, pre);
      lytG_apply(L, pre, again);
      if (memcmp(y, again, sizeof y)) abort();
    }
}

static void check(lytS_ctx *cx, bytes *b) {
  unsigned which = take(b) % 3;
  if (which == 0) check_compose(cx, b);
  else if (which == 1) check_invert(cx, b);
  else check_pseudo(cx, b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return run_core(data, size, 16u << 20, check);
}
