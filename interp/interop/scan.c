/*
** interop/scan.c: the scanner the interop readers share, and the guard
** that moves a core failure to the argument it came from (interop/interop.h).
**
** Texts come from other tools, so every message says where the reader
** stopped: the character index (0-based, as Python slices count) and the
** text that follows, cut at a line end so the diagnostic stays one line.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "interp/interop/interop.h"

#define SNIPPET 24  /* characters of the text shown after the position */

void lytI_scan_init(lytI_scan *s, lytI_call *c, int i) {
  const lyt_value *v = &c->argv[i];
  if (v->kind != LYT_VSTR)
    lytI_argerr(c, i, "%s: '%s' must be a string, got %s", c->self->name, c->self->params[i],
                lytI_kindname(v->kind));
  if (memchr(v->u.str.s, 0, (size_t)v->u.str.len))
    lytI_argerr(c, i, "%s: the text holds a NUL byte", c->self->name);
  s->c = c;
  s->argi = i;
  s->text = s->p = v->u.str.s;
  s->end = v->u.str.s + v->u.str.len;
}

void lytI_scan_fail(lytI_scan *s, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int n = 0;
  while (n < SNIPPET && s->p + n < s->end && s->p[n] != '\n' && s->p[n] != '\r') n++;
  if (s->p >= s->end)
    lytI_argerr(s->c, s->argi, "%s: %s (at the end of the text)", s->c->self->name, what);
  lytI_argerr(s->c, s->argi, "%s: %s (at character %d: \"%.*s%s\")", s->c->self->name, what,
              (int)(s->p - s->text), n, s->p, s->p + n < s->end ? "..." : "");
}

void lytI_scan_blanks(lytI_scan *s) {
  while (s->p < s->end && isspace((unsigned char)*s->p)) s->p++;
}

int lytI_scan_peek(lytI_scan *s) {
  lytI_scan_blanks(s);
  return s->p < s->end ? (unsigned char)*s->p : 0;
}

int lytI_scan_eat(lytI_scan *s, const char *lit) {
  size_t n = strlen(lit);
  lytI_scan_blanks(s);
  if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0) return 0;
  s->p += n;
  return 1;
}

void lytI_scan_expect(lytI_scan *s, const char *lit) {
  if (!lytI_scan_eat(s, lit)) lytI_scan_fail(s, "expected '%s'", lit);
}

int64_t lytI_scan_int(lytI_scan *s) {
  lytI_scan_blanks(s);
  int neg = s->p < s->end && *s->p == '-';
  if (neg) s->p++;
  if (s->p >= s->end || !isdigit((unsigned char)*s->p)) lytI_scan_fail(s, "expected an integer");
  uint64_t v = 0;
  const char *start = s->p;
  while (s->p < s->end && isdigit((unsigned char)*s->p)) {
    v = v * 10 + (uint64_t)(*s->p++ - '0');
    if (v > (uint64_t)INT64_MAX) {
      s->p = start;
      lytI_scan_fail(s, "the integer does not fit in 64 bits");
    }
  }
  if (s->p < s->end && (isalpha((unsigned char)*s->p) || *s->p == '.' || *s->p == '_'))
    lytI_scan_fail(s, "expected an integer, got more after its digits");
  return neg ? -(int64_t)v : (int64_t)v;
}

static int ident_char(int ch, int first) {
  return isalpha(ch) || ch == '_' || (!first && (isdigit(ch) || ch == '.'));
}

const char *lytI_scan_ident(lytI_scan *s) {
  lytI_scan_blanks(s);
  const char *b = s->p;
  while (s->p < s->end && ident_char((unsigned char)*s->p, s->p == b)) s->p++;
  if (s->p == b) lytI_scan_fail(s, "expected a name");
  return lytI_intern(s->c->L, b, (size_t)(s->p - b));
}

void lytI_scan_end(lytI_scan *s) {
  lytI_scan_blanks(s);
  if (s->p < s->end) lytI_scan_fail(s, "unexpected text after the end");
}

int32_t lytI_scan_ints(lytI_scan *s, int64_t *out, int32_t max) {
  int32_t n = 0;
  lytI_scan_expect(s, "[");
  if (lytI_scan_eat(s, "]")) return 0;
  do {
    if (n == max) lytI_scan_fail(s, "more than %d entries", (int)max);
    out[n++] = lytI_scan_int(s);
  } while (lytI_scan_eat(s, ","));
  lytI_scan_expect(s, "]");
  return n;
}

/* ---------------------------------------------------------------------
** The guard
** ------------------------------------------------------------------- */

void lytI_guard(lytI_call *c, int i, lytI_guarded fn, void *ud) {
  lytS_ctx *cx = lytI_cx(c);
  jmp_buf jb, *outer = cx->jb;
  if (setjmp(jb)) {
    cx->jb = outer;
    size_t n = strlen(c->self->name);
    int ours = strncmp(cx->msg, c->self->name, n) == 0 && cx->msg[n] == ':';
    if ((cx->code == LYT_ERRRUN || cx->code == LYT_ERRSYNTAX) && !ours) {
      char msg[LYT_MSG_MAX];
      memcpy(msg, cx->msg, sizeof msg);
      lytI_argerr(c, i, "%s: %s", c->self->name, msg);
    }
    longjmp(*outer, 1);
  }
  cx->jb = &jb;
  fn(cx, ud);
  cx->jb = outer;
}
