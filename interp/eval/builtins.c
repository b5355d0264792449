/*
** eval/builtins.c: the builtins that are not layout algebra: introspection,
** small integer helpers, assertions and help.
*/
#include <string.h>

#include "interp/eval/state.h"

static lyt_value b_type(lytI_call *c) {
  return lytI_str(c, lytI_kindname(c->argv[0].kind));
}

static lyt_value b_str(lytI_call *c) {
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  if (c->argv[0].kind == LYT_VSTR) return c->argv[0];
  lytI_print_value(&b, &c->argv[0]);
  return lytI_str(c, b.p);
}

static lyt_value b_len(lytI_call *c) {
  const lyt_value *v = &c->argv[0];
  if (v->kind == LYT_VTUP || v->kind == LYT_VTILER) return lytI_int(v->u.tup.n);
  if (v->kind == LYT_VSTR) return lytI_int(v->u.str.len);
  if (v->kind == LYT_VRECORD) return lytI_int(v->u.rec.n);
  lytI_argerr(c, 0, "len: needs a tuple, tiler, string or record, got %s", lytI_kindname(v->kind));
}

#define LYT_MAX_RANGE (1 << 20)  /* a tuple is not an array library */

/* range(stop), range(start, stop[, step]): Python's, as a tuple. */
static lyt_value b_range(lytI_call *c) {
  int two = !lytI_isnil(c, 1);
  int64_t a = two ? lytI_getint(c, 0) : 0, b = two ? lytI_getint(c, 1) : lytI_getint(c, 0);
  int64_t st = lytI_isnil(c, 2) ? 1 : lytI_getint(c, 2);
  if (st == 0) lytI_argerr(c, 2, "range: the step must not be 0");
  /* the count, in unsigned arithmetic: the span of two int64s fits */
  uint64_t span = st > 0 ? (b > a ? (uint64_t)b - (uint64_t)a : 0) : (a > b ? (uint64_t)a - (uint64_t)b : 0);
  uint64_t mag = st > 0 ? (uint64_t)st : (uint64_t)0 - (uint64_t)st, n = span ? (span - 1) / mag + 1 : 0;
  if (n > LYT_MAX_RANGE)
    lytI_callerr(c, "range: %llu elements, at most %d", (unsigned long long)n, LYT_MAX_RANGE);
  lyt_value t = lytI_tuple(c, (int32_t)n);
  for (int32_t i = 0; i < (int32_t)n; i++) t.u.tup.e[i] = lytI_int(a + (int64_t)i * st);
  return t;
}

static lyt_value b_min(lytI_call *c) {
  int64_t a = lytI_getint(c, 0), b = lytI_getint(c, 1);
  return lytI_int(a < b ? a : b);
}

static lyt_value b_max(lytI_call *c) {
  int64_t a = lytI_getint(c, 0), b = lytI_getint(c, 1);
  return lytI_int(a > b ? a : b);
}

static lyt_value b_abs(lytI_call *c) {
  int64_t a = lytI_getint(c, 0);
  if (a == INT64_MIN) lytI_argerr(c, 0, "abs: integer overflow");
  return lytI_int(a < 0 ? -a : a);
}

static lyt_value b_assert(lytI_call *c) {
  const lyt_value *v = &c->argv[0];
  if (v->kind != LYT_VBOOL)
    lytI_argerr(c, 0, "assert: condition must be true or false, got %s", lytI_kindname(v->kind));
  if (v->u.i) return lytI_nil();
  if (c->argv[1].kind == LYT_VSTR) lytI_callerr(c, "assertion failed: %s", c->argv[1].u.str.s);
  lytI_callerr(c, "assertion failed");
}

static lyt_value b_error(lytI_call *c) {
  if (c->argv[0].kind != LYT_VSTR)
    lytI_argerr(c, 0, "error: message must be a string, got %s", lytI_kindname(c->argv[0].kind));
  if (!c->argv[0].u.str.s[0]) lytI_callerr(c, "error() with an empty message");  /* never a silent failure */
  lytI_callerr(c, "%s", c->argv[0].u.str.s);
}

const lytI_builtin lytI_core_lib[] = {
  { "type", b_type, 1, 0, { "x" }, "the kind of a value, as a string",
    "type((4,2):(1,4))" },
  { "str", b_str, 1, 0, { "x" }, "the printed form of a value",
    "str((4,(2,3)):(2,(1,8))) + \"!\"" },
  { "len", b_len, 1, 0, { "x" }, "number of elements of a tuple, tiler or string, or fields of a record",
    "len((4,2,3))" },
  { "range", b_range, 1, 0, { "start", "stop", "step" }, "range(n) is the tuple (0, 1, ..., n-1), range(a, b, step=1) (a, a+step, ...) up to b, not included (Python's range; at most 2^20 elements)",
    "range(2, 10, 3)" },
  { "min", b_min, 2, 0, { "a", "b" }, "the smaller integer",
    "min(3, -2)" },
  { "max", b_max, 2, 0, { "a", "b" }, "the larger integer",
    "max(3, -2)" },
  { "abs", b_abs, 1, 0, { "a" }, "absolute value",
    "abs(-5)" },
  { "assert", b_assert, 1, 0, { "cond", "message" }, "error unless cond is true",
    "assert(size((4,2):(1,4)) == 8, \"a 4x2 layout has 8 elements\")" },
  { "error", b_error, 1, 0, { "message" }, "raise an error",
    "if size(4:1) == 4 then \"fine\" else error(\"size(4:1) must be 4\")" },
  { "help", lytI_help, 0, 0, { "name" }, "help() lists the builtins and the stdlib's functions by family; help(name) or help(f) describes one: signature, what it does, an example",
    "help(\"composition\")" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};
