/*
** unparse.c: syntax trees back into source text, and their comparison.
**
** A function value prints as its definition, so a printed function reads
** back as an equal one (eval/value.c). The text needs no precedence
** rules: the tree keeps every pair of parentheses the source had (N_PAREN),
** so writing each node in its one canonical form gives tokens that parse
** to the same tree. Blocks go on one line, their statements separated by
** `;`, which reads the same inside brackets, where newlines do not count.
*/
#include <string.h>

#include "lang/parse.h"
#include "parser.h"

void lytP_quote(lytS_buf *b, const char *s, size_t n) {
  lytS_buf_add(b, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    char ch = s[i];
    if (ch == '\n') lytS_buf_add(b, "\\n", 2);
    else if (ch == '\t') lytS_buf_add(b, "\\t", 2);
    else {
      if (ch == '"' || ch == '\\') lytS_buf_add(b, "\\", 1);
      lytS_buf_add(b, &ch, 1);
    }
  }
  lytS_buf_add(b, "\"", 1);
}

/* An operator as written: its token name without the quotes. */
static void op(lytS_buf *b, int type) {
  const char *q = lytP_tokname(type);
  lytS_buf_add(b, q + 1, strlen(q) - 2);
}

static void node(lytS_buf *b, const lytP_node *n);

static void seq(lytS_buf *b, const lytP_node *first, const char *sep) {
  for (const lytP_node *e = first; e; e = e->next) {
    if (e != first) lytS_buf_puts(b, sep);
    node(b, e);
  }
}

static void block(lytS_buf *b, const lytP_node *blk) {
  lytS_buf_puts(b, blk->list ? "{ " : "{");
  seq(b, blk->list, "; ");
  lytS_buf_puts(b, " }");
}

/* fn [name](params) = expr, or fn [name](params) { ... } */
static void function(lytS_buf *b, const lytP_node *f) {
  lytS_buf_puts(b, "fn");
  if (f->str) lytS_buf_printf(b, " %s", f->str);
  lytS_buf_add(b, "(", 1);
  seq(b, f->list, ", ");
  lytS_buf_puts(b, f->a->kind == N_BLOCK ? ") " : ") = ");
  node(b, f->a);
}

static void if_stmt(lytS_buf *b, const lytP_node *s) {
  lytS_buf_puts(b, "if ");
  node(b, s->a);
  lytS_buf_add(b, " ", 1);
  block(b, s->b);
  if (!s->c) return;
  lytS_buf_puts(b, " else ");
  s->c->kind == N_BLOCK ? block(b, s->c) : if_stmt(b, s->c);
}

/* name, then " = " and a if there is one: a keyword argument, a parameter
** with its default, an assignment */
static void named(lytS_buf *b, const lytP_node *n, const char *eq) {
  if (n->str) lytS_buf_puts(b, n->str);
  if (n->str && n->a) lytS_buf_puts(b, eq);
  if (n->a) node(b, n->a);
}

