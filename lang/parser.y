/*
** parser.y: the lyt grammar, for the Lemon parser generator.
**
** Every action is one builder call (lang/build.c), as in SQLite's
** parse.y. Errors are recorded in the context, never thrown: the driver
** at the end of this file restarts the parser at the next statement so
** that one run reports several errors. The precedence table, lowest
** first, is also the one docs/language.md documents.
*/

%name lytParse
%token_prefix TK_
%token_type {lytP_token}
%extra_context {lytP_ctx *p}
%stack_size 500
%start_symbol chunk

%include {
#include <assert.h>
#include <string.h>
#include "lang/parse.h"
#include "parser.h"
#define YYNOERRORRECOVERY 1
#define YYMALLOCARGTYPE size_t
}

%syntax_error {
  (void)yymajor;
  lytP_unexpected(p, &TOKEN);
}

%stack_overflow {
  lytP_error(p, p->at, "expression nested too deeply");
}

%right ELSE.
%left OR.
%left AND.
%right NOT.
%nonassoc EQ NE LT LE GT GE.
%nonassoc COLON ARROW.
%nonassoc AT.
%left PIPE.
%left CARET.
%left AMP.
%left SHL SHR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%right UMINUS.
%left LPAREN LBRACKET DOT.

%type stmt {lytP_node *}
%type expr {lytP_node *}
%type primary {lytP_node *}
%type arg {lytP_node *}
%type param {lytP_node *}
%type block {lytP_node *}
%type ifstmt {lytP_node *}
%type bline {lytP_node *}
%type exprlist {lytP_list *}
%type args {lytP_list *}
%type arglist {lytP_list *}
%type params {lytP_list *}
%type paramlist {lytP_list *}
%type blines {lytP_list *}
%type field {lytP_node *}
%type fields {lytP_list *}

chunk ::= lines.
lines ::= line.
lines ::= lines sep line.
sep ::= NEWLINE.
sep ::= SEMI.
line ::= .
line ::= stmt(S). { lytP_stmt(p, S, NULL); }

/* Statements. */
stmt(A) ::= NAME(N) ASSIGN expr(E).   { A = lytP_named(p, N_ASSIGN, &N, E); }
stmt(A) ::= PRINT(T) exprlist(L).     { A = lytP_listnode(p, N_PRINT, T.loc, L); }
stmt(A) ::= PRINT(T).                 { A = lytP_listnode(p, N_PRINT, T.loc, lytP_list_new(p)); }
stmt(A) ::= SHOW(T) expr(E).          { A = lytP_unary(p, N_SHOW, &T, E); }
stmt(A) ::= IMPORT(T) STRING(S).      { A = lytP_import(p, &T, &S, NULL, NULL); }
/* `as` is no keyword either */
stmt(A) ::= IMPORT(T) STRING(S) NAME(K) NAME(N).
                                      { A = lytP_import(p, &T, &S, &K, &N); }
stmt(A) ::= ALIAS(N) ATTR(T).         { A = lytP_named(p, N_ALIASDEF, &N, lytP_leaf(p, N_ATTR, &T)); }
stmt(A) ::= RETURN(T) expr(E).        { A = lytP_unary(p, N_RETURN, &T, E); }
/* `in` is no keyword (Triton's layouts name dims "in"): a name here */
stmt(A) ::= FOR(T) NAME(N) NAME(K) expr(E) block(B).
                                      { A = lytP_for(p, &T, &N, &K, E, B); }
stmt(A) ::= WHILE(T) expr(E) block(B). { A = lytP_unary(p, N_WHILE, &T, E); A->b = B; }
stmt(A) ::= BREAK(T).                 { A = lytP_node_new(p, N_BREAK, T.loc); }
stmt(A) ::= CONTINUE(T).              { A = lytP_node_new(p, N_CONTINUE, T.loc); }
stmt(A) ::= ifstmt(X).                { A = X; }
ifstmt(A) ::= IF(T) expr(C) block(B). { A = lytP_unary(p, N_IFSTMT, &T, C); A->b = B; }
ifstmt(A) ::= IF(T) expr(C) block(B) ELSE block(E).
                                      { A = lytP_unary(p, N_IFSTMT, &T, C); A->b = B; A->c = E; }
