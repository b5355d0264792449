/*
** eval/code.h: the evaluator's code. A function body or a top-level
** statement is compiled once (eval/compile.c) into a flat array of
** instructions over an operand stack, which eval/eval.c runs in a loop:
** a call to a lyt function pushes an activation record in the scratch
** arena instead of recursing in C, so recursion is as deep as max_depth
** and memory allow, whatever the host's stack.
*/
#ifndef LYT_CODE_H
#define LYT_CODE_H

#include "lang/ast.h"
#include "interp/base/context.h"

typedef enum lytC_op {
  /* expressions: each leaves its value on the stack */
  OP_CONST,    /* n: a literal (int, bool, nil, _, string) */
  OP_NIL,      /* a record field written without a value */
  OP_NAME,     /* n: N_NAME */
  OP_WRAP1,    /* the top as a rank-1 tuple: `(3)` where CuTe text is written */
  OP_TUPLE,    /* a elements; b the value kind (tuple or tiler) */
  OP_INTTUPLE, /* n: N_TUPLE of integers, `_` and such tuples, made at once */
  OP_INTLAYOUT, /* n: N_LAYOUT of two such tuples or integers, made at once */
  OP_LAYOUT,   /* n: shape:stride of the top two */
  OP_BINOP,    /* n */
  OP_UNOP,     /* n */
  OP_AND,      /* n: the left operand; false: push false, jump to a */
  OP_OR,       /* n: the left operand; true: push true, jump to a */
  OP_TOBOOL,   /* n: the right operand of and/or, checked */
  OP_JF,       /* n: a condition; pops it, jumps to a when false */
  OP_JMP,      /* to a */
  OP_CALL,     /* n: N_CALL with a arguments above the callee */
  OP_INDEX,    /* n */
  OP_RECORD,   /* n: N_RECORD of a fields */
  OP_DOT,      /* n */
  OP_AXIS,     /* n */
  OP_BASIS,    /* n */
  OP_ATTR,     /* n */
  OP_FUNC,     /* n: N_FUNC, a function expression */
  /* statements */
  OP_BIND,     /* n: name = the top (popped) */
  OP_PRINT,    /* n: print the top a values */
  OP_SHOW,     /* n */
  OP_FNDEF,    /* n */
  OP_IMPORT,   /* n */
  OP_ALIAS,    /* n */
  OP_EXPR,     /* n: a bare expression statement: echo or drop the top */
  OP_RETURN,   /* n: return the top; a = 0: a `return` statement (only in a function) */
  OP_RETNIL,   /* the end of a block body or of top-level code */
  OP_ITER,     /* n: N_FOR; the iterable on the top, checked; push the position 0 */
  OP_NEXT,     /* n: N_FOR; bind the next element, or pop both and jump to a */
  OP_MARK,     /* loop slot a: remember the scratch arena's mark (top-level code) */
  OP_RELEASE,  /* loop slot a: give back what the pass allocated (top-level code) */
  OP_POP,      /* a values */
  OP_PARAM,    /* parameter a (node n) of the call: bind the argument given and jump
                  to b, or run the default that follows */
  OP_SETPARAM, /* n: N_PARAM; bind the default on the top */
  OP_BADLOOP   /* n: break or continue outside a loop */
} lytC_op;

typedef struct lytC_ins {
  uint8_t op;
  int32_t a, b;
  const lytP_node *n;  /* its node: where errors point, names, literals */
} lytC_ins;

typedef struct lytC_code {
  const lytC_ins *v;
  int32_t n;
  int32_t maxstack;    /* operand stack the code needs */
  int32_t nloops;      /* loop slots (OP_MARK) */
} lytC_code;

/* Statement s (or, expr, the expression s alone, whose value the code
** returns) compiled into arena a; a function definition's body with its
** parameters' defaults, for a call (fn an N_FNDEF or N_FUNC). Fails through cx,
** pointing at the node (at *errloc) that nests too deeply. */
const lytC_code *lytC_statement(lytS_ctx *cx, lytA_arena *a, const lytP_node *s, int expr,
                                lyt_loc *errloc);
const lytC_code *lytC_function(lytS_ctx *cx, lytA_arena *a, const lytP_node *fn,
                               lyt_loc *errloc);

#endif
