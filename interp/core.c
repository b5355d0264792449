/*
** core.c: the shared error escape, allocation and checked arithmetic
** of the numeric cores.
*/
#include "core.h"

#include <stdio.h>

void lytS_vfail(lytS_ctx *cx, int code, const char *fmt, va_list ap) {
  cx->code = code;
  vsnprintf(cx->msg, sizeof cx->msg, fmt, ap);
  longjmp(*cx->jb, 1);
}

void lytS_fail(lytS_ctx *cx, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lytS_vfail(cx, code, fmt, ap);
}

void *lytS_alloc(lytS_ctx *cx, size_t n) {
  void *p = lytA_alloc(cx->arena, n);
  if (!p) lytS_fail(cx, LYT_ERRMEM, "out of memory");
  return p;
}

int64_t lytS_add(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    lytS_fail(cx, LYT_ERRRUN, "integer overflow in %lld + %lld",
              (long long)a, (long long)b);
  return r;
}

int64_t lytS_sub(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    lytS_fail(cx, LYT_ERRRUN, "integer overflow in %lld - %lld",
              (long long)a, (long long)b);
  return r;
}

int64_t lytS_mul(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    lytS_fail(cx, LYT_ERRRUN, "integer overflow in %lld * %lld",
              (long long)a, (long long)b);
  return r;
}