static void node(lytS_buf *b, const lytP_node *n) {
  lytS_check_stack(b->cx);  /* a chain of 100,000 additions is one long left spine */
  switch (n->kind) {
    case N_INT: lytS_buf_int(b, n->ival); break;
    case N_STR: lytP_quote(b, n->str, (size_t)n->len); break;
    case N_NAME: case N_ATTR: lytS_buf_add(b, n->str, (size_t)n->len); break;
    case N_UNDER: lytS_buf_add(b, "_", 1); break;
    case N_BOOL: lytS_buf_puts(b, n->ival ? "true" : "false"); break;
    case N_NIL: lytS_buf_puts(b, "nil"); break;
    case N_PAREN: lytS_buf_add(b, "(", 1); node(b, n->a); lytS_buf_add(b, ")", 1); break;
    case N_TUPLE:
      lytS_buf_add(b, "(", 1);
      seq(b, n->list, ", ");
      lytS_buf_puts(b, n->n == 1 ? ",)" : ")");
      break;
    case N_TILER: lytS_buf_add(b, "[", 1); seq(b, n->list, ", "); lytS_buf_add(b, "]", 1); break;
    case N_LAYOUT: node(b, n->a); lytS_buf_add(b, ":", 1); node(b, n->b); break;
    case N_BINOP: case N_AND: case N_OR:
      node(b, n->a);
      lytS_buf_add(b, " ", 1);
      op(b, n->op);
      lytS_buf_add(b, " ", 1);
      node(b, n->b);
      break;
    case N_UNOP:
      op(b, n->op);
      if (n->op == TK_NOT || n->a->kind == N_UNOP) lytS_buf_add(b, " ", 1);
      node(b, n->a);
      break;
    case N_IF:
      lytS_buf_puts(b, "if ");
      node(b, n->c);
      lytS_buf_puts(b, " then ");
      node(b, n->a);
      lytS_buf_puts(b, " else ");
      node(b, n->b);
      break;
    case N_CALL: node(b, n->a); lytS_buf_add(b, "(", 1); seq(b, n->list, ", "); lytS_buf_add(b, ")", 1); break;
    case N_ARG: case N_PARAM: named(b, n, "="); break;
    case N_FIELD: named(b, n, ": "); break;
    case N_INDEX: node(b, n->a); lytS_buf_add(b, "[", 1); node(b, n->b); lytS_buf_add(b, "]", 1); break;
    case N_RECORD: lytS_buf_add(b, "{", 1); seq(b, n->list, ", "); lytS_buf_add(b, "}", 1); break;
    case N_DOT: node(b, n->a); lytS_buf_printf(b, ".%s", n->str); break;
    case N_AXIS: node(b, n->a); lytS_buf_printf(b, "@%s", n->str); break;
    case N_BASIS: node(b, n->a); lytS_buf_printf(b, "@%lld", (long long)n->ival); break;
    case N_ASSIGN: named(b, n, " = "); break;
    case N_PRINT: lytS_buf_puts(b, n->list ? "print " : "print"); seq(b, n->list, ", "); break;
    case N_SHOW: lytS_buf_puts(b, "show "); node(b, n->a); break;
    case N_IMPORT:
      lytS_buf_puts(b, "import ");
      lytP_quote(b, n->str, (size_t)n->len);
      if (n->b) lytS_buf_printf(b, " as %s", n->b->str);
      break;
    case N_ALIASDEF: lytS_buf_printf(b, "#%s = ", n->str); node(b, n->a); break;
    case N_FNDEF: case N_FUNC: function(b, n); break;
    case N_BLOCK: block(b, n); break;
    case N_RETURN: lytS_buf_puts(b, "return "); node(b, n->a); break;
    case N_FOR:
      lytS_buf_printf(b, "for %s in ", n->str);
      node(b, n->a);
      lytS_buf_add(b, " ", 1);
      block(b, n->b);
      break;
    case N_WHILE: lytS_buf_puts(b, "while "); node(b, n->a); lytS_buf_add(b, " ", 1); block(b, n->b); break;
    case N_IFSTMT: if_stmt(b, n); break;
    case N_BREAK: lytS_buf_puts(b, "break"); break;
    case N_CONTINUE: lytS_buf_puts(b, "continue"); break;
    case N_EXPRSTMT: node(b, n->a); break;
  }
}

void lytP_unparse(lytS_buf *b, const lytP_node *n) { node(b, n); }

/* ---- comparison: the same tree, wherever it was written ---- */

static int same_text(const lytP_node *a, const lytP_node *b) {
  if (!a->str || !b->str) return a->str == b->str;
  return a->len == b->len && memcmp(a->str, b->str, (size_t)a->len) == 0;
}

static int kind_of(const lytP_node *n) { return n->kind == N_FNDEF ? N_FUNC : n->kind; }

/* What each kind keeps in str and ival; locations never count. */
static int same_leaf(const lytP_node *a, const lytP_node *b) {
  switch (a->kind) {
    case N_INT: case N_BOOL: case N_BASIS: return a->ival == b->ival;
    case N_BINOP: case N_UNOP: return a->op == b->op;
    case N_STR: case N_NAME: case N_ATTR: case N_ARG: case N_FIELD: case N_DOT: case N_AXIS:
    case N_ASSIGN: case N_IMPORT: case N_ALIASDEF: case N_FNDEF: case N_FUNC: case N_PARAM:
    case N_FOR:
      return same_text(a, b);
    default: return 1;
  }
}

int lytP_same(const lytP_node *a, const lytP_node *b) {
  for (;;) {
    if (!a || !b) return a == b;
    if (kind_of(a) != kind_of(b) || a->n != b->n || !same_leaf(a, b)) return 0;
    if (!lytP_same(a->b, b->b) || !lytP_same(a->c, b->c)) return 0;
    const lytP_node *x = a->list, *y = b->list;
    for (; x && y; x = x->next, y = y->next)
      if (!lytP_same(x, y)) return 0;
    if (x || y) return 0;
    a = a->a, b = b->a;  /* the usual deep chain: a loop, not a call */
  }
}
