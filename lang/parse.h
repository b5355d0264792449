/*
** parse.h: the front end's context, shared by the re2c lexer, the Lemon
** grammar and its driver.
**
** Errors never unwind out of Lemon: they are recorded here (the first
** one with its location, all of them as formatted text) and the driver
** resynchronises at the next line so one run reports several. Only an
** allocation failure longjmps, through the caller's protected entry;
** the arena makes that leak-free.
*/
#ifndef LYT_PARSE_H
#define LYT_PARSE_H

#include <setjmp.h>

#include "interp/base/inttuple.h"
#include "lang/ast.h"

#define LYT_MAX_SYNTAX_ERRORS 8   /* later ones are mostly echoes of the first */

typedef struct lytP_token {
  int type;          /* TK_* from parser.h, 0 at end of input */
  lyt_loc loc;
  int64_t ival;      /* TK_INT */
  const char *s;     /* TK_NAME (interned), TK_STRING (decoded) */
  int32_t len;
} lytP_token;

/* A line's key (lang/linekey.c): the line from its first byte through
** its newline, each digit of a decimal literal of at most
** LYTL_SAFE_DIGITS digits standing alone (no name character on either
** side) written as a zero. Any such literal lexes to an integer token
** whatever its digits, so lines with one key lex to the same tokens but
** for the integers' values, and each token keeps its column. Longer
** literals (which may overflow), hexadecimal and binary ones, and digits
** in names stay as written. The check (lytP_valid) skips lines by their
** keys; the evaluator reuses a statement's code for lines with its key
** (eval/template.c). */
#define LYTL_KEY_MAX 128
#define LYTL_KEY_LITS (LYTL_KEY_MAX / 2)
/* A line read for its key: enough to find a key and to compare with it. */
typedef struct lytL_line {
  int n;                        /* bytes, its newline included; 0: no newline within
                                   LYTL_KEY_MAX bytes */
  uint32_t hash;                /* the same for lines with one key */
  uint64_t z[LYTL_KEY_MAX / 8]; /* its bytes 8 to a word, the first lowest, every digit
                                   as a zero; in the last word, zeros past n */
} lytL_line;
typedef struct lytL_key {
  lytL_line line;
  int nlit, nraw;               /* its literals, and runs of digits kept as written */
  /* where each run of digits begins: the literals from the front, the
  ** others from the back. A run ends where the digits do, at the same
  ** place in every line with the key. */
  uint8_t at[LYTL_KEY_LITS];
  const char *text;             /* the line it was read from, as written: a source's
                                   text, which stays while the key is used */
  int lines;                    /* lines of the text lytP_valid found with it */
  void *user;                   /* kept by whoever runs the line (eval/template.c) */
} lytL_key;
/* The line at s (the text ends at end) read, l->n. */
int lytL_line_read(const char *s, const char *end, lytL_line *l);
/* The key of the line at s, k->line.n. */
int lytL_line_key(const char *s, const char *end, lytL_key *k);
/* Whether l, the line read at s, has key k. */
int lytL_line_is(const lytL_key *k, const lytL_line *l, const char *s);
/* The values of k's literals in the line at s, which has key k. */
void lytL_line_values(const lytL_key *k, const char *s, int64_t *v);
static inline int lytL_digit(char c) { return (unsigned)((unsigned char)c - '0') < 10; }
/* Literal i of key k in the line at s, which has key k. */
static inline int64_t lytL_literal(const lytL_key *k, const char *s, int i) {
  const char *c = s + k->at[i];
  int64_t v = *c++ - '0';  /* a literal has a digit at least, and a newline ends it */
  while (lytL_digit(*c)) v = v * 10 + (*c++ - '0');
  return v;
}

typedef const char *(*lytP_intern_fn)(void *ud, const char *s, size_t n);

/* The keys lytP_valid read, by line: line line0 + i has key
** list[of[i] - 1], or none where of[i] is 0. A byte a line (at most two
** a byte of text, what doubling leaves), not a key's pointer: a page of
** memory first touched costs about as much as running five lines. */
#define LYTP_KEYS 192
typedef struct lytP_line_keys {
  uint8_t *of;
  lytL_key **list;         /* at most LYTP_KEYS */
  int32_t line0, n, cap;
} lytP_line_keys;

