/*
** embed.c: lyt inside a compiler pass. The "pass" opens a state, loads
** the stdlib, and through the value API (no source text) asks for the
** linear layout of a Triton blocked encoding, the vector width of a load
** of it, and the PTX of a blocked-to-mma-operand conversion, written into
** a buffer the pass owns. It also gives lyt code a C function to call,
** and shows how a bad layout comes back as an error. Every status is
** checked.
**
**   make embed && build/embed
**   cc embed.c $(pkg-config --cflags --libs lyt) -o embed   (installed)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

static lyt_state *L;

/* Stop the pass with lyt's diagnostic, as a compiler would. */
static void check(int status, const char *what) {
  if (status == LYT_OK) return;
  fprintf(stderr, "pass: %s failed:\n%s", what, lyt_diagnostic(L));
  lyt_close(L);
  exit(1);
}

static void push_pair(int64_t a, int64_t b) {
  check(lyt_push_int(L, a), "push");
  check(lyt_push_int(L, b), "push");
  check(lyt_push_tuple(L, 2), "tuple");
}

/* blocked(spt, tpw, wpc, order) laid over shape, as a linear layout. */
static void push_blocked(const int64_t v[4][2], const int64_t shape[2]) {
  check(lyt_getglobal(L, "blocked"), "blocked");
  for (int k = 0; k < 4; k++) push_pair(v[k][0], v[k][1]);
  check(lyt_call(L, 4), "blocked()");
  check(lyt_linear_of(L, 2, shape), "to_linear");
}

/* A C function for lyt code: the warp size of the pass's target. */
static int warp_size(lyt_state *S, int nargs, void *ud) {
  if (nargs != 0) return lyt_seterror(S, "takes no arguments");
  return lyt_push_int(S, *(const int *)ud);
}

int main(void) {
  L = lyt_open(NULL);
  if (!L) return 1;
  check(lyt_dostring(L, "import \"triton.lyt\"\n", "stdlib"), "loading the stdlib");

  /* 1. the blocked encoding of the load, as a linear layout */
  const int64_t shape[2] = { 64, 32 };
  const int64_t blocked[4][2] = { { 1, 8 }, { 8, 4 }, { 4, 1 }, { 1, 0 } };
  push_blocked(blocked, shape);
  lyt_linear B;
  check(lyt_to_linear(L, -1, &B), "reading the layout");
  printf("blocked layout: %d in-dims, %d out-dims; lane 1 holds element (%lld, %lld), "
         "register 1 element (%lld, %lld)\n",
         B.nin, B.nout, (long long)B.basis[B.in_log2[0]][0], (long long)B.basis[B.in_log2[0]][1],
         (long long)B.basis[0][0], (long long)B.basis[0][1]);
  int64_t in[4] = { 3, 17, 2, 0 }, out[2];
  int n;
  check(lyt_apply(L, -1, 4, in, 2, &n, out), "apply");
  printf("register 3 of lane 17 of warp 2 holds element (%lld, %lld)\n", (long long)out[0],
         (long long)out[1]);
  check(lyt_setglobal(L, "B"), "binding B");

  /* 2. the vector width of an f16 load: offsets of a row-major 64x32
  ** tile walked column fastest, 8 halves per thread */
  check(lyt_getglobal(L, "index_of"), "index_of");
  check(lyt_push_layout(L, 2, (const int64_t[]){ 32, 64 }, (const int64_t[]){ 1, 32 }), "layout");
  check(lyt_push_int(L, 2048), "push");
  check(lyt_call(L, 2), "index_of()");
  lyt_axisinfo info;
  int64_t width;
  check(lyt_to_axisinfo(L, -1, 0, &info), "axis info");
  check(lyt_vector_width(L, &info, 0, 2, 16, 8, &width), "vector width");
  printf("vector width of an f16 load: %lld (contiguity %lld)\n", (long long)width,
         (long long)info.contiguity[0]);
  lyt_settop(L, 0);

  /* 3. the conversion kernel: blocked -> mma v2 A operand, then its PTX */
  check(lyt_dostring(L, "A = to_linear(dot_operand(0, nvidia_mma((2,0), (2,2), (16,8)), 2), (64,32))\n",
                     "operand"),
        "the operand layout");
  check(lyt_getglobal(L, "kernel"), "kernel");
  check(lyt_push_string(L, "blocked_to_dot_a"), "push");
  check(lyt_push_string(L, "f16"), "push");
  for (int k = 0; k < 2; k++)
    check(lyt_push_layout(L, 2, shape, (const int64_t[]){ 32, 1 }), "layout");
  push_pair(64, 32);
  check(lyt_getglobal(L, "B"), "B");
  check(lyt_getglobal(L, "A"), "A");
  check(lyt_call(L, 7), "kernel()");
  size_t len = 0;
  if (lyt_emit_kernel(L, -1, "ptx", "sm_90", NULL, 0, &len) != LYT_ERRLIMIT) return 1;
  char *ptx = malloc(len + 1);
  if (!ptx) return 1;
  check(lyt_emit_kernel(L, -1, "ptx", "sm_90", ptx, len + 1, &len), "emit");
  /* 64x32 halves over 128 threads: 16 per thread, read as 2 vectors of
  ** 16 bytes from global memory and written as 2 to shared memory */
  int vec = 0;
  for (const char *p = ptx; (p = strstr(p, ".v4.b32")); p++) vec++;
  printf("PTX for the conversion: %d 16-byte accesses (expected 4), entry %s\n", vec,
         strstr(ptx, ".entry blocked_to_dot_a(") ? "blocked_to_dot_a" : "missing");
  free(ptx);
  lyt_settop(L, 0);

  /* 4. lyt code calling back into the pass */
  static const int warp = 32;
  check(lyt_push_cfunction(L, "warp_size", warp_size, (void *)&warp), "C function");
  check(lyt_setglobal(L, "warp_size"), "binding warp_size");
  const char *text;
  check(lyt_eval(L, "64 * 32 / (warp_size() * 4)", "per thread"), "elements per thread");
  check(lyt_tostring(L, -1, &text, NULL), "tostring");
  printf("elements per thread, computed by lyt with the pass's warp size: %s\n", text);
  lyt_settop(L, 0);

  /* 5. a mistake in the pass's layouts comes back as an error */
  check(lyt_push_layout(L, 2, (const int64_t[]){ 6, 2 }, (const int64_t[]){ 1, 7 }), "layout");
  check(lyt_push_layout(L, 2, (const int64_t[]){ 3, 2 }, (const int64_t[]){ 2, 3 }), "layout");
  if (lyt_compose(L) != LYT_OK)
    printf("bad composition refused (stack still %d deep): %s\n", lyt_gettop(L),
           lyt_error(L, NULL, NULL, NULL));
  lyt_close(L);
  return 0;
}
