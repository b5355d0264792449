/*
** harness.h: the shared harness of the core unit tests: one arena and
** context, a pass/fail count, and EXPECT macros that turn a core failure
** (lytS_fail) into the text "error: msg" so results compare as strings.
** Included by exactly one file per test program.
*/
#ifndef LYT_TEST_HARNESS_H
#define LYT_TEST_HARNESS_H

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "interp/base/context.h"

static lytA_arena arena;
static lytS_ctx cx;
static jmp_buf jb;
static int npass, nfail;

static void check(const char *name, const char *got, const char *want) {
  if (strcmp(got, want) == 0) { npass++; return; }
  nfail++;
  printf("FAIL %s: got %s expected %s\n", name, got, want);
}

static const char *errtext(void) {
  static char buf[LYT_MSG_MAX + 8];
  snprintf(buf, sizeof buf, "error: %s", cx.msg);
  return buf;
}

/* Evaluate a string-valued expression; an lytS_fail becomes "error: msg". */
#define EXPECT(name, expr, want)                      \
  do {                                                \
    const char *volatile got_ = NULL;                 \
    if (setjmp(jb) == 0) got_ = (expr);               \
    else got_ = errtext();                            \
    check(name, got_, want);                          \
  } while (0)

/* Expect a failure whose message contains `part`. */
#define EXPECT_ERR(name, expr, part)                                    \
  do {                                                                  \
    if (setjmp(jb) == 0) {                                              \
      const char *r_ = (expr);                                          \
      check(name, r_, "an error mentioning: " part);                    \
    } else if (strstr(cx.msg, part)) {                                  \
      npass++;                                                          \
    } else {                                                            \
      check(name, errtext(), "an error mentioning: " part);             \
    }                                                                   \
  } while (0)

#endif
