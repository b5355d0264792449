/*
** base/context.c: the shared error escape, allocation and checked arithmetic
** of the numeric cores.
*/
#include "interp/base/context.h"

#include <stdio.h>
#include <string.h>

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

void lytS_stack_fail(lytS_ctx *cx) {
  lytS_fail(cx, LYT_ERRLIMIT, "nesting too deep: more than %zu KiB of C stack (the state's "
            "max_stack)", cx->stack_limit >> 10);
}

void *lytS_dup(lytS_ctx *cx, const void *p, size_t n) {
  if (!p) return NULL;
  void *q = lytS_alloc(cx, n);
  memcpy(q, p, n);
  return q;
}

void lytS_fail_alloc(lytS_ctx *cx, const lytA_arena *a) {
  if (a->refused == LYTA_LIMIT && a->limit)  /* the caps, not the host */
    lytS_fail(cx, LYT_ERRLIMIT, "memory limit reached: a statement may use %zu MiB (a very "
              "deep or exponential computation?)", a->limit >> 20);
  if (a->refused == LYTA_BUDGET)
    lytS_fail(cx, LYT_ERRLIMIT, "out of memory budget: the state may hold %zu MiB (max_memory)",
              a->budget->limit >> 20);
  lytS_fail(cx, LYT_ERRMEM, "out of memory");
}

void lytS_overflow(lytS_ctx *cx, char op, int64_t a, int64_t b) {
  lytS_fail(cx, LYT_ERRRUN, "integer overflow in %lld %c %lld", (long long)a, op, (long long)b);
}

int lytS_is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int64_t lytS_gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

int32_t lytS_ceil_log2(int64_t v) {
  int32_t k = 0;
  while (k < 62 && (INT64_C(1) << k) < v) k++;
  return k;
}

void *lytS_grow(lytS_ctx *cx, void *p, int32_t n, int32_t *cap, size_t size, int32_t first) {
  if (n < *cap) return p;
  int32_t c = *cap ? 2 * *cap : first;
  void *q = lytS_alloc(cx, size * (size_t)c);
  if (n) memcpy(q, p, size * (size_t)n);
  *cap = c;
  return q;
}
