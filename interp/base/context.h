/*
** base/context.h: what every numeric core shares: an allocation context and
** error escape.
**
** The cores (stride, GF(2), axis-tagged iters) know nothing of the AST
** or of interpreter values; a compiler may link them alone. A core
** operation either returns its result or leaves through lytS_fail(),
** which records a message and longjmps to the caller's protected entry.
** Results live in the context's arena, so an unwinding error leaks
** nothing.
*/
#ifndef LYT_CORE_H
#define LYT_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>

#include "interp/base/arena.h"
#include "interp/base/status.h"

#define LYT_MSG_MAX 512

typedef struct lytS_ctx {
  lytA_arena *arena;      /* results are allocated here */
  jmp_buf *jb;            /* lytS_fail() jumps here; must be set */
  int code;               /* LYT_ERR* of the last failure */
  char msg[LYT_MSG_MAX];  /* its message, without location */
  uintptr_t stack_base;   /* an address in the outermost entry's frame; 0: unchecked */
  size_t stack_limit;     /* bytes of C stack recursion may use below it */
} lytS_ctx;

#if defined(__GNUC__) || defined(__clang__)
#define LYT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LYT_PRINTF(f, a)
#endif

_Noreturn void lytS_fail(lytS_ctx *cx, int code, const char *fmt, ...)
    LYT_PRINTF(3, 4);
_Noreturn void lytS_vfail(lytS_ctx *cx, int code, const char *fmt, va_list ap);
void *lytS_dup(lytS_ctx *cx, const void *p, size_t n);  /* a copy of n bytes; NULL stays NULL */
/* An arena array with room for one more: p holds n of *cap elements of
** size bytes; when it is full the elements move to a block twice as large
** (first: the capacity of the first block). Returns the array. */
void *lytS_grow(lytS_ctx *cx, void *p, int32_t n, int32_t *cap, size_t size, int32_t first);
/* The failure of an allocation from a that returned NULL: a statement's
** cap or the state's budget (LYT_ERRLIMIT), or the host (LYT_ERRMEM). */
_Noreturn void lytS_fail_alloc(lytS_ctx *cx, const lytA_arena *a);

/* n bytes from arena a, or from cx's own: never NULL, fails instead. */
static inline void *lytS_alloc_in(lytS_ctx *cx, lytA_arena *a, size_t n) {
  void *p = lytA_alloc(a, n);
  if (!p) lytS_fail_alloc(cx, a);
  return p;
}

static inline void *lytS_alloc(lytS_ctx *cx, size_t n) { return lytS_alloc_in(cx, cx->arena, n); }

_Noreturn void lytS_stack_fail(lytS_ctx *cx);  /* lytS_check_stack's error */

/* Whether lytS_check_stack would fail. Inline: every level of compiling
** and evaluating asks. */
static inline int lytS_stack_deep(const lytS_ctx *cx) {
  char here;
  uintptr_t p = (uintptr_t)&here, b = cx->stack_base;
  return b && (b > p ? b - p : p - b) > cx->stack_limit;
}

/* Every recursion whose depth input controls calls this at each level: past
** stack_limit bytes below stack_base it fails (LYT_ERRLIMIT) instead of
** running off the end of a host thread's stack. Bytes, not levels, so the
** limit holds whatever a build's frames weigh (ASan's are several times
** larger). */
static inline void lytS_check_stack(lytS_ctx *cx) {
  if (lytS_stack_deep(cx)) lytS_stack_fail(cx);
}

/* Checked 64-bit arithmetic: every overflow is an error, never a wrap.
** Inline, since the layout algebra's inner loops are made of them; op is
** the operator's character, for the message. */
_Noreturn void lytS_overflow(lytS_ctx *cx, char op, int64_t a, int64_t b);

static inline int64_t lytS_add(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) lytS_overflow(cx, '+', a, b);
  return r;
}

static inline int64_t lytS_sub(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) lytS_overflow(cx, '-', a, b);
  return r;
}

static inline int64_t lytS_mul(lytS_ctx *cx, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) lytS_overflow(cx, '*', a, b);
  return r;
}

/* Powers of two, which GF(2) layouts, tiles and vectors are made of. */
int lytS_is_pow2(int64_t v);       /* v > 0 and a power of two */
int32_t lytS_ceil_log2(int64_t v); /* the least k with 2^k >= v (0 for v <= 1) */
int64_t lytS_gcd(int64_t a, int64_t b);  /* non-negative; gcd(0, b) = |b| */

#endif
