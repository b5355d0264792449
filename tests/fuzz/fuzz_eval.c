/*
** fuzz_eval.c: libFuzzer target for the whole pipeline: arbitrary bytes
** as lyt source through lexer, parser and evaluator, run twice, with
** templates (lines that differ only in their numbers sharing code,
** interp/eval/template.c) and without: both runs must print the same and
** end in the same status and diagnostic. Any outcome but a crash, a
** sanitizer report, a leak or such a difference is acceptable; limits are
** lowered so that slow inputs end quickly with an error.
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

#define KEEP (1u << 20)  /* output compared, at most */

typedef struct printed {
  char *p;
  size_t n;
} printed;

static void keep(void *ud, const char *s, size_t n) {
  printed *o = ud;
  if (n > KEEP - o->n) n = KEEP - o->n;
  memcpy(o->p + o->n, s, n);
  o->n += n;
}

/* The run's status, with what it printed and its diagnostic in *o. */
static int run(const char *src, int templates, printed *o) {
  lyt_config c;
  lyt_config_init(&c);
  c.max_steps = 200000;
  c.no_file_writes = 1;  /* a fuzzed svg() must not write where the input says */
  c.mem_limit = 64u << 20;
  c.stdlib_path = LYT_STDLIB_DIR;  /* imports of triton.lyt reach the GF(2) code */
  c.write = keep;
  c.write_ud = o;
  if (!templates) c.template_memory = 0;
  lyt_state *L = lyt_open(&c);
  if (!L) return -1;
  int st = lyt_dostring(L, src, "fuzz");
  const char *d = lyt_diagnostic(L);
  keep(o, d, strlen(d));
  lyt_close(L);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = fuzz_text(data, size);
  printed a = { malloc(KEEP), 0 }, b = { malloc(KEEP), 0 };
  if (src && a.p && b.p) {
    int sa = run(src, 1, &a), sb = run(src, 0, &b);
    if (sa >= 0 && sb >= 0 && (sa != sb || a.n != b.n || memcmp(a.p, b.p, a.n) != 0)) {
      fprintf(stderr, "with templates and without, the runs differ:\n%.*s\n---\n%.*s\n",
              (int)a.n, a.p, (int)b.n, b.p);
      abort();
    }
  }
  free(a.p);
  free(b.p);
  free(src);
  return 0;
}
