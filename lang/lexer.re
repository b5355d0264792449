/*
** lexer.re: the tokenizer, generated into C by re2c.
**
** The input is NUL-terminated, so the end is a rule of its own and no
** refill is needed (ninja's shape). Newlines separate statements except
** inside ( ) and [ ], where a layout or a call may span lines; that is
** what makes multi-line REPL input and long tilers natural. Integers
** are checked for 64-bit overflow here, the one place they are read.
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
  if (!prefixed && e - s <= 18) {
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

static int name_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "#name = #dialect...": the end of "#name =", or NULL. */
static const char *alias_def(const char *s) {
  const char *e = s + 1;
  if (!name_char(*e) || (*e >= '0' && *e <= '9')) return NULL;
  while (name_char(*e)) e++;
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
  while (name_char(*e) || *e == '.') e++;
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

void lytL_lex(lytP_ctx *p, lytP_token *t) {
#define KEYWORD(k) do { t->type = (k); return; } while (0)
  const char *YYMARKER;
  memset(t, 0, sizeof *t);
  for (;;) {
    const char *start = p->cur;
    t->loc = here(p, start);
    /*!re2c
      re2c:define:YYCTYPE = "unsigned char";
      re2c:define:YYCURSOR = "p->cur";
      re2c:yyfill:enable = 0;
      re2c:flags:utf-8 = 0;

      digit = [0-9];
      ident = [a-zA-Z_][a-zA-Z0-9_]*;

      "\x00" {
        if (p->cur - 1 < p->src->text + p->src->len) {
          lytP_error(p, t->loc, "unexpected NUL byte");
          continue;
        }
        p->cur--; t->type = 0; return;
      }
      [ \t\r]+ { continue; }
      "#" [^\n\x00]* {
        const char *def = alias_def(start);
        if (def) {
          while (name_char(start[1 + t->len])) t->len++;
          t->s = p->intern(p->intern_ud, start + 1, (size_t)t->len);
          if (!t->s) lytS_fail(p->cx, LYT_ERRMEM, "out of memory");
          p->cur = def;
          t->type = TK_ALIAS;
          return;
        }
        if (dialect_at(start + 1)) { attr_token(p, t, start); return; }
        continue;
      }
      "tensor<" [0-9] | "!ttg.memdesc<" { attr_token(p, t, start); return; }
      "_" digit+ ("{}")? | ("cute::")? ("Int" | "C") "<" digit+ ">{}" {
        const char *d = start, *e;
        while (*d < '0' || *d > '9') d++;
        for (e = d; *e >= '0' && *e <= '9'; e++) {}
        t->ival = number(d, e);
        if (t->ival < 0) {
          lytP_error(p, t->loc, "integer literal too large for 64 bits");
          t->ival = 0;
        }
        t->type = TK_INT; return;
      }
      ("cute::")? ("LayoutLeft" | "GenColMajor" | "LayoutRight" | "GenRowMajor") "{}" {
        const char *d = strncmp(start, "cute::", 6) == 0 ? start + 6 : start;
        t->s = strncmp(d, "LayoutLeft", 10) == 0 || strncmp(d, "GenCol", 6) == 0 ? "LayoutLeft"
                                                                                 : "LayoutRight";
        t->len = (int32_t)strlen(t->s);
        t->type = TK_STRING; return;
      }
      ("cute::")? ("Layout" | "Swizzle" | "ComposedLayout") "<" { cute_token(p, t, start, 0); return; }
      "Sw<" digit+ "," digit+ "," digit+ ">" { cute_token(p, t, start, 1); return; }
      "\n" {
        p->line++; p->linestart = p->cur;
        if (p->depth > 0) continue;
        t->type = TK_NEWLINE; return;
      }
      digit+ | "0" [xX] [0-9a-fA-F]+ | "0" [bB] [01]+ {
        t->ival = number(start, p->cur);
        if (t->ival < 0) {
          lytP_error(p, t->loc, "integer literal too large for 64 bits");
          t->ival = 0;
        }
        t->type = TK_INT; return;
      }
      digit+ ident {
        lytP_error(p, t->loc, "malformed number '%.*s'", (int)(p->cur - start), start);
        continue;
      }
      "\"" ([^"\\\n\x00] | "\\" [nt\\"])* "\"" {
        if (p->probing) t->s = start + 1, t->len = (int32_t)(p->cur - start - 2);
        else string(p, t, start + 1, p->cur - 1);
        t->type = TK_STRING; return;
      }
      "\"" ([^"\\\n\x00] | "\\" [nt\\"])* "\\" [^nt\\"\n\x00] {
        lytP_error(p, here(p, p->cur - 2), "unknown escape '\\%c' in string", p->cur[-1]);
        while (*p->cur && *p->cur != '"' && *p->cur != '\n') p->cur++;
        if (*p->cur == '"') p->cur++;
        continue;
      }
      "\"" ([^"\\\n\x00] | "\\" [nt\\"])* {
        lytP_error(p, t->loc, "unterminated string");
        continue;
      }
      "_" { t->type = TK_UNDER; return; }
      /* keywords before ident: a longer name still matches ident */
      !include "keywords.re";
      ident {
        t->type = TK_NAME;
        t->len = (int32_t)(p->cur - start);
        if (p->probing) { t->s = start; return; }
        t->s = p->intern(p->intern_ud, start, (size_t)(p->cur - start));
        if (!t->s) lytS_fail(p->cx, LYT_ERRMEM, "out of memory");
        return;
      }
      "(" { p->depth++; t->type = TK_LPAREN; return; }
      ")" { if (p->depth > 0) p->depth--; t->type = TK_RPAREN; return; }
      "[" { p->depth++; t->type = TK_LBRACKET; return; }
      "]" { if (p->depth > 0) p->depth--; t->type = TK_RBRACKET; return; }
      "{" { t->type = TK_LBRACE; return; }
      "}" { t->type = TK_RBRACE; return; }
      "," { t->type = TK_COMMA; return; }
      "." { t->type = TK_DOT; return; }
      ":" { t->type = TK_COLON; return; }
      ";" { t->type = TK_SEMI; return; }
      "==" { t->type = TK_EQ; return; }
      "!=" { t->type = TK_NE; return; }
      "<=" { t->type = TK_LE; return; }
      ">=" { t->type = TK_GE; return; }
      "<" { t->type = TK_LT; return; }
      ">" { t->type = TK_GT; return; }
      "=" { t->type = TK_ASSIGN; return; }
      "->" { t->type = TK_ARROW; return; }
      "@" { t->type = TK_AT; return; }
      "+" { t->type = TK_PLUS; return; }
      "-" { t->type = TK_MINUS; return; }
      "*" { t->type = TK_STAR; return; }
      "/" { t->type = TK_SLASH; return; }
      "%" { t->type = TK_PERCENT; return; }
      "<<" { t->type = TK_SHL; return; }
      ">>" { t->type = TK_SHR; return; }
      "^" { t->type = TK_CARET; return; }
      "&" { t->type = TK_AMP; return; }
      "|" { t->type = TK_PIPE; return; }
      "~" { t->type = TK_TILDE; return; }
      [^] {
        unsigned char c = (unsigned char)start[0];
        if (c >= 0x20 && c < 0x7f)
          lytP_error(p, t->loc, "unexpected character '%c'", c);
        else
          lytP_error(p, t->loc, "unexpected byte 0x%02x", c);
        continue;
      }
    */
  }
#undef KEYWORD
}