typedef struct lytP_ctx {
  lytS_ctx *cx;            /* arena for nodes; jb for out-of-memory */
  const lytL_src *src;
  lytP_intern_fn intern;   /* names are interned so lookups compare pointers */
  void *intern_ud;
  /* lexer */
  const char *cur;         /* next byte to scan */
  const char *linestart;   /* first byte of the current line */
  int32_t line;
  int32_t depth;           /* open ( and [: newlines inside are not separators */
  /* result: the statements, or, with on_stmt set, each top-level
  ** statement handed over as soon as it is parsed (lytP_parse) */
  lytP_list stmts;
  void (*on_stmt)(void *ud, const lytP_node *s, const char *line);
  void *on_stmt_ud;
  /* With on_stmt: a line where a top-level statement may begin, before
  ** it is lexed. on_line runs it and returns its length (its newline
  ** included), or 0 to leave it to the parser; then on_stmt is told where
  ** it began (line) if one statement fills it, else NULL. */
  int (*on_line)(void *ud, const lytL_src *src, const char *at, int32_t line, lytL_key *key);
  const char *missed;      /* the line on_line last left to the parser */
  int32_t missed_line;     /* its number; 0 once a statement began after it */
  /* With keys set, lytP_valid notes the key it read of each line, a
  ** byte a line, in p->cx's arena; lytP_parse hands them to on_line, so a
  ** line is read for its key once. */
  int keys;
  lytP_line_keys line_keys;
  lytA_arena *keep;        /* where a statement that makes functions is copied, and
                              texts go (they outlive it); NULL: p->cx's arena */
  lytA_mark stmt_mark;     /* p->cx's arena where every statement begins */
  int made_fn;             /* the statement has a function (it outlives the statement) */
  int probing;             /* lytP_valid lexes: a string is left in the source
                              text (s, len; not NUL-terminated), not decoded */
  /* errors */
  int nerr;
  int incomplete;          /* the only error is an unexpected end of input */
  lyt_loc at;              /* the token parser.y's driver is parsing (its overflow message) */
  lyt_loc errloc;          /* first error */
  char errmsg[LYT_MSG_MAX];
  lytS_buf diag;           /* every error, formatted with source line and caret */
} lytP_ctx;

/* The parser's automaton on state numbers alone: no actions, no values.
** It answers the REPL's question after each line, "would the input so far
** be whole if it ended here?", and carries over to the next line, so that
** a statement typed over many lines costs time in proportion to its
** length, not to its square. */
#define LYTP_PROBE_DEPTH 500     /* the grammar's %stack_size */
typedef struct lytP_probe {
  int top;
  uint16_t st[LYTP_PROBE_DEPTH];
} lytP_probe;
void lytP_probe_init(lytP_probe *q);
int lytP_probe_feed(lytP_probe *q, int type);  /* 0: a syntax error */
int lytP_probe_ends(const lytP_probe *q);      /* 1: end of input accepted here */

/* Parse p->src into p->stmts, or, with p->on_stmt set, hand each
** top-level statement to it once parsed: its nodes are in p->cx's arena,
** given back to where the statement began when on_stmt returns, unless it
** makes a function, when it is copied into p->keep first. Meant for a
** text lytP_valid accepted: an error would come after the statements
** before it ran. Returns LYT_OK or LYT_ERRSYNTAX. (lang/parse.c) */
int lytP_parse(lytP_ctx *p);
/* The same from parser.y's own actions, without on_stmt: the reference
** lytP_parse is tested against. */
int lytP_parse_grammar(lytP_ctx *p);
/* Whether p->src parses, lexed (lytL_probe) and run through the automaton
** alone: no tree; names and strings stay in the source, the texts of
** attributes and aliases go in p->cx's arena. 0 for any error, with the
** messages in p; 0 too near the parser's depth limit. What says 1 parses
** without error. */
int lytP_valid(lytP_ctx *p);

/* A decimal literal of at most this many digits cannot overflow 64 bits:
** the lexer values it without the test, and the parser's and the check's
** shortcuts (lang/parse.c, lytP_valid) rely on the same bound. */
#define LYTL_SAFE_DIGITS 18

