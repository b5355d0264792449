/*
** fuzz_eval.c: libFuzzer target for the whole pipeline: arbitrary bytes
** as lyt source through lexer, parser and evaluator. Any outcome but a
** crash, a sanitizer report, a leak or an internal error is acceptable;
** limits are lowered so that slow inputs end quickly with an error.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lyt.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = fuzz_text(data, size);
  if (!src) return 0;
  lyt_config c;
  lyt_config_init(&c);
  c.max_steps = 200000;
  c.no_file_writes = 1;  /* a fuzzed svg() must not write where the input says */
  c.mem_limit = 64u << 20;
  c.stdlib_path = LYT_STDLIB_DIR;  /* imports of triton.lyt reach the GF(2) code */
  lyt_state *L = lyt_open(&c);
  if (L) {
    /* an internal error is a bug (a template unlike its line, in the
    ** fuzzers' build, interp/eval/template.c) */
    if (lyt_dostring(L, src, "fuzz") != LYT_OK && strstr(lyt_diagnostic(L), "internal error"))
      abort();
    lyt_close(L);
  }
  free(src);
  return 0;
}
