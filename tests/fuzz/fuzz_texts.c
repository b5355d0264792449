/*
** fuzz_texts.c: libFuzzer target for every reader of outside text. The
** first byte picks the reader (from_json, from_triton, from_cute,
** from_iree, explain of a TTGIR module); the rest of the input is the text, handed over as a string
** value, so that no lyt quoting stands between the bytes and the reader.
** When the reader accepts the text, its result is written back in the
** same notation and read again: the second reading must succeed and give
** an equal value (a round trip that fails is a finding, as is a crash, a
** sanitizer report, a leak or an error without a located message).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lyt.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

static void sink(void *ud, const char *s, size_t n) { (void)ud, (void)s, (void)n; }

/* Reader, and the round trip of what it read (nil: none is checked).
** Triton's is checked on the written text, which is canonical: a CGA
** record read from older keys may differ from the one read back where the
** bases do not pin it (docs/language.md), but the text may not. CuTe's
** round trip goes through its printed form, which covers every
** layout from_cute reads; to_cute's C++ form refuses some of them (basis
** strides) with a located error. */
static const char *const readers[][2] = {
  { "x = from_json(t)", "r = (from_json(to_json(x)) == x)" },
  { "x = from_triton(t)", "y = to_triton(x)\nr = (to_triton(from_triton(y)) == y)" },
  { "x = from_cute(t)", "r = (from_cute(str(x)) == x)" },
  { "x = from_iree(t)", "r = (from_iree(to_iree(x)) == x)" },
  { "x = from_iree(t, subgroup_size=64)", "r = nil" },
  { "x = explain(t, \"m.ttgir\", \"json\")", "r = nil" },
  { "x = explain(t, \"m.ttgir\", \"html\")", "r = nil" },
};

static void located(lyt_state *L) {
  int line = 0;
  const char *msg = lyt_error(L, NULL, &line, NULL);
  if (!msg[0] || line <= 0) {
    fprintf(stderr, "unlocated error: %s\n", lyt_diagnostic(L));
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *text = fuzz_text(data + 1, size - 1);
  if (!text) return 0;
  const char *const *rd = readers[data[0] % (sizeof readers / sizeof *readers)];
  lyt_config c;
  lyt_config_init(&c);
  c.write = sink;
  c.max_steps = 200000;
  c.mem_limit = 64u << 20;
  c.no_file_writes = 1;
  c.stdlib_path = LYT_STDLIB_DIR;
  lyt_state *L = lyt_open(&c);
  if (L) {
    if (lyt_push_string(L, text) != LYT_OK || lyt_setglobal(L, "t") != LYT_OK) abort();
    if (lyt_dostring(L, rd[0], "texts") != LYT_OK) located(L);
    else if (lyt_dostring(L, rd[1], "texts") != LYT_OK) {
      /* A value that was read but cannot be written back is fine only
         when it has no such notation (a blocked record read by
         from_triton that to_triton refuses would not be). */
      fprintf(stderr, "round trip failed: %s\n", lyt_diagnostic(L));
      abort();
    } else {
      int r = 1;
      if (lyt_getglobal(L, "r") != LYT_OK) abort();
      if (lyt_type(L, -1) == LYT_TBOOL && (lyt_to_bool(L, -1, &r), !r)) {
        fprintf(stderr, "round trip changed the value\n");
        abort();
      }
    }
    lyt_close(L);
  }
  free(text);
  return 0;
}
