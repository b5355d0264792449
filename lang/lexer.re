/*
** lexer.re: the tokenizer, generated into C by re2c.
**
** The input is NUL-terminated, so the end is a rule of its own and no
** refill is needed (ninja's shape). Newlines separate statements except
** inside ( ) and [ ], where a layout or a call may span lines; that is
** what makes multi-line REPL input and long tilers natural. Integers
** are checked for 64-bit overflow here, the one place they are read.
** The rules are written once, in tokens.re, for two automata: lytL_lex
** makes tokens; lytL_probe only tells their types, for the pass that
** checks a whole script before any of it runs.
*/
#include <stdint.h>
#include <string.h>

#include "lang/parse.h"
#include "parser.h"

static lyt_loc here(lytP_ctx *p, const char *at) {
  lyt_loc l = { p->src, p->line, (int32_t)(at - p->linestart) + 1 };
  return l;
}

/* An identifier a script can write: a name, not a keyword. */
int lytL_is_name(const char *s) {
  const char *YYCURSOR = s;
#define KEYWORD(k) return 0
  /*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:yyfill:enable = 0;
    re2c:flags:utf-8 = 0;

    !include "keywords.re";
    [a-zA-Z_][a-zA-Z0-9_]* { return *YYCURSOR == 0; }
    * { return 0; }
  */
#undef KEYWORD
}

