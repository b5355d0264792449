/*
** fuzz_api.c: libFuzzer target for the embedding API: the input is split
** at NUL bytes into chunks, each run through one entry point chosen by its
** first byte (dostring, doline, emit for a target), on one state that
** lives across the chunks, then closed. Any status is fine; a crash, a
** sanitizer report, a leak, a failing call without a message, or a
** message on success is not.
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

static void run(lyt_state *L, const char *chunk) {
  static const char *const targets[] = { "c", "ptx", "amdgcn", "expect", "nope" };
  unsigned op = (unsigned char)chunk[0] % 8;
  int s;
  if (op < 3) s = lyt_dostring(L, chunk + (chunk[0] != 0), "fuzz");
  else if (op < 6) s = lyt_doline(L, chunk + (chunk[0] != 0), "fuzz");
  else s = lyt_emit(L, targets[(unsigned char)chunk[0] / 8 % 5], NULL);
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
  lyt_state *L = lyt_open(&c);
  if (L) {
    for (size_t i = 0; i <= size; i += strlen(text + i) + 1) run(L, text + i);
    lyt_close(L);
  }
  free(text);
  return 0;
}
