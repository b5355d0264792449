/*
** fuzz_parse.c: libFuzzer target for the front end alone: arbitrary bytes
** through the re2c lexer and the Lemon parser, without evaluation. Any
** outcome but a crash, a sanitizer report or a leak is fine; a failed
** parse must leave a message and a location.
*/
#include "lang/parse.h"
#include "fuzz.h"

static const char *intern(void *ud, const char *s, size_t n) {
  lytS_ctx *cx = ud;
  char *p = lytS_alloc(cx, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (!text) return 0;
  lytA_arena a;
  jmp_buf jb;
  lytS_ctx cx;
  lytA_init(&a, NULL, NULL, 64u << 20);
  memset(&cx, 0, sizeof cx);
  cx.arena = &a, cx.jb = &jb;
  lytL_src src = { "fuzz", text, size, 0, 0, NULL };
  lytP_ctx p;
  memset(&p, 0, sizeof p);
  p.cx = &cx, p.src = &src, p.intern = intern, p.intern_ud = &cx;
  p.cur = p.linestart = text;
  p.line = 1;
  if (setjmp(jb) == 0) {
    lytS_buf_init(&p.diag, &cx);
    if (lytP_parse(&p) != LYT_OK && (p.errmsg[0] == 0 || p.errloc.line < 1)) abort();
  }
  lytA_free(&a);
  free(text);
  return 0;
}
