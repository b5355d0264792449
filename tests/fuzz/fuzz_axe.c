/*
** fuzz_axe.c: libFuzzer target for the Axe core on random layouts built
** from the input bytes (power-of-two extents and strides on a few axes,
** replicas, offsets): forward and backward agree (every physical point of
** x maps back to a set holding x), canonicalize keeps every image, and a
** round trip through the linear-layout conversion gives the canonical
** layout back.
*/
#include "interp/axe/axe.h"
#include "fuzz.h"

static const char *const axes[3] = { "lane", "warp", "m" };

static lytX_layout *random_axe(lytS_ctx *cx, bytes *b, int with_offset) {
  lytX_layout *L = lytX_new(cx);
  int32_t nd = 1 + (int32_t)(take(b) % 4), nr = (int32_t)(take(b) % 3);
  for (int32_t i = 0; i < nd; i++)
    lytX_shard(cx, L, 1 << (take(b) % 3), (int64_t)(take(b) % 5 == 0 ? 0 : 1 << (take(b) % 5)),
               axes[take(b) % 3]);
  for (int32_t i = 0; i < nr; i++)
    lytX_replica(cx, L, 1 << (1 + take(b) % 2), 1 << (take(b) % 6), axes[take(b) % 3]);
  if (with_offset && take(b) % 2) lytX_offset(cx, L, take(b) % 4, axes[take(b) % 3]);
  return L;
}

static void check_maps(lytS_ctx *cx, const lytX_layout *L) {
  int64_t n = lytX_size(cx, L), shape[1] = { n };
  lytX_layout *C = lytX_canonicalize(cx, L);
  for (int64_t x = 0; x < n; x++) {
    lytX_points p = lytX_apply(cx, L, 1, shape, &x);
    lytX_points q = lytX_apply(cx, C, 1, shape, &x);
    q = lytX_points_reorder(cx, &q, p.naxes, p.axis);
    if (p.n != q.n || memcmp(p.v, q.v, sizeof(int64_t) * (size_t)(p.n * p.naxes))) abort();
    for (int32_t i = 0; i < p.n; i++) {
      lytX_coords back = lytX_preimage(cx, L, 1, shape, p.v + (size_t)i * (size_t)p.naxes);
      int found = 0;
      for (int32_t k = 0; k < back.n; k++) found |= back.v[k] == x;
      if (!found) abort();
    }
  }
}

static void check_linear(lytS_ctx *cx, const lytX_layout *L) {
  lytG_ll *G = lytX_to_linear(cx, L, "idx", L->nr ? "rep" : NULL);
  lytX_layout *B = lytX_from_linear(cx, G, "idx", L->nr ? "rep" : NULL);
  lytX_layout *C = lytX_canonicalize(cx, L);
  int64_t n = lytX_size(cx, C), shape[1] = { n };
  for (int64_t x = 0; x < n; x++) {  /* the same images; names may be reordered */
    lytX_points p = lytX_apply(cx, C, 1, shape, &x), q = lytX_apply(cx, B, 1, shape, &x);
    q = lytX_points_reorder(cx, &q, p.naxes, p.axis);
    if (p.n != q.n || memcmp(p.v, q.v, sizeof(int64_t) * (size_t)(p.n * p.naxes))) abort();
  }
}

static void check(lytS_ctx *cx, bytes *b) {
  int which = take(b) % 2;
  lytX_layout *L = random_axe(cx, b, which == 0);
  if (which == 0) check_maps(cx, L);
  else check_linear(cx, L);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return run_core(data, size, 32u << 20, check);
}
