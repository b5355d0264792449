/*
** build.c: AST builders for the grammar actions, syntax-error recording
** and the diagnostic format shared by every error lyt reports.
*/
#include <stdio.h>
#include <string.h>

#include "lang/parse.h"
#include "parser.h"

lytP_node *lytP_unary(lytP_ctx *p, int kind, const lytP_token *op, lytP_node *a) {
  lytP_node *n = lytP_node_new(p, kind, op->loc);
  n->op = (uint8_t)op->type;
  n->a = a;
  return n;
}

/* -a. A minus written before an integer makes a negative literal (its op
** says it was written so), as CuTe text has them: `(-1)` is then a literal
** like `(1)`, and a stride such as `(4,2):(-1,4)` is all literal. */
lytP_node *lytP_negate(lytP_ctx *p, const lytP_token *minus, lytP_node *a) {
  if (a->kind != N_INT) return lytP_unary(p, N_UNOP, minus, a);
  a->ival = -a->ival;  /* a literal is at most INT64_MAX: no overflow */
  a->op = TK_MINUS;
  a->loc = minus->loc;
  return a;
}

lytP_node *lytP_binary(lytP_ctx *p, int kind, const lytP_token *op,
                       lytP_node *a, lytP_node *b) {
  lytP_node *n = lytP_unary(p, kind, op, a);
  n->b = b;
  return n;
}

lytP_node *lytP_named(lytP_ctx *p, int kind, const lytP_token *name, lytP_node *a) {
  lytP_node *n = lytP_leaf(p, kind, name);
  n->a = a;
  return n;
}

/* for NAME in EXPR BLOCK, `in` read as a name (it is a dim name too) */
lytP_node *lytP_for(lytP_ctx *p, const lytP_token *f, const lytP_token *name,
                    const lytP_token *in, lytP_node *e, lytP_node *body) {
  if (strcmp(in->s, "in") != 0)
    lytP_error(p, in->loc, "expected 'in' after the loop variable, got '%s'", in->s);
  lytP_node *n = lytP_named(p, N_FOR, name, e);
  n->b = body;
  n->loc = f->loc;
  return n;
}

/* import "path" [as NAME]: str the path, b the name's leaf */
lytP_node *lytP_import(lytP_ctx *p, const lytP_token *imp, const lytP_token *path,
                       const lytP_token *as, const lytP_token *name) {
  lytP_node *n = lytP_leaf(p, N_IMPORT, path);
  n->loc = imp->loc;
  if (!as) return n;
  if (strcmp(as->s, "as") != 0)
    lytP_error(p, as->loc, "expected 'as' after the imported path, got '%s'", as->s);
  n->b = lytP_leaf(p, N_NAME, name);
  return n;
}

/* fn [NAME](params) = expr | block: an expression (N_FUNC), named or not */
lytP_node *lytP_function(lytP_ctx *p, const lytP_token *fn, const lytP_token *name,
                         lytP_list *params, lytP_node *body) {
  lytP_node *n = name ? lytP_named(p, N_FUNC, name, body) : lytP_unary(p, N_FUNC, fn, body);
  p->made_fn = 1;
  n->list = params->head;
  n->n = params->n;
  return n;
}

/* A named function written as a statement defines its name (JavaScript's
** function declaration); anywhere else it is a value that binds nothing. */
lytP_node *lytP_exprstmt(lytP_ctx *p, lytP_node *e) {
  if (e->kind == N_FUNC && e->str) {
    e->kind = N_FNDEF;
    return e;
  }
  lytP_node *s = lytP_node_new(p, N_EXPRSTMT, e->loc);
  s->a = e;
  return s;
}

lytP_list *lytP_list_new(lytP_ctx *p) {
  lytP_list *l = lytS_alloc(p->cx, sizeof *l);
  l->head = l->tail = NULL;
  l->n = 0;
  return l;
}

static lytP_node *copy_node(lytP_ctx *p, const lytP_node *n);

/* A list (through next) in p->keep: a loop, however long the list. */
static lytP_node *copy_list(lytP_ctx *p, const lytP_node *n) {
  lytP_node *head = NULL, **at = &head;
  for (; n; n = n->next, at = &(*at)->next) *at = copy_node(p, n);
  return head;
}

/* n and its children in p->keep, its next left to the list it is in. */
static lytP_node *copy_node(lytP_ctx *p, const lytP_node *n) {
  if (!n) return NULL;
  lytS_check_stack(p->cx);
  lytP_node *c = lytS_alloc_in(p->cx, p->keep, sizeof *c);
  *c = *n;  /* its texts are in p->keep already (text_alloc), names interned */
  c->next = NULL;
  if (c->kind == N_TUPLE) c->tup = NULL;  /* made in the statement's arena, which goes */
  c->a = copy_node(p, n->a), c->b = copy_node(p, n->b), c->c = copy_node(p, n->c);
  c->list = copy_list(p, n->list);
  return c;
}