ifstmt(A) ::= IF(T) expr(C) block(B) ELSE ifstmt(E).
                                      { A = lytP_unary(p, N_IFSTMT, &T, C); A->b = B; A->c = E; }
/* `fn f(x) = ...` is an expression too; as a statement it defines f */
stmt(A) ::= expr(E).                  { A = lytP_exprstmt(p, E); }

block(A) ::= LBRACE(T) blines(L) RBRACE. { A = lytP_listnode(p, N_BLOCK, T.loc, L); }
blines(A) ::= bline(S).                { A = lytP_list_add(p, lytP_list_new(p), S); }
blines(A) ::= blines(L) sep bline(S).  { A = lytP_list_add(p, L, S); }
bline(A) ::= .                         { A = 0; }
bline(A) ::= stmt(S).                  { A = S; }

params(A) ::= .                        { A = lytP_list_new(p); }
params(A) ::= paramlist(L).            { A = L; }
paramlist(A) ::= param(X).             { A = lytP_list_add(p, lytP_list_new(p), X); }
paramlist(A) ::= paramlist(L) COMMA param(X). { A = lytP_list_add(p, L, X); }
param(A) ::= NAME(N).                  { A = lytP_named(p, N_PARAM, &N, 0); }
param(A) ::= NAME(N) ASSIGN expr(E).   { A = lytP_named(p, N_PARAM, &N, E); }

/* Expressions. A function's `= body` reaches as far as an `else` would. */
expr(A) ::= FN(T) LPAREN params(P) RPAREN ASSIGN nls expr(E). [ELSE]
                                       { A = lytP_function(p, &T, 0, P, E); }
expr(A) ::= FN(T) NAME(N) LPAREN params(P) RPAREN ASSIGN nls expr(E). [ELSE]
                                       { A = lytP_function(p, &T, &N, P, E); }
primary(A) ::= FN(T) LPAREN params(P) RPAREN block(B).
                                       { A = lytP_function(p, &T, 0, P, B); }
primary(A) ::= FN(T) NAME(N) LPAREN params(P) RPAREN block(B).
                                       { A = lytP_function(p, &T, &N, P, B); }
expr(A) ::= IF(T) expr(C) THEN expr(X) ELSE expr(Y).
                                       { A = lytP_binary(p, N_IF, &T, X, Y); A->c = C; }
