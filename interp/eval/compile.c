/*
** eval/compile.c: syntax trees into code (eval/code.h). Expressions
** compile to postfix order; `and`, `or`, `if` and the statements to
** jumps. A loop's `break` and `continue` are jumps to labels patched when
** the loop ends (a list threaded through the jumps' operands); outside a
** loop they compile to an error raised when reached, as before. The
** compiler tracks the operand stack's depth to size it.
*/
#include <string.h>

#include "parser.h"
#include "interp/eval/code.h"
#include "interp/eval/value.h"

#define NO_LIST (-1)

typedef struct loop {
  int32_t brk, cont;  /* lists of jumps to patch */
  int32_t slot;       /* its OP_MARK slot */
  struct loop *up;
} loop;

typedef struct comp {
  lytS_ctx *cx;
  lyt_loc *errloc;
  lytC_ins *v;
  int32_t n, cap;
  int32_t depth, maxdepth, nloops;
  loop *loop;
} comp;

/* Code outgrowing the buffer it starts in (on the C stack of
** lytC_statement or lytC_function) moves to the context's arena; finish
** copies it where it stays. */
static void grow(comp *c) {
  int32_t cap = 2 * c->cap;
  lytC_ins *v = lytS_alloc(c->cx, sizeof *v * (size_t)cap);
  memcpy(v, c->v, sizeof *v * (size_t)c->n);
  c->v = v, c->cap = cap;
}

static inline int32_t emit(comp *c, int op, int32_t a, int32_t b, const lytP_node *n, int32_t effect) {
  if (c->n == c->cap) grow(c);
  c->v[c->n] = (lytC_ins){ (uint8_t)op, a, b, n };
  c->depth += effect;
  if (c->depth > c->maxdepth) c->maxdepth = c->depth;
  return c->n++;
}

/* Point every jump of a list (threaded through operand a) at here. */
static void patch(comp *c, int32_t list) {
  while (list != NO_LIST) {
    int32_t next = c->v[list].a;
    c->v[list].a = c->n;
    list = next;
  }
}

static void expr(comp *c, const lytP_node *n);

/* A tuple written with integers, `_` and such tuples only, as CuTe text
** is: one instruction makes it, where each element would be one. */
static int int_tuple(comp *c, const lytP_node *n) {
  if (n->kind != N_TUPLE) return 0;
  if (n->tup) return 1;  /* the parser made its tuple: it is one */
  lytS_check_stack(c->cx);
  for (const lytP_node *e = n->list; e; e = e->next)
    if (e->kind != N_INT && e->kind != N_UNDER && !int_tuple(c, e)) return 0;
  return 1;
}

/* A side of a layout OP_INTLAYOUT makes at once. */
static int int_side(comp *c, const lytP_node *n) { return n->kind == N_INT || int_tuple(c, n); }

/* `(3)`, `(-1)`, `(_)`, `((4))`, `((2,3))`: CuTe text (CuTe prints a
** rank-1 negative stride as `(-1)`; lytP_negate makes -1 a literal), so
** a rank-1 tuple wherever it is written. `(x)`, `(-x)` and `(1+2)` stay
** grouping. */
static int literal_paren(const lytP_node *n) {
  const lytP_node *a = n->a;
  return a->kind == N_INT || a->kind == N_UNDER || a->kind == N_TUPLE ||
         (a->kind == N_PAREN && literal_paren(a));
}

/* An operator's operand: there `(-1)`, an integer written with a minus, is
** the integer, as in `2*(-1)`, which scripts write far more often than
** they combine rank-1 tuples. */
static void operand(comp *c, const lytP_node *n) {
  int negative = n->kind == N_PAREN && n->a->kind == N_INT && n->a->op == TK_MINUS;
  expr(c, negative ? n->a : n);
}

/* Inside a tuple literal and on either side of `:`, `(x)` is the rank-1
** tuple CuTe prints as `(x)`. */
static void shape(comp *c, const lytP_node *n) {
  if (n->kind != N_PAREN) { expr(c, n); return; }
  shape(c, n->a);
  emit(c, OP_WRAP1, 0, 0, n, 0);
}

static void list(comp *c, const lytP_node *n, int as_shape) {
  for (const lytP_node *e = n->list; e; e = e->next) as_shape ? shape(c, e) : expr(c, e);
}

/* a and b, a or b: the left operand decides, or the right one's truth. */
static void logic(comp *c, const lytP_node *n) {
  expr(c, n->a);
  int32_t j = emit(c, n->kind == N_AND ? OP_AND : OP_OR, NO_LIST, 0, n->a, -1);
  expr(c, n->b);
  emit(c, OP_TOBOOL, 0, 0, n->b, 0);
  patch(c, j);
}

