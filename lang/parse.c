/*
** parse.c: the parser that builds the trees lyt runs, by recursive
** descent (Lua's lparser.c is the model): one function per production,
** operators by precedence climbing over the levels parser.y declares.
**
** lang/parser.y stays the grammar's definition. Its automaton decides
** whether a whole script parses before any of it runs (lytP_valid) and
** when a REPL statement is whole (lytP_probe), and its actions build the
** reference trees that tests/unit/test_parse.c and the parse fuzzer hold
** this parser to, node for node and error for error
** (lytP_parse_grammar). Lemon's driver spent about 115 instructions a
** token on table lookups and on unit reductions (expr ::= primary, ...),
** which recursive descent does not make.
**
** Errors match the automaton's: "unexpected X" at the first token that
** no sentence of the grammar continues with. Only nesting is measured
** apart (the automaton counts its states, this parser the expressions
** and blocks open), so near the limit the two may stop at other tokens.
** A syntax error, a lexical error or a builder's error (`in`, `as`)
** leaves through a longjmp to the statement loop, which skips to the
** next statement boundary outside braces and goes on, as parser.y's
** driver does.
*/
#include <setjmp.h>

#include "lang/parse.h"
#include "parser.h"

/* Expressions nested deeper than this are an error, not a deep C stack.
** Lemon's automaton holds 500 states, which `x = ((...` fills at its
** 498th parenthesis: the error is where the automaton would say it. */
#define MAX_DEPTH 497

/* Productions a script uses now and then stay out of the frames of the
** recursive path (expr, operand, postfix, primary, paren), so that
** nesting costs little C stack. */
#if defined(__GNUC__)
#define RARE __attribute__((noinline))
#else
#define RARE
#endif

typedef struct rd {
  lytP_ctx *p;
  lytP_token t;  /* the token under the cursor */
  int depth;     /* expressions and blocks open */
  jmp_buf err;   /* back to the statement loop, the error recorded */
} rd;

/* Precedence levels, lowest first, as parser.y declares them. */
enum { L_NONE, L_ELSE, L_OR, L_AND, L_NOT, L_CMP, L_COLON, L_AT, L_PIPE, L_CARET, L_AMP,
       L_SHIFT, L_ADD, L_MUL, L_UNARY };

static const uint8_t level[64] = {
  [TK_OR] = L_OR, [TK_AND] = L_AND,
  [TK_EQ] = L_CMP, [TK_NE] = L_CMP, [TK_LT] = L_CMP, [TK_LE] = L_CMP, [TK_GT] = L_CMP,
  [TK_GE] = L_CMP, [TK_COLON] = L_COLON, [TK_ARROW] = L_COLON, [TK_AT] = L_AT,
  [TK_PIPE] = L_PIPE, [TK_CARET] = L_CARET, [TK_AMP] = L_AMP, [TK_SHL] = L_SHIFT,
  [TK_SHR] = L_SHIFT, [TK_PLUS] = L_ADD, [TK_MINUS] = L_ADD, [TK_STAR] = L_MUL,
  [TK_SLASH] = L_MUL, [TK_PERCENT] = L_MUL,
};
_Static_assert(TK_RBRACKET < 64, "token types index level[]");

static int level_of(int type) { return (unsigned)type < 64 ? level[type] : L_NONE; }

static _Noreturn void fail(rd *r) { longjmp(r->err, 1); }

static _Noreturn void unexpected(rd *r) {
  lytP_unexpected(r->p, &r->t);
  fail(r);
}

/* The next token; one with a lexical error is not parsed (the error
** explains the statement). */
static void next(rd *r) {
  int before = r->p->nerr;
  lytL_lex(r->p, &r->t);
  if (r->p->nerr > before) fail(r);
}

/* The token under the cursor, which must be of type, and move on. */
static lytP_token expect(rd *r, int type) {
  if (r->t.type != type) unexpected(r);
  lytP_token t = r->t;
  next(r);
  return t;
}

static void skip(rd *r, int type) {
  if (r->t.type != type) unexpected(r);
  next(r);
}

static int is_sep(int type) { return type == TK_NEWLINE || type == TK_SEMI; }

static void skip_newlines(rd *r) {
  while (r->t.type == TK_NEWLINE) next(r);
}

static void enter(rd *r) {
  if (++r->depth > MAX_DEPTH) {
    lytP_error(r->p, r->t.loc, "expression nested too deeply");
    fail(r);
  }
  if ((r->depth & 7) == 0) lytS_check_stack(r->p->cx);  /* a frame or four a level */
}