expr(A) ::= expr(X) OR(T) expr(Y).     { A = lytP_binary(p, N_OR, &T, X, Y); }
expr(A) ::= expr(X) AND(T) expr(Y).    { A = lytP_binary(p, N_AND, &T, X, Y); }
expr(A) ::= NOT(T) expr(X).            { A = lytP_unary(p, N_UNOP, &T, X); }
expr(A) ::= expr(X) EQ(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) NE(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) LT(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) LE(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) GT(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) GE(T) expr(Y).     { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) COLON(T) expr(Y).  { A = lytP_binary(p, N_LAYOUT, &T, X, Y); }
expr(A) ::= expr(X) AT(T) NAME(N).     { A = lytP_binary(p, N_AXIS, &T, X, 0); A->str = N.s; A->len = N.len; }
/* CuTe's scaled basis element, as CuTe and lyt print it: 1@0, 1@0@1 */
expr(A) ::= expr(X) AT(T) INT(N).      { A = lytP_binary(p, N_BASIS, &T, X, 0); A->ival = N.ival; }
expr(A) ::= expr(X) ARROW(T) expr(Y).  { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) PLUS(T) expr(Y).   { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) MINUS(T) expr(Y).  { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) STAR(T) expr(Y).   { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) SLASH(T) expr(Y).  { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) PERCENT(T) expr(Y). { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) PIPE(T) expr(Y).   { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) CARET(T) expr(Y).  { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) AMP(T) expr(Y).    { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) SHL(T) expr(Y).    { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= expr(X) SHR(T) expr(Y).    { A = lytP_binary(p, N_BINOP, &T, X, Y); }
expr(A) ::= MINUS(T) expr(X). [UMINUS] { A = lytP_negate(p, &T, X); }
expr(A) ::= TILDE(T) expr(X). [UMINUS] { A = lytP_unary(p, N_UNOP, &T, X); }
expr(A) ::= primary(X).                { A = X; }

primary(A) ::= INT(T).                 { A = lytP_leaf(p, N_INT, &T); }
primary(A) ::= STRING(T).              { A = lytP_leaf(p, N_STR, &T); }
primary(A) ::= ATTR(T).                { A = lytP_leaf(p, N_ATTR, &T); }
primary(A) ::= NAME(T).                { A = lytP_leaf(p, N_NAME, &T); }
primary(A) ::= UNDER(T).               { A = lytP_leaf(p, N_UNDER, &T); }
primary(A) ::= TRUE(T).                { A = lytP_leaf(p, N_BOOL, &T); A->ival = 1; }
primary(A) ::= FALSE(T).               { A = lytP_leaf(p, N_BOOL, &T); }
primary(A) ::= NIL(T).                 { A = lytP_leaf(p, N_NIL, &T); }
primary(A) ::= LPAREN(T) RPAREN.       { A = lytP_listnode(p, N_TUPLE, T.loc, lytP_list_new(p)); }
primary(A) ::= LPAREN(T) expr(X) RPAREN. { A = lytP_unary(p, N_PAREN, &T, X); }
primary(A) ::= LPAREN(T) expr(X) COMMA RPAREN.
                                       { A = lytP_listnode(p, N_TUPLE, T.loc, lytP_list_add(p, lytP_list_new(p), X)); }
primary(A) ::= LPAREN(T) expr(X) COMMA exprlist(L) RPAREN.
    { lytP_list *l = lytP_list_add(p, lytP_list_new(p), X);
      l->tail->next = L->head; l->tail = L->tail; l->n += L->n;
      A = lytP_listnode(p, N_TUPLE, T.loc, l); }
primary(A) ::= LBRACKET(T) exprlist(L) RBRACKET. { A = lytP_listnode(p, N_TILER, T.loc, L); }
primary(A) ::= LBRACKET(T) RBRACKET.   { A = lytP_listnode(p, N_TILER, T.loc, lytP_list_new(p)); }

/* Records {name: value, ...}: dims of linear layouts, coordinates on named
** axes. Unlike a block, a record may break lines after '{' and ','. */
primary(A) ::= LBRACE(T) nls RBRACE.   { A = lytP_listnode(p, N_RECORD, T.loc, lytP_list_new(p)); }
primary(A) ::= LBRACE(T) nls fields(L) nls RBRACE. { A = lytP_listnode(p, N_RECORD, T.loc, L); }
fields(A) ::= field(X).                { A = lytP_list_add(p, lytP_list_new(p), X); }
fields(A) ::= fields(L) COMMA nls field(X). { A = lytP_list_add(p, L, X); }
field(A) ::= NAME(N) COLON expr(E).    { A = lytP_named(p, N_FIELD, &N, E); }
field(A) ::= NAME(N).                  { A = lytP_named(p, N_FIELD, &N, 0); }
nls ::= .
nls ::= nls NEWLINE.
primary(A) ::= primary(F) LPAREN(T) args(L) RPAREN.
                                       { A = lytP_listnode(p, N_CALL, T.loc, L); A->a = F; A->loc = F->loc; }
primary(A) ::= primary(X) DOT(T) NAME(N). { A = lytP_named(p, N_DOT, &N, X); A->loc = T.loc; }
primary(A) ::= primary(X) LBRACKET(T) expr(I) RBRACKET.
                                       { A = lytP_binary(p, N_INDEX, &T, X, I); }

exprlist(A) ::= expr(X).               { A = lytP_list_add(p, lytP_list_new(p), X); }
exprlist(A) ::= exprlist(L) COMMA expr(X). { A = lytP_list_add(p, L, X); }

args(A) ::= .                          { A = lytP_list_new(p); }
args(A) ::= arglist(L).                { A = L; }
arglist(A) ::= arg(X).                 { A = lytP_list_add(p, lytP_list_new(p), X); }
arglist(A) ::= arglist(L) COMMA arg(X). { A = lytP_list_add(p, L, X); }
arg(A) ::= expr(X).                    { A = lytP_node_new(p, N_ARG, X->loc); A->a = X; }
arg(A) ::= NAME(N) ASSIGN expr(X).     { A = lytP_named(p, N_ARG, &N, X); }

%code {
_Static_assert(YYSTACKDEPTH <= LYTP_PROBE_DEPTH && YYNSTATE + YYNRULE < 65536 && YY_MAX_REDUCE < 65536,
               "lytP_probe holds the automaton's states");

void lytP_probe_init(lytP_probe *q) {
  q->top = 0;
  q->st[0] = 0;
}

/* lytParse's loop, on state numbers: reduce until the token is shifted
** (1), accepted (2) or refused (0). */
static int probe_step(lytP_probe *q, int type) {
  int top = q->top;  /* a local: the stores to st[] would make q->top reload */
  YYACTIONTYPE act = q->st[top];
  for (;;) {
    act = yy_find_shift_action((YYCODETYPE)type, act);
    if (act >= YY_MIN_REDUCE) {
      unsigned rule = act - YY_MIN_REDUCE;
      int size = yyRuleInfoNRhs[rule];  /* minus the symbols popped */
      if (top + size + 1 >= YYSTACKDEPTH) return 0;
      act = yy_find_reduce_action(q->st[top + size], (YYCODETYPE)yyRuleInfoLhs[rule]);
      top += size + 1;
      q->st[top] = act;
    } else if (act <= YY_MAX_SHIFTREDUCE) {
      if (top + 1 >= YYSTACKDEPTH) return 0;
      if (act > YY_MAX_SHIFT) act += YY_MIN_REDUCE - YY_MIN_SHIFTREDUCE;
      q->st[++top] = act;
      q->top = top;
      return 1;
    } else {
      q->top = top;
      return act == YY_ACCEPT_ACTION ? 2 : 0;
    }
  }
}

int lytP_probe_feed(lytP_probe *q, int type) {
  return type != 0 && probe_step(q, type) == 1;
}

int lytP_probe_ends(const lytP_probe *q) {
  lytP_probe end = { q->top, { 0 } };
  memcpy(end.st, q->st, sizeof *q->st * (size_t)(q->top + 1));
  return probe_step(&end, 0) == 2;
}

/* The reference trees (lang/parse.c builds the ones lyt runs): feed
** tokens; after an error, skip to the next statement boundary outside
** braces and start a fresh parser there. */
int lytP_parse_grammar(lytP_ctx *p) {
  yyParser parser;
  lytP_token t;
  lytParseInit(&parser, p);
  for (;;) {
    int before = p->nerr;
    lytL_lex(p, &t);
    p->at = t.loc;
    /* A lexical error already explains this statement: do not let the
    ** parser add a second message about the same spot. */
    if (p->nerr == before) lytParse(&parser, t.type, t);
    if (p->nerr > before && p->nerr < LYT_MAX_SYNTAX_ERRORS && t.type != 0) {
      lytP_skip_statement(p, &t);
      lytParseFinalize(&parser);
      lytParseInit(&parser, p);
      if (t.type == 0) break;
      continue;
    }
    if (t.type == 0 || p->nerr >= LYT_MAX_SYNTAX_ERRORS) break;
  }
  lytParseFinalize(&parser);
  return p->nerr ? LYT_ERRSYNTAX : LYT_OK;
}

/* The two errors the automaton cannot see, which the builders report
** (lytP_for, lytP_import): the names `in` and `as` are no keywords. */
static int soft_keyword_wrong(int prev2, int prev1, const lytP_token *t) {
  if (t->type != TK_NAME) return 0;
  if (prev2 == TK_FOR && prev1 == TK_NAME) return t->len != 2 || memcmp(t->s, "in", 2) != 0;
  if (prev2 == TK_IMPORT && prev1 == TK_STRING) return t->len != 2 || memcmp(t->s, "as", 2) != 0;
  return 0;
}

/* One token through the automaton: 1 shifted, 0 refused. The probe's
** stack holds what lytParse's does, give or take a few entries: near the
** limit, let the real parse decide. */
static int feed(lytP_probe *q, int type) {
  return probe_step(q, type) == 1 && q->top <= YYSTACKDEPTH - 8;
}

/* Lines already run through the automaton. A top-level statement and its
** separator take the automaton from a stack [0, from] to a stack
** [0, to] (two states each, below them always state 0), whatever their
** names and numbers are: the same token types from the same states do
** the same again. Scripts repeat a few shapes of line, and the automaton
** costs most of this pass, so a line seen before skips it. */
#define LINE_TOKENS 64
#define LINE_SLOTS 64
typedef struct line_seen {
  uint16_t from[2], to[2];
  uint8_t n, type[LINE_TOKENS];  /* n 0: an empty slot */
} line_seen;

static line_seen *line_slot(line_seen *seen, const uint16_t *from, const uint8_t *type, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ type[i]) * 16777619u;
  for (int k = 0; k < LINE_SLOTS; k++) {
    line_seen *e = &seen[(h + (uint32_t)k) & (LINE_SLOTS - 1)];
    if (e->n == 0 || (e->n == n && e->from[0] == from[0] && e->from[1] == from[1] &&
                      memcmp(e->type, type, (size_t)n) == 0))
      return e;
  }
  return NULL;  /* full */
}

/* Lines already checked, by their keys (lytL_line_key): a line with the
** key of one the automaton took from [0, from] to [0, to] lexes to the
** same token types and does the same again, so it skips the lexer too.
** Only lines that lexed without error, within brackets that close, and
** ended in a newline, are kept, up to 3/4 of the slots. */
#define TEXT_SLOTS 256
typedef struct text_seen {
  uint16_t from[2], to[2];
  uint8_t id;              /* 1 + its place in texts' list */
  lytL_key k;
} text_seen;

typedef struct texts {
  text_seen *slot[TEXT_SLOTS];
  lytL_key *list[LYTP_KEYS];
  int count;
} texts;
_Static_assert(LYTP_KEYS < 256 && LYTP_KEYS <= TEXT_SLOTS / 4 * 3, "a kept line's id is a byte");

/* The line l, read at s, checked from the states from, or NULL, *empty
** then the slot where it goes. */
static text_seen *find_text(texts *t, const lytL_line *l, const char *s, const uint16_t *from,
                            text_seen ***empty) {
  for (uint32_t i = l->hash;; i++) {  /* never full */
    text_seen **e = &t->slot[i & (TEXT_SLOTS - 1)];
    if (!*e) {
      *empty = e;
      return NULL;
    }
    if ((*e)->k.line.hash == l->hash && (*e)->from[0] == from[0] && (*e)->from[1] == from[1] &&
        lytL_line_is(&(*e)->k, l, s))
      return *e;
  }
}

/* Line [line] counted under its key e, and noted as e's if keys are
** wanted. Lines come in order. */
static void give_key(lytP_ctx *p, int32_t line, text_seen *e) {
  lytP_line_keys *k = &p->line_keys;
  e->k.lines++;
  if (!p->keys) return;
  if (!k->of) k->line0 = line;
  int32_t i = line - k->line0;
  if (i >= k->cap) {  /* doubled, but never past a line for each byte left */
    int64_t most = (int64_t)i + 1 + (p->src->text + p->src->len - p->cur);
    int64_t cap = k->cap ? 2 * (int64_t)k->cap : 64;
    if (cap < (int64_t)i + 1) cap = (int64_t)i + 1;  /* past a statement of many lines */
    if (cap > most) cap = most;
    uint8_t *v = cap > INT32_MAX ? NULL : lytA_alloc(p->cx->arena, (size_t)cap);
    if (!v) {  /* the keys are a saving, not a need */
      p->keys = 0;
      return;
    }
    if (k->n) memcpy(v, k->of, (size_t)k->n);
    k->of = v, k->cap = (int32_t)cap;
  }
  if (i > k->n) memset(k->of + k->n, 0, (size_t)(i - k->n));
  k->of[i] = e->id;
  if (i >= k->n) k->n = i + 1;
}

/* The line at p->cur, if one with its key was checked from the same
** states: the automaton and the lexer moved past it. */
static int skip_seen_line(lytP_ctx *p, texts *t, lytP_probe *q) {
  lytL_line l;
  uint16_t from[2] = { q->st[1], q->st[2] };
  text_seen **empty, *e = t && lytL_line_read(p->cur, p->src->text + p->src->len, &l)
                          ? find_text(t, &l, p->cur, from, &empty) : NULL;
  if (!e) return 0;
  give_key(p, p->line, e);
  q->st[1] = e->to[0], q->st[2] = e->to[1];
  p->cur += l.n;
  p->line++;
  p->linestart = p->cur;
  return 1;
}

/* The line that began at s and ended where the lexer is, checked from
** the states from to q's. */
static void keep_line(lytP_ctx *p, texts **t, const char *s, const uint16_t *from,
                      const lytP_probe *q) {
  lytL_key k;
  int n = lytL_line_key(s, p->src->text + p->src->len, &k);
  if (!n || s + n != p->cur) return;  /* longer, or more than one line */
  if (!*t) {  /* the first line kept: a script of one line needs no table */
    *t = lytA_alloc(p->cx->arena, sizeof **t);
    if (!*t) return;  /* the check goes on without it */
    memset(*t, 0, sizeof **t);
    p->line_keys.list = (*t)->list;
  }
  text_seen **empty, *e = find_text(*t, &k.line, s, from, &empty);
  if (!e) {
    if ((*t)->count == LYTP_KEYS || !(e = lytA_alloc(p->cx->arena, sizeof *e))) return;
    *e = (text_seen){ { from[0], from[1] }, { q->st[1], q->st[2] }, (uint8_t)((*t)->count + 1), k };
    *empty = e;
    (*t)->list[(*t)->count++] = &e->k;
  }
  give_key(p, p->line - 1, e);  /* the lexer is past its newline */
}

int lytP_valid(lytP_ctx *p) {
  lytP_probe q;
  lytP_token t;
  line_seen seen[LINE_SLOTS];
  texts *seen_texts = NULL;  /* in p->cx's arena, once a line is kept */
  uint8_t line[LINE_TOKENS];
  int prev2 = 0, prev1 = 0, n = 0, at_line = 0;  /* at_line: the stack is [0, from] */
  const char *begin = NULL;  /* where the line being checked began, at_line */
  uint16_t begin_from[2] = { 0, 0 };
  /* a slot is read past its n only when that is set */
  for (int i = 0; i < LINE_SLOTS; i++) seen[i].n = 0;
  lytP_probe_init(&q);
  p->probing = 1;
  _Static_assert(YYNTOKEN <= 256, "token types fit a byte");
  for (;;) {
    if (at_line && n == 0 && !begin && p->depth == 0) {
      if (skip_seen_line(p, seen_texts, &q)) {
        prev2 = 0, prev1 = TK_NEWLINE;
        continue;
      }
      begin = p->cur, begin_from[0] = q.st[1], begin_from[1] = q.st[2];
    }
    t.type = lytL_probe(p, &t);
    if (p->nerr || soft_keyword_wrong(prev2, prev1, &t)) return 0;
    prev2 = prev1, prev1 = t.type;
    int sep = t.type == TK_NEWLINE || t.type == TK_SEMI;
    if (at_line && t.type != 0 && (n < LINE_TOKENS - 1 || sep)) {
      line[n++] = (uint8_t)t.type;
      if (!sep) continue;
      uint16_t from[2] = { q.st[1], q.st[2] };
      line_seen *e = line_slot(seen, from, line, n);
      if (e && e->n) {
        q.st[1] = e->to[0], q.st[2] = e->to[1];
      } else {
        for (int i = 0; i < n; i++)
          if (!feed(&q, line[i])) return 0;
        if (q.top == 2 && e) {
          *e = (line_seen){ { from[0], from[1] }, { q.st[1], q.st[2] }, (uint8_t)n, { 0 } };
          memcpy(e->type, line, (size_t)n);
        }
        at_line = q.top == 2;
      }
      n = 0;
      if (at_line && t.type == TK_NEWLINE && begin) keep_line(p, &seen_texts, begin, begin_from, &q);
      if (!at_line || t.type == TK_NEWLINE) begin = NULL;
      continue;
    }
    /* not at a line's start, the end of input, or a line too long to keep */
    begin = NULL;
    for (int i = 0; i < n; i++)
      if (!feed(&q, line[i])) return 0;
    n = 0;
    if (t.type == 0) return probe_step(&q, 0) == 2;
    if (!feed(&q, t.type)) return 0;
    at_line = sep && q.top == 2;
  }
}
}
