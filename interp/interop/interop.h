/*
** interop/interop.h: what the interop builtins share (interop/builtins.c and the
** interop_*.c files): a scanner over an argument string whose errors name
** the character they stopped at and point their caret at the argument,
** and a guard that turns a core failure inside an import into an error
** at the argument rather than at the call.
**
** Every reader builds values only through the cores' checking
** constructors (lytS_make_layout, lytG_try_from_bases, lytN_make, ...),
** so an imported value satisfies exactly what one built in lyt does.
*/
#ifndef LYT_INTEROP_H
#define LYT_INTEROP_H

#include "interp/axisinfo/axisinfo.h"
#include "interp/eval/state.h"

#define LYTI_TEXT_MAXLIST 256  /* integers in one bracketed list, entries in one dict */
#define LYTI_TEXT_DEPTH 64     /* nesting of tuples, JSON arrays and objects */

typedef struct lytI_scan {
  lytI_call *c;       /* errors go to argument argi of this call */
  int argi;
  const char *text;   /* the argument string (not NUL-safe: end bounds it) */
  const char *p;      /* next character */
  const char *end;
} lytI_scan;

/* The string argument i; fails unless it is a string without NUL bytes. */
void lytI_scan_init(lytI_scan *s, lytI_call *c, int i);
/* "<builtin>: <what> (at character N: "<next text>")", caret at the argument. */
_Noreturn void lytI_scan_fail(lytI_scan *s, const char *fmt, ...) LYT_PRINTF(2, 3);
void lytI_scan_blanks(lytI_scan *s);
int lytI_scan_peek(lytI_scan *s);                 /* next non-blank char, or 0 at the end */
int lytI_scan_eat(lytI_scan *s, const char *lit); /* skips blanks; 1 and consumed if lit is next */
void lytI_scan_expect(lytI_scan *s, const char *lit);
int64_t lytI_scan_int(lytI_scan *s);              /* [-]digits, overflow is an error */
/* An identifier [A-Za-z_][A-Za-z0-9_.]*, interned; fails unless one is next. */
const char *lytI_scan_ident(lytI_scan *s);
void lytI_scan_end(lytI_scan *s);                 /* only blanks may follow */
/* "[a, b, ...]" into out (at most max); returns the count. */
int32_t lytI_scan_ints(lytI_scan *s, int64_t *out, int32_t max);

/* Runs fn(cx, ud); a LYT_ERRRUN or LYT_ERRSYNTAX failure inside comes out
** as a run error "<builtin>: <message>" at argument i. Memory and limit
** failures, and errors the builtin's own scanner raised inside fn (they
** already name the builtin and point at the argument), pass through. */
typedef void (*lytI_guarded)(lytS_ctx *cx, void *ud);
void lytI_guard(lytI_call *c, int i, lytI_guarded fn, void *ud);

/* interop/triton.c */
lyt_value lytI_to_triton(lytI_call *c);
lyt_value lytI_from_triton(lytI_call *c);
/* Whether from_triton reads the attribute named by the n bytes at name
** ("ttg.blocked", "ttg.shared_memory", ...: what follows the '#'). */
int lytI_triton_reads(const char *name, size_t n);
/* interop/ttgir.c */
lyt_value lytI_explain(lytI_call *c);
/* Calls fn on every op of explain's record in line order; list names the
** record's list it is from ("conversions", "memory", "global", "unknown"). */
typedef void (*lytI_explain_fn)(void *ud, const char *list, const lyt_value *e);
void lytI_explain_each(const lyt_value *r, lytI_explain_fn fn, void *ud);
/* A module attribute's number (num_warps, ...) in tmp, or "?" where the
** module does not give it. */
const char *lytI_explain_count(const lyt_value *m, const char *name, char *tmp, size_t n);
/* interop/ttgir_axis.c: Triton's AxisInfo facts of the pointer and mask
** of every tt.load and tt.store of a module's text (axisinfo/rules.c). */
typedef struct lytI_gaccess {
  int32_t line;        /* 1-based */
  int store;           /* tt.store or an async copy (mask third), else tt.load */
  lytV_info ptr;       /* divisibility in bytes, as Triton's pointers */
  lytV_info mask;
  int has_mask;
  int exact;           /* every value on the way was modelled as Triton does */
  int64_t elem_bits;   /* the pointee's */
  int64_t hint;        /* an async copy's {contiguity = N}, else 0 */
} lytI_gaccess;
int32_t lytI_ttgir_axis(lyt_state *L, const lytL_src *src, lytI_gaccess **out);
/* The bits of a type's element as shared memory holds it (i1 as 8,
** pointers as 64), from "tensor<64x64xf16, ...>" or a scalar type. */
int64_t lytI_elem_bits(const char *p, const char *e);
/* interop/ttgir_html.c: explain's record as one self-contained HTML page,
** its layouts drawn (picture/svg.c). */
void lytI_explain_html(lyt_state *L, lytS_buf *b, const lyt_value *r, lyt_loc at);
/* interop/cute.c */
lyt_value lytI_to_cute(lytI_call *c);
lyt_value lytI_from_cute(lytI_call *c);
/* interop/json.c */
lyt_value lytI_to_json(lytI_call *c);
lyt_value lytI_from_json(lytI_call *c);
/* The JSON form of each kind that has one (interp/kinds.c names these). */
void lytI_json_nil(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_bool(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_int(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_str(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_tuple(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_record(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_layout(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_composed(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_linear(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_axe(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
void lytI_json_nested(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);

extern const lytI_builtin lytI_interop_lib[];

#endif