static void expr(comp *c, const lytP_node *n) {
  if (lytS_stack_deep(c->cx)) {  /* a located error, not a host's stack overflow */
    *c->errloc = n->loc;
    lytS_check_stack(c->cx);
  }
  switch (n->kind) {
    case N_INT: case N_BOOL: case N_NIL: case N_UNDER: case N_STR:
      emit(c, OP_CONST, 0, 0, n, 1); break;
    case N_NAME: emit(c, OP_NAME, 0, 0, n, 1); break;
    case N_PAREN: literal_paren(n) ? shape(c, n) : expr(c, n->a); break;
    case N_TUPLE:
      if (int_tuple(c, n)) { emit(c, OP_INTTUPLE, 0, 0, n, 1); break; }
      list(c, n, 1);
      emit(c, OP_TUPLE, n->n, LYT_VTUP, n, 1 - n->n);
      break;
    case N_TILER: list(c, n, 0); emit(c, OP_TUPLE, n->n, LYT_VTILER, n, 1 - n->n); break;
    case N_LAYOUT:
      if (int_side(c, n->a) && int_side(c, n->b)) {
        emit(c, OP_INTLAYOUT, 0, 0, n, 1);
        break;
      }
      shape(c, n->a);
      shape(c, n->b);
      emit(c, OP_LAYOUT, 0, 0, n, -1);
      break;
    case N_BINOP: operand(c, n->a); operand(c, n->b); emit(c, OP_BINOP, 0, 0, n, -1); break;
    case N_UNOP: operand(c, n->a); emit(c, OP_UNOP, 0, 0, n, 0); break;
    case N_AND: case N_OR: logic(c, n); break;
    case N_IF: {
      expr(c, n->c);
      int32_t jf = emit(c, OP_JF, NO_LIST, 0, n->c, -1);
      expr(c, n->a);
      int32_t j = emit(c, OP_JMP, NO_LIST, 0, n, -1);  /* the else branch pushes it again */
      patch(c, jf);
      expr(c, n->b);
      patch(c, j);
      break;
    }
    case N_CALL:
      expr(c, n->a);
      for (const lytP_node *e = n->list; e; e = e->next) expr(c, e->a);
      emit(c, OP_CALL, n->n, 0, n, -n->n);
      break;
    case N_INDEX: expr(c, n->a); expr(c, n->b); emit(c, OP_INDEX, 0, 0, n, -1); break;
    case N_RECORD:
      for (const lytP_node *f = n->list; f; f = f->next)
        f->a ? expr(c, f->a) : (void)emit(c, OP_NIL, 0, 0, f, 1);
      emit(c, OP_RECORD, n->n, 0, n, 1 - n->n);
      break;
    case N_DOT: expr(c, n->a); emit(c, OP_DOT, 0, 0, n, 0); break;
    case N_AXIS: expr(c, n->a); emit(c, OP_AXIS, 0, 0, n, 0); break;
    case N_BASIS: expr(c, n->a); emit(c, OP_BASIS, 0, 0, n, 0); break;
    case N_ATTR: emit(c, OP_ATTR, 0, 0, n, 1); break;
    case N_FUNC: case N_FNDEF: emit(c, OP_FUNC, 0, 0, n, 1); break;
    default: *c->errloc = n->loc; lytS_fail(c->cx, LYT_ERRRUN, "internal error: not an expression");
  }
}

static void stmt(comp *c, const lytP_node *s);

static void block(comp *c, const lytP_node *b) {
  for (const lytP_node *s = b->list; s; s = s->next) stmt(c, s);
}

/* A loop's body between its head (at `top`) and its end: a pass gives back
** its scratch memory at top level (OP_RELEASE), `continue` goes there,
** `break` after it. */
static void loop_body(comp *c, const lytP_node *body, loop *l, int32_t top) {
  l->up = c->loop;
  c->loop = l;
  block(c, body);
  c->loop = l->up;
  patch(c, l->cont);
  emit(c, OP_RELEASE, l->slot, 0, body, 0);
  emit(c, OP_JMP, top, 0, body, 0);
}

static void for_loop(comp *c, const lytP_node *s) {
  loop l = { NO_LIST, NO_LIST, c->nloops++, NULL };
  expr(c, s->a);
  emit(c, OP_ITER, 0, 0, s, 1);
  int32_t top = emit(c, OP_MARK, l.slot, 0, s, 0);
  int32_t next = emit(c, OP_NEXT, NO_LIST, 0, s, 0);
  loop_body(c, s->b, &l, top);
  patch(c, l.brk);
  emit(c, OP_RELEASE, l.slot, 0, s, 0);
  emit(c, OP_POP, 2, 0, s, -2);
  patch(c, next);  /* the elements ran out: OP_NEXT popped both */
}