/* Value of a decimal, 0x or 0b literal; -1 on overflow. Eighteen decimal
** digits cannot overflow, so the common literal skips the test. */
static int64_t number(const char *s, const char *e) {
  int prefixed = e - s > 2 && s[0] == '0' && ((s[1] | 0x20) == 'x' || (s[1] | 0x20) == 'b');
  if (!prefixed && e - s <= LYTL_SAFE_DIGITS) {
    int64_t v = 0;
    for (; s < e; s++) v = v * 10 + (*s - '0');
    return v;
  }
  int base = !prefixed ? 10 : (s[1] | 0x20) == 'x' ? 16 : 2;
  if (prefixed) s += 2;
  uint64_t v = 0;
  for (; s < e; s++) {
    int d = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;
    if (v > (uint64_t)(INT64_MAX - d) / (uint64_t)base) return -1;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  return (int64_t)v;
}

/* Room for a token's text. Texts outlive their statement (a value, an
** alias may hold one), so with p->keep set they go there, as names go in
** the interned table. */
static char *text_alloc(lytP_ctx *p, size_t n) {
  return lytS_alloc_in(p->cx, p->keep ? p->keep : p->cx->arena, n);
}

/* Decode the escapes of a string literal body into the arena. */
static void string(lytP_ctx *p, lytP_token *t, const char *s, const char *e) {
  char *out = text_alloc(p, (size_t)(e - s) + 1), *o = out;
  for (; s < e; s++) {
    if (*s != '\\') { *o++ = *s; continue; }
    switch (*++s) {
      case 'n': *o++ = '\n'; break;
      case 't': *o++ = '\t'; break;
      default: *o++ = *s; break;  /* \\ and \" */
    }
  }
  *o = 0;
  t->s = out;
  t->len = (int32_t)(o - out);
}

/* MLIR text pasted into a script: "#ttg.slice<{...}>", "#iree_vector_ext.
** nested_layout<...>", "tensor<64x64xf16, #blocked>" and "!ttg.memdesc<...>"
** are attribute literals (TK_ATTR), and "#blocked = #ttg.blocked<...>" an
** alias definition (TK_ALIAS, then the attribute). Any other '#' starts a
** comment, so a comment is never read as an attribute unless it begins
** with one of these dialect prefixes. */
static const char *const dialects[] = { "ttg.", "ttng.", "triton_gpu.", "iree_vector_ext.", "iree_gpu." };

static int dialect_at(const char *s) {
  for (size_t i = 0; i < sizeof dialects / sizeof *dialects; i++)
    if (strncmp(s, dialects[i], strlen(dialects[i])) == 0) return 1;
  return 0;
}

/* "#name = #dialect...": the end of "#name =", or NULL. */
static const char *alias_def(const char *s) {
  const char *e = s + 1;
  if (!lytL_name_char(*e) || (*e >= '0' && *e <= '9')) return NULL;
  while (lytL_name_char(*e)) e++;
  while (*e == ' ' || *e == '\t') e++;
  if (*e != '=') return NULL;
  const char *v = e + 1;
  while (*v == ' ' || *v == '\t') v++;
  return *v == '#' && dialect_at(v + 1) ? e + 1 : NULL;
}

/* The attribute or type at start: a dotted name, then <...> balanced on
** one line. */
static void attr_token(lytP_ctx *p, lytP_token *t, const char *start) {
  const char *e = start + 1;
  while (lytL_name_char(*e) || *e == '.') e++;
  if (*e == '<') {
    int depth = 0;
    for (; *e && *e != '\n'; e++) {
      depth += *e == '<' ? 1 : *e == '>' ? -1 : 0;
      if (depth == 0) break;
    }
    if (depth) {
      lytP_error(p, t->loc, "unterminated attribute: its '<' has no '>' on this line");
      p->cur = e;
      t->type = TK_ATTR;
      t->s = "";
      return;
    }
    e++;
  }
  char *text = text_alloc(p, (size_t)(e - start) + 1);
  memcpy(text, start, (size_t)(e - start));
  text[e - start] = 0;
  p->cur = e;
  t->type = TK_ATTR;
  t->s = text;
  t->len = (int32_t)(e - start);
}

/* CuTe C++ pasted into a script. Static integers (_2, Int<2>{}, C<2>{})
** are integer literals and the major tags (LayoutLeft{}, GenRowMajor{},
** ...) the strings make_layout takes. Layout<...>{}, Swizzle<...>{},
** ComposedLayout<...> and the printed "Sw<B,M,S> o off o shape:stride"
** and "Sw<B,M,S>" are attribute literals (TK_ATTR) that the evaluator reads with
** from_cute. Each must be whole on its line. */
static const char *angle_end(const char *e) {
  int depth = 0;
  for (; *e && *e != '\n'; e++) {
    depth += *e == '<' ? 1 : *e == '>' ? -1 : 0;
    if (depth == 0) return e + 1;
  }
  return NULL;
}

/* One side of a printed layout: "(...)" balanced, or [_][-]digits. */
static const char *side_end(const char *e) {
  if (*e == '(') {
    int depth = 0;
    for (; *e && *e != '\n'; e++) {
      depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
      if (depth == 0) return e + 1;
    }
    return NULL;
  }
  if (*e == '_') e++;
  if (*e == '-') e++;
  if (*e < '0' || *e > '9') return NULL;
  while (*e >= '0' && *e <= '9') e++;
  return e;
}

static void cute_token(lytP_ctx *p, lytP_token *t, const char *start, int printed) {
  const char *e = angle_end(strchr(start, '<'));
  const char *o = e ? e + strspn(e, " \t") : NULL;
  if (o && printed && *o == 'o' && (o[1] == ' ' || o[1] == '\t')) {  /* " o off o " then shape:stride */
    e = side_end(o + 1 + strspn(o + 1, " \t"));
    if (e) e += strspn(e, " \t");
    e = e && *e == 'o' ? e + 1 + strspn(e + 1, " \t") : NULL;
    e = e ? side_end(e) : NULL;
    e = e && *e == ':' ? side_end(e + 1) : NULL;
  } else if (e && e[0] == '{' && e[1] == '}') {
    e += 2;
  }
  if (!e) {
    lytP_error(p, t->loc, printed ? "expected 'Sw<B,M,S> o offset o shape:stride' on one line"
                                  : "unterminated CuTe type: its '<' has no '>' on this line");
    for (e = start; *e && *e != '\n'; e++) {}
  }
  char *text = text_alloc(p, (size_t)(e - start) + 1);
  memcpy(text, start, (size_t)(e - start));
  text[e - start] = 0;
  p->cur = e;
  t->type = TK_ATTR;
  t->s = text;
  t->len = (int32_t)(e - start);
}

/*!rules:re2c:tokens
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYCURSOR = "cur";
  re2c:yyfill:enable = 0;
  re2c:flags:utf-8 = 0;
  !include "tokens.re";
*/

/* The actions of lang/tokens.re's longer rules, for lytL_lex: 1 when t is
** a token, 0 when the scan goes on (a comment, or an error recorded). */
static int end_of_input(lytP_ctx *p, lytP_token *t, const char *start) {
  (void)start;
  if (p->cur - 1 < p->src->text + p->src->len) {
    lytP_error(p, t->loc, "unexpected NUL byte");
    return 0;
  }
  p->cur--;
  t->type = 0;
  return 1;
}

static int hash(lytP_ctx *p, lytP_token *t, const char *start) {
  const char *def = alias_def(start);
  if (def) {
    while (lytL_name_char(start[1 + t->len])) t->len++;
    t->s = p->intern(p->intern_ud, start + 1, (size_t)t->len);
    if (!t->s) lytS_fail(p->cx, LYT_ERRMEM, "out of memory");
    p->cur = def;
    t->type = TK_ALIAS;
    return 1;
  }
  if (!dialect_at(start + 1)) return 0;  /* a comment */
  attr_token(p, t, start);
  return 1;
}

static int attr_at(lytP_ctx *p, lytP_token *t, const char *start) {
  attr_token(p, t, start);
  return 1;
}

/* The value of the digits in [s, e) into t, or an error. */
static int integer(lytP_ctx *p, lytP_token *t, const char *s, const char *e) {
  t->ival = number(s, e);
  if (t->ival < 0) {
    lytP_error(p, t->loc, "integer literal too large for 64 bits");
    t->ival = 0;
  }
  t->type = TK_INT;
  return 1;
}

static int static_int(lytP_ctx *p, lytP_token *t, const char *start) {
  const char *d = start, *e;
  while (*d < '0' || *d > '9') d++;
  for (e = d; *e >= '0' && *e <= '9'; e++) {}
  return integer(p, t, d, e);
}

static int major_tag(lytP_ctx *p, lytP_token *t, const char *start) {
  (void)p;
  const char *d = strncmp(start, "cute::", 6) == 0 ? start + 6 : start;
  t->s = strncmp(d, "LayoutLeft", 10) == 0 || strncmp(d, "GenCol", 6) == 0 ? "LayoutLeft"
                                                                           : "LayoutRight";
  t->len = (int32_t)strlen(t->s);
  t->type = TK_STRING;
  return 1;
}

static int cute_type(lytP_ctx *p, lytP_token *t, const char *start) {
  cute_token(p, t, start, 0);
  return 1;
}

static int printed_swizzle(lytP_ctx *p, lytP_token *t, const char *start) {
  cute_token(p, t, start, 1);
  return 1;
}

static int int_literal(lytP_ctx *p, lytP_token *t, const char *start) {
  return integer(p, t, start, p->cur);
}

static int bad_number(lytP_ctx *p, lytP_token *t, const char *start) {
  lytP_error(p, t->loc, "malformed number '%.*s'", (int)(p->cur - start), start);
  return 0;
}

static int string_literal(lytP_ctx *p, lytP_token *t, const char *start) {
  if (p->probing) t->s = start + 1, t->len = (int32_t)(p->cur - start - 2);
  else string(p, t, start + 1, p->cur - 1);
  t->type = TK_STRING;
  return 1;
}

static int bad_escape(lytP_ctx *p, lytP_token *t, const char *start) {
  (void)t, (void)start;
  lytP_error(p, here(p, p->cur - 2), "unknown escape '\\%c' in string", p->cur[-1]);
  while (*p->cur && *p->cur != '"' && *p->cur != '\n') p->cur++;
  if (*p->cur == '"') p->cur++;
  return 0;
}

static int unterminated_string(lytP_ctx *p, lytP_token *t, const char *start) {
  (void)start;
  lytP_error(p, t->loc, "unterminated string");
  return 0;
}

static int name(lytP_ctx *p, lytP_token *t, const char *start) {
  t->type = TK_NAME;
  t->len = (int32_t)(p->cur - start);
  t->s = p->intern(p->intern_ud, start, (size_t)(p->cur - start));
  if (!t->s) lytS_fail(p->cx, LYT_ERRMEM, "out of memory");
  return 1;
}

static int bad_byte(lytP_ctx *p, lytP_token *t, const char *start) {
  unsigned char c = (unsigned char)start[0];
  if (c >= 0x20 && c < 0x7f)
    lytP_error(p, t->loc, "unexpected character '%c'", c);
  else
    lytP_error(p, t->loc, "unexpected byte 0x%02x", c);
  return 0;
}

/* The automata scan with a local cursor, which the compiler keeps in a
** register; p->cur is set when a token ends or an action needs it. */
void lytL_lex(lytP_ctx *p, lytP_token *t) {
#define TOKEN(k) { p->cur = cur; t->type = (k); return; }
#define KEYWORD(k) TOKEN(k)
#define OPEN(k) { p->depth++; TOKEN(k); }
#define CLOSE(k) { if (p->depth > 0) p->depth--; TOKEN(k); }
#define LONG(fn) { p->cur = cur; if (fn(p, t, start)) return; cur = p->cur; continue; }
#define NEWLINE { p->line++; p->linestart = cur; if (p->depth > 0) continue; TOKEN(TK_NEWLINE); }
#define INTEGER LONG(int_literal)
#define NAME LONG(name)
  const char *YYMARKER, *cur = p->cur;
  memset(t, 0, sizeof *t);
  for (;;) {
    const char *start = cur;
    t->loc = here(p, start);
    /*!use:re2c:tokens */
  }
#undef TOKEN
#undef KEYWORD
#undef OPEN
#undef CLOSE
#undef LONG
#undef NEWLINE
#undef INTEGER
#undef NAME
}

/* The type of the next token alone, for lytP_valid's pass over a whole
** script: the common tokens (names, keywords, decimal integers that
** cannot overflow, punctuation) with no token made, the others made by
** lytL_lex from where they begin. A name's text is t->s, t->len, left in
** the source (the soft keywords `in` and `as` are told by it). */
int lytL_probe(lytP_ctx *p, lytP_token *t) {
#define TOKEN(k) { p->cur = cur; return (k); }
#define KEYWORD(k) TOKEN(k)
#define OPEN(k) { p->depth++; TOKEN(k); }
#define CLOSE(k) { if (p->depth > 0) p->depth--; TOKEN(k); }
#define LONG(fn) goto whole;
#define NEWLINE { p->line++; p->linestart = cur; if (p->depth > 0) continue; TOKEN(TK_NEWLINE); }
#define INTEGER { if ((start[0] != '0' || cur - start == 1) && \
                      cur - start <= LYTL_SAFE_DIGITS) TOKEN(TK_INT); goto whole; }
#define NAME { t->s = start; t->len = (int32_t)(cur - start); TOKEN(TK_NAME); }
  const char *YYMARKER, *cur = p->cur;
  const char *start;
  for (;;) {
    start = cur;
    /*!use:re2c:tokens */
  }
whole:
  p->cur = start;
  lytL_lex(p, t);
  return t->type;
#undef TOKEN
#undef KEYWORD
#undef OPEN
#undef CLOSE
#undef LONG
#undef NEWLINE
#undef INTEGER
#undef NAME
}
