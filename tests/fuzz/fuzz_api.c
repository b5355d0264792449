/*
** fuzz_api.c: libFuzzer target for the embedding API: the input is split
** at NUL bytes into chunks, each run through one entry point chosen by its
** first byte (dostring, doline, emit for a target, or a value-stack
** operation whose operands are the chunk's next bytes), on one state that
** lives across the chunks, then closed. Any status is fine; a crash, a
** sanitizer report, a leak, a failing call without a message, a message
** on success, or a failing stack operation that changed the stack's
** height is not.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lyt.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

static void sink(void *ud, const char *s, size_t n) { (void)ud, (void)s, (void)n; }

static int64_t arg(const char *c, int k) {
  int64_t v = 0;
  for (int i = 1; i <= k && c[i]; i++) v = (int64_t)(signed char)c[i];
  return v;
}

/* One stack operation; operands are small signed numbers from the chunk. */
static int stack_op(lyt_state *L, const char *c, unsigned op) {
  int64_t a = arg(c, 1), b = arg(c, 2), in[4] = { a, b, arg(c, 3), arg(c, 4) }, out[8];
  const char *s;
  size_t n;
  int m;
  static char buf[1 << 16];
  switch (op) {
    case 0: return lyt_push_int(L, a);
    case 1: return lyt_push_layout(L, (int)(a & 3), (const int64_t[]){ b, a, 4, 2 }, in);
    case 2: return lyt_push_tuple(L, (int)(a & 7));
    case 3: return lyt_call(L, (int)(a & 3));
    case 4: return lyt_compose(L);
    case 5: return lyt_invert(L);
    case 6: return lyt_linear_of(L, (int)(a & 3), in);
    case 7: return lyt_apply(L, (int)b, (int)(a & 3), in, 8, &m, out);
    case 8: return lyt_settop(L, (int)(a & 15));
    case 9: return lyt_eval(L, c + 1, "fuzz");
    case 10: return lyt_getglobal(L, c + 1);
    case 11: return lyt_setglobal(L, c + 1);
    case 12: return lyt_tostring(L, (int)a, &s, &n);
    case 13: return lyt_make_layout(L);
    case 14: return lyt_pushvalue(L, (int)a);
    default: return lyt_emit_kernel(L, (int)a, "ptx", NULL, buf, sizeof buf, &n);
  }
}

static void run(lyt_state *L, const char *chunk) {
  static const char *const targets[] = { "c", "ptx", "amdgcn", "expect", "nope" };
  unsigned op = (unsigned char)chunk[0] % 24;
  int s;
  if (op < 3) s = lyt_dostring(L, chunk + (chunk[0] != 0), "fuzz");
  else if (op < 6) s = lyt_doline(L, chunk + (chunk[0] != 0), "fuzz");
  else if (op < 8) s = lyt_emit(L, targets[(unsigned char)chunk[0] / 24 % 5], NULL);
  else {
    int top = lyt_gettop(L);
    s = stack_op(L, chunk, op - 8);
    if (s != LYT_OK && s != LYT_ERRMEM && lyt_gettop(L) != top) abort();
  }
  const char *msg = lyt_error(L, NULL, NULL, NULL);
  if ((s != LYT_OK) != (msg[0] != 0)) abort();
  if (s != LYT_OK && !lyt_diagnostic(L)[0]) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (!text) return 0;
  lyt_config c;
  lyt_config_init(&c);
  c.write = sink;
  c.stdlib_path = LYT_STDLIB_DIR;
  c.mem_limit = 64u << 20;
  c.max_steps = 200000;
  c.no_file_writes = 1;  /* a fuzzed svg() must not write where the input says */
  lyt_state *L = lyt_open(&c);
  if (L) {
    for (size_t i = 0; i <= size; i += strlen(text + i) + 1) run(L, text + i);
    lyt_close(L);
  }
  free(text);
  return 0;
}