static void while_loop(comp *c, const lytP_node *s) {
  loop l = { NO_LIST, NO_LIST, c->nloops++, NULL };
  int32_t top = emit(c, OP_MARK, l.slot, 0, s, 0);
  expr(c, s->a);
  int32_t jf = emit(c, OP_JF, NO_LIST, 0, s->a, -1);
  loop_body(c, s->b, &l, top);
  patch(c, l.brk);
  emit(c, OP_RELEASE, l.slot, 0, s, 0);
  patch(c, jf);
}

static void if_stmt(comp *c, const lytP_node *s) {
  expr(c, s->a);
  int32_t jf = emit(c, OP_JF, NO_LIST, 0, s->a, -1);
  block(c, s->b);
  if (!s->c) { patch(c, jf); return; }
  int32_t j = emit(c, OP_JMP, NO_LIST, 0, s, 0);
  patch(c, jf);
  if (s->c->kind == N_BLOCK) block(c, s->c);
  else if_stmt(c, s->c);
  patch(c, j);
}

static void jump_out(comp *c, const lytP_node *s) {
  loop *l = c->loop;
  if (!l) { emit(c, OP_BADLOOP, 0, 0, s, 0); return; }
  int32_t *list = s->kind == N_BREAK ? &l->brk : &l->cont;
  *list = emit(c, OP_JMP, *list, 0, s, 0);
}

static void stmt(comp *c, const lytP_node *s) {
  switch (s->kind) {
    case N_FOR: for_loop(c, s); break;
    case N_WHILE: while_loop(c, s); break;
    case N_IFSTMT: if_stmt(c, s); break;
    case N_BREAK: case N_CONTINUE: jump_out(c, s); break;
    case N_ASSIGN: expr(c, s->a); emit(c, OP_BIND, 0, 0, s, -1); break;
    case N_PRINT: list(c, s, 0); emit(c, OP_PRINT, s->n, 0, s, -s->n); break;
    case N_SHOW: expr(c, s->a); emit(c, OP_SHOW, 0, 0, s, -1); break;
    case N_FNDEF: emit(c, OP_FNDEF, 0, 0, s, 0); break;
    case N_IMPORT: emit(c, OP_IMPORT, 0, 0, s, 0); break;
    case N_ALIASDEF: emit(c, OP_ALIAS, 0, 0, s, 0); break;
    case N_RETURN: expr(c, s->a); emit(c, OP_RETURN, 0, 0, s, -1); break;
    default: expr(c, s->a); emit(c, OP_EXPR, 0, 0, s, -1); break;
  }
}

/* The code and its instructions in one block. */
static const lytC_code *finish(comp *c, lytA_arena *a) {
  lytC_code *code = lytA_alloc(a, sizeof *code + sizeof(lytC_ins) * (size_t)c->n);
  if (!code) lytS_fail_alloc(c->cx, a);
  lytC_ins *v = (lytC_ins *)(code + 1);
  memcpy(v, c->v, sizeof *v * (size_t)c->n);
  *code = (lytC_code){ v, c->n, c->maxdepth + 1, c->nloops };
  return code;
}

#define LOCAL_INS 64  /* most statements compile to fewer instructions */

const lytC_code *lytC_statement(lytS_ctx *cx, lytA_arena *a, const lytP_node *s, int value,
                                lyt_loc *errloc) {
  lytC_ins local[LOCAL_INS];
  comp c = { cx, errloc, local, 0, LOCAL_INS, 0, 0, 0, NULL };
  if (value) {
    expr(&c, s);
    emit(&c, OP_RETURN, 1, 0, s, -1);
  } else {
    stmt(&c, s);
    emit(&c, OP_RETNIL, 0, 0, s, 0);
  }
  return finish(&c, a);
}

/* The prologue binds each parameter, given or by its default (evaluated
** in the call, so it sees the parameters before it), then the body. */
const lytC_code *lytC_function(lytS_ctx *cx, lytA_arena *a, const lytP_node *fn,
                               lyt_loc *errloc) {
  lytC_ins local[LOCAL_INS];
  comp c = { cx, errloc, local, 0, LOCAL_INS, 0, 0, 0, NULL };
  int32_t i = 0;
  for (const lytP_node *p = fn->list; p; p = p->next, i++) {
    int32_t j = emit(&c, OP_PARAM, i, 0, p, 0);
    if (p->a) {
      expr(&c, p->a);
      emit(&c, OP_SETPARAM, 0, 0, p, -1);
    }
    c.v[j].b = c.n;
  }
  if (fn->a->kind == N_BLOCK) {
    block(&c, fn->a);
    emit(&c, OP_RETNIL, 0, 0, fn, 0);
  } else {
    expr(&c, fn->a);
    emit(&c, OP_RETURN, 1, 0, fn->a, -1);
  }
  return finish(&c, a);
}