void lytP_stmt(lytP_ctx *p, lytP_node *s, const char *line) {
  if (!p->on_stmt) {
    lytP_list_add(p, &p->stmts, s);
    return;
  }
  if (p->nerr) return;  /* lytP_valid missed an error: nothing more runs; the caller reports it */
  const lytP_node *run = p->made_fn ? copy_node(p, s) : s;
  p->made_fn = 0;
  p->on_stmt(p->on_stmt_ud, run, line);
  lytA_release(p->cx->arena, p->stmt_mark);
}

void lytP_error(lytP_ctx *p, lyt_loc loc, const char *fmt, ...) {
  char msg[LYT_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (p->nerr >= LYT_MAX_SYNTAX_ERRORS) return;
  if (p->nerr == 0) {
    p->errloc = loc;
    memcpy(p->errmsg, msg, sizeof msg);
  } else {
    p->incomplete = 0;  /* more than a missing tail: not resumable */
  }
  p->nerr++;
  lytL_format_diag(&p->diag, loc, msg);
}

/* A token no sentence of the grammar continues with. At the end of
** input, with no error before, the text may only be unfinished. */
void lytP_unexpected(lytP_ctx *p, const lytP_token *t) {
  if (t->type == 0) {
    if (p->nerr == 0) p->incomplete = 1;
    lytP_error(p, t->loc, "unexpected end of input");
  } else if (t->type == TK_NAME) {
    lytP_error(p, t->loc, "unexpected name '%s'", t->s);
  } else if (t->type == TK_INT) {
    lytP_error(p, t->loc, "unexpected integer %lld", (long long)t->ival);
  } else {
    lytP_error(p, t->loc, "unexpected %s", lytP_tokname(t->type));
  }
}

const char *lytP_tokname(int type) {
  switch (type) {
    case 0: return "end of input";
    case TK_NEWLINE: return "end of line";
    case TK_INT: return "integer";
    case TK_STRING: return "string";
    case TK_ATTR: return "attribute";
    case TK_ALIAS: return "alias definition";
    case TK_NAME: return "name";
    case TK_UNDER: return "'_'";
    case TK_FN: return "'fn'";
    case TK_RETURN: return "'return'";
    case TK_PRINT: return "'print'";
    case TK_SHOW: return "'show'";
    case TK_IMPORT: return "'import'";
    case TK_IF: return "'if'";
    case TK_THEN: return "'then'";
    case TK_ELSE: return "'else'";
    case TK_AND: return "'and'";
    case TK_OR: return "'or'";
    case TK_NOT: return "'not'";
    case TK_TRUE: return "'true'";
    case TK_FALSE: return "'false'";
    case TK_NIL: return "'nil'";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACKET: return "'['";
    case TK_RBRACKET: return "']'";
    case TK_LBRACE: return "'{'";
    case TK_RBRACE: return "'}'";
    case TK_COMMA: return "','";
    case TK_DOT: return "'.'";
    case TK_COLON: return "':'";
    case TK_SEMI: return "';'";
    case TK_ASSIGN: return "'='";
    case TK_EQ: return "'=='";
    case TK_NE: return "'!='";
    case TK_LT: return "'<'";
    case TK_LE: return "'<='";
    case TK_GT: return "'>'";
    case TK_GE: return "'>='";
    case TK_PLUS: return "'+'";
    case TK_MINUS: return "'-'";
    case TK_ARROW: return "'->'";
    case TK_AT: return "'@'";
    case TK_STAR: return "'*'";
    case TK_SLASH: return "'/'";
    case TK_PERCENT: return "'%'";
    case TK_SHL: return "'<<'";
    case TK_SHR: return "'>>'";
    case TK_CARET: return "'^'";
    case TK_AMP: return "'&'";
    case TK_PIPE: return "'|'";
    case TK_TILDE: return "'~'";
    case TK_FOR: return "'for'";
    case TK_WHILE: return "'while'";
    case TK_BREAK: return "'break'";
    case TK_CONTINUE: return "'continue'";
    default: return "token";
  }
}

/* The caret line keeps the source's tabs so the caret lines up. */
void lytL_format_diag(lytS_buf *b, lyt_loc loc, const char *msg) {
  lytL_format_at(b, loc, "error", msg);
}

void lytL_format_at(lytS_buf *b, lyt_loc loc, const char *kind, const char *msg) {
  if (!loc.src) {
    lytS_buf_printf(b, "%s: %s\n", kind, msg);
    return;
  }
  lytS_buf_printf(b, "%s:%d:%d: %s: %s\n", loc.src->name, (int)loc.line,
                  (int)loc.col, kind, msg);
  const char *s = loc.src->text, *end = s + loc.src->len;
  for (int32_t l = loc.src->first_line ? loc.src->first_line : 1; l < loc.line && s < end; s++)
    if (*s == '\n') l++;
  const char *e = s;
  while (e < end && *e != '\n' && *e != '\0') e++;
  if (e > s && e[-1] == '\r') e--;
  lytS_buf_add(b, s, (size_t)(e - s));
  lytS_buf_add(b, "\n", 1);
  for (int32_t i = 1; i < loc.col && s + i - 1 < e; i++)
    lytS_buf_add(b, s[i - 1] == '\t' ? "\t" : " ", 1);
  lytS_buf_add(b, "^\n", 2);
}
