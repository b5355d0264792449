/*
** bench_linear.c: ns per operation of the GF(2) core on 16- and 32-bit
** layouts: compose, product, invert, invert_and_compose, apply. As a
** reference measured in the same run, compose is also done the plain way
** (bases as int arrays, one component at a time, as a port without bit
** packing would), and the ratio is printed.
**
**   make bench-linear
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/linear/linear.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

/* A random invertible n-bit layout in -> out: a random bit permutation,
** then `ops` random row operations. Dense (ops = 4n) is the worst case;
** Triton's layouts are permutations with a few XOR terms (swizzles). */
static int row_ops;

static lytG_ll *random_ll(lytS_ctx *cx, int n, const char *in, const char *out) {
  lytG_dim i = { in, n }, o = { out, n };
  uint64_t col[64];
  for (int j = 0; j < n; j++) col[j] = (uint64_t)1 << j;
  for (int j = n - 1; j > 0; j--) {
    int k = (int)(next() % (uint64_t)(j + 1));
    uint64_t t = col[j]; col[j] = col[k]; col[k] = t;
  }
  for (int r = 0; r < row_ops * n / 4; r++) {
    int a = (int)(next() % (uint64_t)n), b = (int)(next() % (uint64_t)n);
    if (a != b) col[a] ^= col[b];
  }
  return lytG_make(cx, 1, &i, 1, &o, col, 1);
}

/* The plain way: bases[j][k] is bit k of the image of input bit j. */
static void naive_compose(int n, const unsigned char *a, const unsigned char *b, unsigned char *r) {
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++) {
      unsigned char v = 0;
      for (int t = 0; t < n; t++) v ^= (unsigned char)(a[j * n + t] & b[t * n + k]);
      r[j * n + k] = v;
    }
}

typedef struct ctx { lytS_ctx cx; lytA_arena a; jmp_buf jb; } ctx;

static void bench(int n, long iters, int print) {
  ctx c;
  lytA_init(&c.a, NULL, NULL, 0);
  memset(&c.cx, 0, sizeof c.cx);
  c.cx.arena = &c.a;
  c.cx.jb = &c.jb;
  if (setjmp(c.jb)) { fprintf(stderr, "bench: %s\n", c.cx.msg); exit(1); }
  lytG_ll *A = random_ll(&c.cx, n, "x", "y"), *B = random_ll(&c.cx, n, "y", "z");
  lytG_ll *C = random_ll(&c.cx, n, "x", "y");
  lytG_ll *D = random_ll(&c.cx, n, "u", "v");  /* other dims: a 2n-bit product */
  volatile uint64_t sink = 0;
  double t0, dt[6];
  lytA_mark m = lytA_getmark(&c.a);
#define TIME(k, expr) t0 = now(); \
  for (long i = 0; i < iters; i++) { expr; lytA_release(&c.a, m); } dt[k] = (now() - t0) / (double)iters
  TIME(0, sink += lytG_compose(&c.cx, A, B)->col[0]);
  TIME(1, sink += lytG_product(&c.cx, A, D)->col[0]);
  TIME(2, sink += lytG_invert(&c.cx, A)->col[0]);
  TIME(3, sink += lytG_invert_and_compose(&c.cx, A, C)->col[0]);
  int64_t in = 0, out;
  TIME(4, in = (in + 12345) & (((int64_t)1 << n) - 1); lytG_apply(A, &in, &out); sink += (uint64_t)out);
  unsigned char *na = malloc((size_t)n * n), *nb = malloc((size_t)n * n), *nr = malloc((size_t)n * n);
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++) {
      na[j * n + k] = (unsigned char)((A->col[j] >> k) & 1);
      nb[j * n + k] = (unsigned char)((B->col[j] >> k) & 1);
    }
  t0 = now();
  for (long i = 0; i < iters; i++) { naive_compose(n, na, nb, nr); sink += nr[0]; }
  dt[5] = (now() - t0) / (double)iters;
  if (print)
    printf("%-7s %2d-bit  compose %6.1f ns  product %6.1f ns  invert %6.1f ns  "
         "invert_and_compose %6.1f ns  apply %5.1f ns  | plain compose %7.1f ns (%.1fx)\n",
         row_ops > 1 ? "dense" : "swizzle", n, dt[0], dt[1], dt[2], dt[3], dt[4], dt[5], dt[5] / dt[0]);
  free(na); free(nb); free(nr);
  lytA_free(&c.a);
  (void)sink;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 200000;
  /* a pass untimed first: the first figures measured the CPU's clock
  ** coming up (16-bit swizzle compose 99-110 ns, 60 ns after it) */
  row_ops = 1;
  bench(16, iters / 4, 0);  /* about n/4 XOR terms, like a swizzle */
  bench(16, iters, 1);
  bench(32, iters, 1);
  row_ops = 16; /* 4n row operations: a dense random matrix */
  bench(16, iters, 1);
  bench(32, iters, 1);
  return 0;
}
