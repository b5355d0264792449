/*
** stride/cute_read.c: read CuTe's printed notation back into core values
** (stride core, lytS_).
**
** Accepts what CuTe and lyt print: "(4,(2,3)):(2,(1,8))", "8:1", "(3)",
** "()", "_" and basis strides "1@0@1" (innermost index first, as CuTe
** prints E<1,0>). Static markers ("_8", "_-1") and blanks are skipped, so
** text pasted from a C++ program reads as is. A layout without ":stride"
** is LayoutLeft. Used by the unit tests today; an import feature later.
*/
#include "interp/stride/layout.h"

#include <ctype.h>

typedef struct reader { lytS_ctx *cx; const char *p, *text; } reader;

static void blanks(reader *r) {
  while (isspace((unsigned char)*r->p)) r->p++;
}

static _Noreturn void bad(reader *r, const char *what) {
  lytS_fail(r->cx, LYT_ERRSYNTAX, "CuTe text \"%s\": %s at offset %d", r->text, what,
            (int)(r->p - r->text));
}

static int64_t number(reader *r) {
  int neg = 0;
  if (*r->p == '-') { neg = 1; r->p++; }
  if (!isdigit((unsigned char)*r->p)) bad(r, "expected a number");
  int64_t v = 0;
  while (isdigit((unsigned char)*r->p)) {
    v = lytS_add(r->cx, lytS_mul(r->cx, v, 10), *r->p - '0');
    r->p++;
  }
  return neg ? -v : v;
}

/* int, or scale@i@j... (path printed innermost first) */
static lytS_tup *leaf(reader *r) {
  int64_t v = number(r);
  uint8_t tmp[LYT_BASIS_MAX], path[LYT_BASIS_MAX];
  int n = 0;
  while (*r->p == '@') {
    r->p++;
    if (n == LYT_BASIS_MAX) bad(r, "basis nested too deep");
    int64_t k = number(r);
    if (k < 0 || k > 255) bad(r, "bad basis index");
    tmp[n++] = (uint8_t)k;
  }
  if (n == 0) return lytS_int(r->cx, v);
  for (int i = 0; i < n; i++) path[i] = tmp[n - 1 - i];
  return lytS_basis(r->cx, v, path, n);
}

static lytS_tup *tuple(reader *r, int depth);

static lytS_tup *elements(reader *r, int depth) {
  lytS_tup *items[256];
  int32_t n = 0;
  r->p++;  /* '(' */
  blanks(r);
  while (*r->p != ')') {
    if (n == 256) bad(r, "tuple too long");
    items[n++] = tuple(r, depth + 1);
    blanks(r);
    if (*r->p == ',') { r->p++; blanks(r); continue; }
    if (*r->p != ')') bad(r, "expected ',' or ')'");
  }
  r->p++;
  lytS_tup *t = lytS_newtup(r->cx, n);
  for (int32_t i = 0; i < n; i++) t->e[i] = items[i];
  return t;
}

static lytS_tup *tuple(reader *r, int depth) {
  blanks(r);
  if (depth > 64) bad(r, "nested too deep");
  if (*r->p == '(') return elements(r, depth);
  if (*r->p == '_') {
    r->p++;
    if (*r->p == '-' || isdigit((unsigned char)*r->p)) return leaf(r);  /* static marker */
    return lytS_under(r->cx);
  }
  return leaf(r);
}

static void at_end(reader *r) {
  blanks(r);
  if (*r->p) bad(r, "unexpected text");
}

lytS_tup *lytS_read_tup(lytS_ctx *cx, const char *text) {
  reader r = { cx, text, text };
  lytS_tup *t = tuple(&r, 0);
  at_end(&r);
  return t;
}

lytS_layout lytS_read_layout(lytS_ctx *cx, const char *text) {
  reader r = { cx, text, text };
  lytS_tup *s = tuple(&r, 0);
  blanks(&r);
  if (*r.p != ':') {
    at_end(&r);
    return lytS_make_left(cx, s);
  }
  r.p++;
  lytS_tup *d = tuple(&r, 0);
  at_end(&r);
  return lytS_make_layout(cx, s, d);
}
