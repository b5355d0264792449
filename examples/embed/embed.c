/*
** embed.c: lyt inside a compiler pass. The "pass" opens a state, asks lyt
** for the linear layout of a Triton blocked encoding, the vector width a
** load of that layout may use, and the PTX of a layout conversion, and
** prints what it got. Output goes through the write callback into a
** buffer the pass owns; every call's status is checked.
**
**   make embed && build/embed
**   cc embed.c $(pkg-config --cflags --libs lyt) -o embed   (installed)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

typedef struct buf { char text[1 << 16]; size_t n; } buf;

static void collect(void *ud, const char *s, size_t n) {
  buf *b = ud;
  if (n > sizeof b->text - 1 - b->n) n = sizeof b->text - 1 - b->n;
  memcpy(b->text + b->n, s, n);
  b->n += n;
  b->text[b->n] = 0;
}

/* Run src; on failure report lyt's diagnostic the way a compiler would. */
static int ask(lyt_state *L, buf *out, const char *what, const char *src) {
  out->n = 0, out->text[0] = 0;
  if (lyt_dostring(L, src, what) != LYT_OK) {
    fprintf(stderr, "pass: lyt failed on %s:\n%s", what, lyt_diagnostic(L));
    return 0;
  }
  return 1;
}

int main(void) {
  static buf out;
  lyt_config c;
  lyt_config_init(&c);
  c.write = collect;
  c.write_ud = &out;
  lyt_state *L = lyt_open(&c);
  if (!L) return 1;
  int ok = ask(L, &out, "layouts",
               "import \"triton.lyt\"\n"
               "B = to_linear(blocked((1,8), (8,4), (4,1), (1,0)), (64,32))\n"
               "A = to_linear(dot_operand(0, nvidia_mma((2,0), (2,2), (16,8)), 2), (64,32))\n"
               "print B\n");
  if (ok) printf("blocked layout: %s", out.text);
  /* the offsets of a row-major 64x32 tile walked column fastest (CuTe's
  ** colexicographic (32,64):(1,32)), 8 halves per thread */
  ok = ok && ask(L, &out, "vector width",
                 "x = index_of((32,64):(1,32), 2048)\n"
                 "print vector_width(x, 0, 2, elems_per_thread=8)\n");
  if (ok) printf("vector width of an f16 load: %s", out.text);
  ok = ok && ask(L, &out, "conversion",
                 "cvt = kernel(\"blocked_to_dot_a\", \"f16\", (64,32):(32,1), (64,32):(32,1),"
                 " (64,32), B, A)\n");
  if (ok) {
    out.n = 0;
    ok = lyt_emit(L, "ptx", "sm_90") == LYT_OK;
    if (!ok) fprintf(stderr, "pass: emit failed: %s\n", lyt_diagnostic(L));
    else {
      /* 64x32 halves over 128 threads: 16 per thread, read as 2 vectors of
      ** 16 bytes from global memory and written as 2 to shared memory */
      int vec = 0;
      for (const char *p = out.text; (p = strstr(p, ".v4.b32")); p++) vec++;
      printf("PTX for the conversion: %d 16-byte accesses (expected 4), entry %s\n", vec,
             strstr(out.text, ".entry blocked_to_dot_a(") ? "blocked_to_dot_a" : "missing");
    }
  }
  /* a mistake in the pass's layout text comes back as an error, not a crash */
  if (ok && lyt_dostring(L, "print composition((6,2):(1,7), (3,2):(2,3))\n", "bad") != LYT_OK) {
    int line, col;
    const char *msg = lyt_error(L, NULL, &line, &col);
    printf("bad layout refused at %d:%d: %s\n", line, col, msg);
  }
  lyt_close(L);
  return ok ? 0 : 1;
}