/* [A-Za-z0-9_]: a byte of a name, as the lexer reads names */
static inline int lytL_name_char(char c) {
  static const uint64_t bits[4] = { 0x03FF000000000000u, 0x07FFFFFE87FFFFFEu, 0, 0 };
  unsigned char b = (unsigned char)c;
  return (int)(bits[b >> 6] >> (b & 63)) & 1;
}

void lytL_lex(lytP_ctx *p, lytP_token *t);
int lytL_probe(lytP_ctx *p, lytP_token *t);  /* the next token's type (lytP_valid) */
int lytL_is_name(const char *s);  /* an identifier a script can write (no keyword) */
void lytP_error(lytP_ctx *p, lyt_loc loc, const char *fmt, ...) LYT_PRINTF(3, 4);
void lytP_unexpected(lytP_ctx *p, const lytP_token *t);  /* the syntax error at t */
/* After an error at *t, the tokens up to the next statement boundary
** outside braces (*t that boundary, or the end); lexical errors there are
** recorded and the scan goes on. */
void lytP_skip_statement(lytP_ctx *p, lytP_token *t);
const char *lytP_tokname(int type);

/* Node builders used by the grammar actions. The common ones are inline:
** a statement makes dozens of nodes. */
static inline lytP_node *lytP_node_new(lytP_ctx *p, int kind, lyt_loc loc) {
  lytP_node *n = lytS_alloc(p->cx, sizeof *n);
  *n = (lytP_node){ .kind = (uint8_t)kind, .loc = loc };
  return n;
}

static inline lytP_node *lytP_leaf(lytP_ctx *p, int kind, const lytP_token *t) {
  lytP_node *n = lytP_node_new(p, kind, t->loc);
  n->ival = t->ival;
  n->str = t->s;
  n->len = t->len;
  return n;
}

lytP_node *lytP_unary(lytP_ctx *p, int kind, const lytP_token *op, lytP_node *a);
lytP_node *lytP_negate(lytP_ctx *p, const lytP_token *minus, lytP_node *a);
lytP_node *lytP_binary(lytP_ctx *p, int kind, const lytP_token *op, lytP_node *a, lytP_node *b);
lytP_node *lytP_named(lytP_ctx *p, int kind, const lytP_token *name, lytP_node *a);
lytP_node *lytP_import(lytP_ctx *p, const lytP_token *imp, const lytP_token *path,
                       const lytP_token *as, const lytP_token *name);
lytP_node *lytP_for(lytP_ctx *p, const lytP_token *f, const lytP_token *name,
                    const lytP_token *in, lytP_node *e, lytP_node *body);
static inline lytP_node *lytP_listnode(lytP_ctx *p, int kind, lyt_loc loc, lytP_list *l) {
  lytP_node *n = lytP_node_new(p, kind, loc);
  n->list = l->head;
  n->n = l->n;
  return n;
}

lytP_list *lytP_list_new(lytP_ctx *p);

/* Appending NULL (an empty line in a block) is a no-op. */
static inline lytP_list *lytP_list_add(lytP_ctx *p, lytP_list *l, lytP_node *n) {
  (void)p;
  if (!n) return l;
  if (l->tail) l->tail->next = n; else l->head = n;
  l->tail = n;
  l->n++;
  return l;
}
/* A top-level statement parsed: to the list, or to on_stmt with the line
** it fills (NULL: it does not fill one). */
void lytP_stmt(lytP_ctx *p, lytP_node *s, const char *line);
lytP_node *lytP_function(lytP_ctx *p, const lytP_token *fn, const lytP_token *name,
                         lytP_list *params, lytP_node *body);
lytP_node *lytP_exprstmt(lytP_ctx *p, lytP_node *e);

/* Trees back into text that parses to the same tree (lang/unparse.c), and
** whether two trees are the same, wherever they were written. */
void lytP_unparse(lytS_buf *b, const lytP_node *n);
int lytP_same(const lytP_node *a, const lytP_node *b);
void lytP_quote(lytS_buf *b, const char *s, size_t n);  /* a string literal */

/* Diagnostics: "name:line:col: error: msg", the source line, a caret. */
void lytL_format_diag(lytS_buf *b, lyt_loc loc, const char *msg);
void lytL_format_at(lytS_buf *b, lyt_loc loc, const char *kind, const char *msg);  /* "note", ... */

#endif
