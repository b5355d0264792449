/*
** fuzz.h: what the libFuzzer targets share. Included by exactly one file
** per target.
**   - the input as a NUL-terminated string (the source-text targets);
**   - the input as a stream of bytes that picks random operands, 0 when
**     used up (the core targets);
**   - a core context over a capped arena whose lytS_fail ends the run
**     cleanly: run_core(data, size, check) calls check(cx, bytes) and
**     treats a core error as a fine outcome (only a broken invariant,
**     which calls abort(), is a finding).
*/
#ifndef LYT_FUZZ_H
#define LYT_FUZZ_H

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interp/base/context.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a string; NULL without memory (the caller frees). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return NULL;
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

typedef struct bytes { const uint8_t *p; size_t n; } bytes;
static inline unsigned take(bytes *b) {
  if (!b->n) return 0;
  b->n--;
  return *b->p++;
}

static inline int run_core(const uint8_t *data, size_t size, size_t limit,
                    void (*check)(lytS_ctx *cx, bytes *b)) {
  bytes b = { data, size };
  lytA_arena a;
  jmp_buf jb;
  lytS_ctx cx;
  lytA_init(&a, NULL, NULL, limit);
  memset(&cx, 0, sizeof cx);
  cx.arena = &a, cx.jb = &jb;
  if (setjmp(jb) == 0) check(&cx, &b);
  lytA_free(&a);
  return 0;
}

#endif