static lytP_node *expr(rd *r, int min);
static lytP_node *block(rd *r);
static lytP_node *stmt(rd *r);

/* exprlist ::= expr (COMMA expr)* */
static void exprlist(rd *r, lytP_list *l) {
  lytP_list_add(r->p, l, expr(r, L_ELSE));
  while (r->t.type == TK_COMMA) {
    next(r);
    lytP_list_add(r->p, l, expr(r, L_ELSE));
  }
}

/* CuTe's integer tuples as scripts write them on a line, `(3,8)`,
** `((2,3),(4,(5,6)))`, `(-1,4)`, `(_,2)`: read straight from the text into
** the nodes the grammar makes of them, without a token each. Anything
** else in the parentheses (a name, an operator, a hexadecimal literal, a
** comment, a line break) makes text_group give up, and the grammar reads
** the text token by token; the nodes made until then are left unused in
** the arena. */
#define TEXT_NESTING 16

static const char *blank(const char *s) {
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

static lyt_loc loc_at(rd *r, const char *at) {
  lyt_loc l = { r->p->src, r->p->line, (int32_t)(at - r->p->linestart) + 1 };
  return l;
}

/* `(x)`: grouping, or where CuTe text is written a rank-1 tuple */
static lytP_node *paren_node(rd *r, lyt_loc loc, lytP_node *x) {
  lytP_node *n = lytP_node_new(r->p, N_PAREN, loc);
  n->op = TK_LPAREN;
  n->a = x;
  return n;
}

static lytP_node *text_group(rd *r, const char **sp, int depth);

/* An integer of at most LYTL_SAFE_DIGITS digits (it cannot overflow),
** `-` before it making it negative as lytP_negate does, `_`, or a group;
** *sp past it. */
static lytP_node *text_elem(rd *r, const char **sp, int depth) {
  const char *s = *sp;
  if (*s == '(') return depth < TEXT_NESTING ? text_group(r, sp, depth + 1) : NULL;
  if (*s == '_') {
    if (lytL_name_char(s[1])) return NULL;  /* `_2` is CuTe's static 2, `_x` a name */
    *sp = s + 1;
    return lytP_node_new(r->p, N_UNDER, loc_at(r, s));
  }
  const char *d = *s == '-' ? blank(s + 1) : s, *e = d;
  int64_t v = 0;
  for (; lytL_digit(*e); e++) {
    if (e - d == LYTL_SAFE_DIGITS) return NULL;  /* one digit more may overflow: the tokens say */
    v = v * 10 + (*e - '0');
  }
  if (e == d || lytL_name_char(*e)) return NULL;
  lytP_node *n = lytP_node_new(r->p, N_INT, loc_at(r, s));
  n->ival = d == s ? v : -v;
  if (d != s) n->op = TK_MINUS;
  *sp = e;
  return n;
}

/* The stride core's tuple of t, an N_TUPLE the text made, when its
** elements are integers, `_` and tuples made so (NULL when one is `(x)`,
** which is grouping or a rank-1 tuple as the place decides): the
** evaluator's layouts take it as it is, instead of walking the nodes. */
static const lytS_tup *core_tuple(rd *r, const lytP_node *t) {
  lytS_tup *c = lytS_newtup(r->p->cx, t->n);
  int32_t i = 0;
  for (const lytP_node *e = t->list; e; e = e->next, i++) {
    if (e->kind == N_INT) c->e[i] = lytS_int(r->p->cx, e->ival);
    else if (e->kind == N_UNDER) c->e[i] = lytS_under(r->p->cx);
    else if (e->kind == N_TUPLE && e->tup) c->e[i] = (lytS_tup *)e->tup;
    else return NULL;
  }
  return c;
}

/* ( ) | ( e ) | ( e , ) | ( e , e ... ), *sp at the `(` and then past
** the `)`; NULL for another text. */
static lytP_node *text_group(rd *r, const char **sp, int depth) {
  const char *open = *sp, *s = blank(open + 1);
  lytP_list l = { 0 };
  int comma = 0;
  while (*s != ')') {
    lytP_node *e = text_elem(r, &s, depth);
    if (!e) return NULL;
    lytP_list_add(r->p, &l, e);
    s = blank(s);
    if (*s == ',') {
      s = blank(s + 1), comma = 1;
      if (*s == ')' && l.n > 1) return NULL;  /* (e,) only: (e, f,) is an error */
    } else if (*s != ')') {
      return NULL;
    }
  }
  *sp = s + 1;
  if (l.n == 1 && !comma) return paren_node(r, loc_at(r, open), l.head);
  lytP_node *t = lytP_listnode(r->p, N_TUPLE, loc_at(r, open), &l);
  t->tup = core_tuple(r, t);
  return t;
}

/* ( ) | ( expr ) | ( expr , ) | ( expr , exprlist ) */
static lytP_node *paren(rd *r) {
  lyt_loc loc = r->t.loc;
  const char *end = r->p->cur - 1;
  lytP_node *n = text_group(r, &end, 1);
  if (n) {  /* an integer tuple: its `)` closes the lexer's bracket too */
    r->p->cur = end;
    r->p->depth--;
    next(r);
    return n;
  }
  skip(r, TK_LPAREN);
  lytP_list l = { 0 };
  if (r->t.type != TK_RPAREN) {
    lytP_node *x = expr(r, L_ELSE);
    if (r->t.type == TK_RPAREN) {
      next(r);
      return paren_node(r, loc, x);
    }
    skip(r, TK_COMMA);
    lytP_list_add(r->p, &l, x);
    if (r->t.type != TK_RPAREN) exprlist(r, &l);
  }
  skip(r, TK_RPAREN);
  return lytP_listnode(r->p, N_TUPLE, loc, &l);
}

/* [ ] | [ exprlist ] */
static lytP_node *tiler(rd *r) {
  lyt_loc loc = r->t.loc;
  skip(r, TK_LBRACKET);
  lytP_list l = { 0 };
  if (r->t.type != TK_RBRACKET) exprlist(r, &l);
  skip(r, TK_RBRACKET);
  return lytP_listnode(r->p, N_TILER, loc, &l);
}

/* NAME [op expr]: a record's field (op ':') or a parameter (op '=') */
static lytP_node *named_item(rd *r, int kind, int op) {
  lytP_token n = expect(r, TK_NAME);
  lytP_node *v = NULL;
  if (r->t.type == op) {
    next(r);
    v = expr(r, L_ELSE);
  }
  return lytP_named(r->p, kind, &n, v);
}

/* { nls } | { nls field (, nls field)* nls }, field ::= NAME [: expr] */
RARE static lytP_node *record(rd *r) {
  lytP_token t = expect(r, TK_LBRACE);
  lytP_list l = { 0 };
  skip_newlines(r);
  if (r->t.type != TK_RBRACE) {
    for (;;) {
      lytP_list_add(r->p, &l, named_item(r, N_FIELD, TK_COLON));
      if (r->t.type != TK_COMMA) break;
      next(r);
      skip_newlines(r);
    }
    skip_newlines(r);
  }
  skip(r, TK_RBRACE);
  return lytP_listnode(r->p, N_RECORD, t.loc, &l);
}

static lytP_node *primary(rd *r) {
  int kind;
  switch (r->t.type) {
    case TK_INT: kind = N_INT; break;
    case TK_STRING: kind = N_STR; break;
    case TK_ATTR: kind = N_ATTR; break;
    case TK_NAME: kind = N_NAME; break;
    case TK_UNDER: kind = N_UNDER; break;
    case TK_TRUE: case TK_FALSE: kind = N_BOOL; break;
    case TK_NIL: kind = N_NIL; break;
    case TK_LPAREN: return paren(r);
    case TK_LBRACKET: return tiler(r);
    case TK_LBRACE: return record(r);
    default: unexpected(r);
  }
  lytP_node *n = lytP_leaf(r->p, kind, &r->t);
  if (r->t.type == TK_TRUE) n->ival = 1;
  next(r);
  return n;
}

static lytP_node *expr_from_name(rd *r, const lytP_token *name, int min);

static lytP_node *positional(rd *r, lytP_node *x) {
  lytP_node *a = lytP_node_new(r->p, N_ARG, x->loc);
  a->a = x;
  return a;
}

/* arg ::= NAME = expr | expr */
static lytP_node *arg(rd *r) {
  if (r->t.type != TK_NAME) return positional(r, expr(r, L_ELSE));
  lytP_token n = r->t;
  next(r);
  if (r->t.type != TK_ASSIGN) return positional(r, expr_from_name(r, &n, L_ELSE));
  next(r);
  return lytP_named(r->p, N_ARG, &n, expr(r, L_ELSE));
}

/* Calls, fields and indexing after a primary: f(args), r.name, t[i]. */
static lytP_node *postfix(rd *r, lytP_node *a) {
  for (;;) {
    int type = r->t.type;
    if (type == TK_LPAREN) {
      lytP_list l = { 0 };
      lytP_node *c = lytP_listnode(r->p, N_CALL, a->loc, &l);
      c->a = a;
      next(r);
      if (r->t.type != TK_RPAREN) {
        lytP_list_add(r->p, &l, arg(r));
        while (r->t.type == TK_COMMA) {
          next(r);
          lytP_list_add(r->p, &l, arg(r));
        }
      }
      skip(r, TK_RPAREN);
      c->list = l.head, c->n = l.n;
      a = c;
    } else if (type == TK_DOT) {
      lyt_loc dot = r->t.loc;
      next(r);
      if (r->t.type != TK_NAME) unexpected(r);
      a = lytP_named(r->p, N_DOT, &r->t, a);
      a->loc = dot;
      next(r);
    } else if (type == TK_LBRACKET) {
      a = lytP_binary(r->p, N_INDEX, &r->t, a, NULL);
      next(r);
      a->b = expr(r, L_ELSE);
      skip(r, TK_RBRACKET);
    } else {
      return a;
    }
  }
}

/* params ::= [param (, param)*], param ::= NAME [= expr]; then fn's
** `= nls expr` (an expression reaching as far as an `else` would) or its
** block (a primary). */
RARE static lytP_node *function(rd *r) {
  lytP_token fn = expect(r, TK_FN), name = fn;
  int named = r->t.type == TK_NAME;
  if (named) name = expect(r, TK_NAME);
  skip(r, TK_LPAREN);
  lytP_list params = { 0 };
  if (r->t.type != TK_RPAREN) {
    for (;;) {
      lytP_list_add(r->p, &params, named_item(r, N_PARAM, TK_ASSIGN));
      if (r->t.type != TK_COMMA) break;
      next(r);
    }
  }
  skip(r, TK_RPAREN);
  if (r->t.type == TK_ASSIGN) {
    next(r);
    skip_newlines(r);
    lytP_node *body = expr(r, L_ELSE);
    return lytP_function(r->p, &fn, named ? &name : NULL, &params, body);
  }
  lytP_node *body = block(r);
  return postfix(r, lytP_function(r->p, &fn, named ? &name : NULL, &params, body));
}

/* if cond then x else y, cond already read */
static lytP_node *if_expr(rd *r, const lytP_token *t, lytP_node *cond) {
  skip(r, TK_THEN);
  lytP_node *x = expr(r, L_ELSE);
  skip(r, TK_ELSE);
  lytP_node *n = lytP_binary(r->p, N_IF, t, x, expr(r, L_ELSE));
  n->c = cond;
  return n;
}

/* Prefix operators and if-expressions. */
RARE static lytP_node *prefix(rd *r) {
  lytP_token t = r->t;
  next(r);
  switch (t.type) {
    case TK_NOT: return lytP_unary(r->p, N_UNOP, &t, expr(r, L_CMP));
    case TK_MINUS: return lytP_negate(r->p, &t, expr(r, L_UNARY));
    case TK_TILDE: return lytP_unary(r->p, N_UNOP, &t, expr(r, L_UNARY));
    default: return if_expr(r, &t, expr(r, L_ELSE));
  }
}

/* An operand: a prefix operator, an if-expression, a function, or a
** primary with what follows it. */
static lytP_node *operand(rd *r) {
  int type = r->t.type;
  if (type == TK_NOT || type == TK_MINUS || type == TK_TILDE || type == TK_IF) return prefix(r);
  if (type == TK_FN) return function(r);
  lytP_node *a = primary(r);
  type = r->t.type;
  return type == TK_LPAREN || type == TK_DOT || type == TK_LBRACKET ? postfix(r, a) : a;
}

/* The binary operators of level min and above after a, and `@`. The
** comparisons and `:`, `->` do not chain (a == b == c is an error at the
** second operator, where Lemon's automaton stops). */
static lytP_node *infix(rd *r, lytP_node *a, int min) {
  for (;;) {
    int type = r->t.type, lv = level_of(type);
    if (lv == L_NONE || lv < min) return a;
    if (lv == L_AT) {  /* a@axis, v@mode: a name or an integer, never an expression */
      a = lytP_binary(r->p, N_AXIS, &r->t, a, NULL);
      next(r);
      if (r->t.type == TK_NAME) a->str = r->t.s, a->len = r->t.len;
      else if (r->t.type == TK_INT) a->kind = N_BASIS, a->ival = r->t.ival;
      else unexpected(r);
      next(r);
      continue;
    }
    int kind = type == TK_COLON ? N_LAYOUT : type == TK_AND ? N_AND
             : type == TK_OR ? N_OR : N_BINOP;
    a = lytP_binary(r->p, kind, &r->t, a, NULL);
    next(r);
    a->b = expr(r, lv + 1);
    if ((lv == L_CMP || lv == L_COLON) && level_of(r->t.type) == lv) unexpected(r);
  }
}

static lytP_node *expr(rd *r, int min) {
  enter(r);
  lytP_node *a = operand(r);
  int lv = level_of(r->t.type);
  if (lv != L_NONE && lv >= min) a = infix(r, a, min);
  r->depth--;
  return a;
}

/* An expression whose first token, a name, is read already. */
static lytP_node *expr_from_name(rd *r, const lytP_token *name, int min) {
  enter(r);
  lytP_node *a = infix(r, postfix(r, lytP_leaf(r->p, N_NAME, name)), min);
  r->depth--;
  return a;
}

/* { stmt? (sep stmt?)* } */
static lytP_node *block(rd *r) {
  lytP_token t = expect(r, TK_LBRACE);
  lytP_list l = { 0 };
  enter(r);
  while (r->t.type != TK_RBRACE) {
    if (is_sep(r->t.type)) {
      next(r);
      continue;
    }
    lytP_list_add(r->p, &l, stmt(r));
    if (r->t.type != TK_RBRACE && !is_sep(r->t.type)) unexpected(r);
  }
  r->depth--;
  next(r);
  return lytP_listnode(r->p, N_BLOCK, t.loc, &l);
}

/* if cond block [else (block | ifstmt)], the if read */
static lytP_node *if_stmt(rd *r, const lytP_token *t, lytP_node *cond) {
  lytP_node *n = lytP_unary(r->p, N_IFSTMT, t, cond);
  n->b = block(r);
  if (r->t.type == TK_ELSE) {
    next(r);
    if (r->t.type == TK_IF) {
      lytP_token i = r->t;
      next(r);
      lytP_node *c = expr(r, L_ELSE);
      n->c = if_stmt(r, &i, c);
    } else {
      n->c = block(r);
    }
  }
  return n;
}

/* A builder's error (the names `in`, `as`) ends the statement. It is
** found when the token after the statement is read, which Lemon's
** automaton goes on to parse: a token that cannot follow a statement is
** a second error. */
static lytP_node *checked(rd *r, int before, lytP_node *n) {
  if (r->p->nerr == before) return n;
  int type = r->t.type;
  if (!is_sep(type) && type != TK_RBRACE && type != 0) unexpected(r);
  fail(r);
}

/* import "path" [as NAME] */
RARE static lytP_node *import(rd *r) {
  int before = r->p->nerr;
  lytP_token t = expect(r, TK_IMPORT), path = expect(r, TK_STRING);
  if (r->t.type != TK_NAME) return lytP_import(r->p, &t, &path, NULL, NULL);
  lytP_token as = expect(r, TK_NAME), name = expect(r, TK_NAME);
  return checked(r, before, lytP_import(r->p, &t, &path, &as, &name));
}

/* #name = #dialect.attr<...> */
RARE static lytP_node *alias(rd *r) {
  lytP_token t = expect(r, TK_ALIAS), a = expect(r, TK_ATTR);
  return lytP_named(r->p, N_ALIASDEF, &t, lytP_leaf(r->p, N_ATTR, &a));
}

/* for NAME in expr block */
RARE static lytP_node *for_stmt(rd *r) {
  int before = r->p->nerr;
  lytP_token t = expect(r, TK_FOR), name = expect(r, TK_NAME), in = expect(r, TK_NAME);
  lytP_node *e = expr(r, L_ELSE);
  lytP_node *b = block(r);
  return checked(r, before, lytP_for(r->p, &t, &name, &in, e, b));
}

static lytP_node *stmt(rd *r) {
  lytP_ctx *p = r->p;
  lytP_token t = r->t;
  switch (t.type) {
    case TK_NAME:
      next(r);
      if (r->t.type != TK_ASSIGN) return lytP_exprstmt(p, expr_from_name(r, &t, L_ELSE));
      next(r);
      return lytP_named(p, N_ASSIGN, &t, expr(r, L_ELSE));
    case TK_PRINT: {
      next(r);
      lytP_list l = { 0 };
      int end = is_sep(r->t.type) || r->t.type == TK_RBRACE || r->t.type == 0;
      if (!end) exprlist(r, &l);
      return lytP_listnode(p, N_PRINT, t.loc, &l);
    }
    case TK_SHOW: next(r); return lytP_unary(p, N_SHOW, &t, expr(r, L_ELSE));
    case TK_RETURN: next(r); return lytP_unary(p, N_RETURN, &t, expr(r, L_ELSE));
    case TK_BREAK: case TK_CONTINUE:
      next(r);
      return lytP_node_new(p, t.type == TK_BREAK ? N_BREAK : N_CONTINUE, t.loc);
    case TK_IMPORT: return import(r);
    case TK_ALIAS: return alias(r);
    case TK_FOR: return for_stmt(r);
    case TK_WHILE: {
      next(r);
      lytP_node *n = lytP_unary(p, N_WHILE, &t, expr(r, L_ELSE));
      n->b = block(r);
      return n;
    }
    case TK_IF: {  /* a statement, or an expression that begins with if */
      next(r);
      lytP_node *cond = expr(r, L_ELSE);
      if (r->t.type == TK_LBRACE) return if_stmt(r, &t, cond);
      return lytP_exprstmt(p, if_expr(r, &t, cond));  /* its else takes every operator */
    }
    default: return lytP_exprstmt(p, expr(r, L_ELSE));
  }
}

/* The key lytP_valid read of line p->line, or NULL. */
static lytL_key *key_of_line(const lytP_ctx *p) {
  const lytP_line_keys *k = &p->line_keys;
  int32_t i = p->line - k->line0;
  if (i < 0 || i >= k->n || !k->of[i]) return NULL;
  return k->list[k->of[i] - 1];
}

/* The lines on_line runs itself, from the start of the line at the
** lexer: all of them, or up to the one it leaves to the parser. */
static void lines(lytP_ctx *p) {
  const char *end = p->src->text + p->src->len;
  while (p->cur == p->linestart && p->cur < end) {
    int n = p->on_line(p->on_stmt_ud, p->src, p->cur, p->line, key_of_line(p));
    if (!n) {
      p->missed = p->cur, p->missed_line = p->line;
      return;
    }
    p->cur += n, p->line++, p->linestart = p->cur;
  }
}

/* chunk ::= stmt? (sep stmt?)*, each statement handed over when its
** separator is seen. */
static void chunk(rd *r) {
  lytP_ctx *p = r->p;
  for (;;) {
    while (is_sep(r->t.type)) {
      if (r->t.type == TK_NEWLINE && p->on_line) lines(p);
      next(r);
    }
    if (r->t.type == 0) return;
    int32_t first = r->t.loc.line;
    lytP_node *s = stmt(r);
    if (!is_sep(r->t.type) && r->t.type != 0) unexpected(r);
    /* the line it began on ended it (one newline read since) */
    int whole = p->missed_line == first && r->t.type == TK_NEWLINE && p->line == first + 1;
    p->missed_line = 0;
    lytP_stmt(p, s, whole ? p->missed : NULL);
  }
}

/* Reads the first token (at the start, or past the boundary an error was
** skipped to) and the statements from there: 1 after an error. */
static int run(rd *r) {
  if (setjmp(r->err)) return 1;
  next(r);
  chunk(r);
  return 0;
}

void lytP_skip_statement(lytP_ctx *p, lytP_token *t) {
  int braces = 0;
  while (t->type != 0 && !(braces == 0 && is_sep(t->type))) {
    if (t->type == TK_LBRACE) braces++;
    if (t->type == TK_RBRACE && braces > 0) braces--;
    lytL_lex(p, t);
  }
}

int lytP_parse(lytP_ctx *p) {
  rd r;
  r.p = p;
  r.depth = 0;
  /* Between statements nothing stays in the arena (texts go to keep, the
  ** tokens a statement ends on allocate nothing, and each statement is
  ** given back): every statement begins where the first one does. */
  if (p->on_stmt) p->stmt_mark = lytA_getmark(p->cx->arena);
  while (run(&r) && p->nerr < LYT_MAX_SYNTAX_ERRORS && r.t.type != 0) {
    r.depth = 0;
    lytP_skip_statement(p, &r.t);
    if (r.t.type == 0) break;
  }
  return p->nerr ? LYT_ERRSYNTAX : LYT_OK;
}
