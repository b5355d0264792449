/*
** ast.h: the syntax tree the parser builds and the evaluator compiles (eval/compile.c).
**
** One node type for everything keeps the parser's actions one builder
** call each. Nodes live in the state's code arena for the life of the
** state (user functions point into them). Lists (statements, tuple
** elements, arguments, parameters) are chains through `next`.
*/
#ifndef LYT_AST_H
#define LYT_AST_H

#include <stdint.h>

#include "interp/base/arena.h"
#include "lang/source.h"

typedef enum lytP_kind {
  /* expressions */
  N_INT,       /* ival */
  N_STR,       /* str, len (escapes already decoded) */
  N_NAME,      /* str: interned name */
  N_UNDER,     /* `_` */
  N_BOOL,      /* ival */
  N_NIL,
  N_PAREN,     /* a: `(e)`: grouping, or a rank-1 tuple in shape position */
  N_TUPLE,     /* list: `()`, `(a,)`, `(a,b,...)` */
  N_TILER,     /* list: `[a,b,...]` */
  N_LAYOUT,    /* a:b */
  N_BINOP,     /* op, a, b */
  N_UNOP,      /* op, a */
  N_AND, N_OR, /* a, b: short-circuit */
  N_IF,        /* a ? b : c */
  N_CALL,      /* a(list): list of N_ARG */
  N_ARG,       /* a: value; str: keyword name or NULL */
  N_INDEX,     /* a[b] */
  N_RECORD,    /* list of N_FIELD: `{a: 1, b}` */
  N_FIELD,     /* str: name; a: value or NULL */
  N_DOT,       /* a.str: a field of a record */
  N_AXIS,      /* a@str: a stride on a named hardware axis */
  N_BASIS,     /* a@ival: CuTe's scaled basis element (1@0, 1@0@1) */
  N_ATTR,      /* str: an MLIR attribute or type as written (#ttg.blocked<...>) */
  /* statements */
  N_ASSIGN,    /* str = a */
  N_PRINT,     /* list of expressions */
  N_SHOW,      /* a */
  N_IMPORT,    /* str: path; b: the N_NAME of `as NAME`, or NULL */
  N_ALIASDEF,  /* str: alias name (no '#'); a: its N_ATTR */
  N_FNDEF,     /* str: name; list: N_PARAM; a: body (expression or N_BLOCK) */
  N_FUNC,      /* a function expression: N_FNDEF's fields, str NULL if anonymous */
  N_PARAM,     /* str: name; a: default or NULL */
  N_BLOCK,     /* list of statements */
  N_RETURN,    /* a */
  N_FOR,       /* for str in a b: b a N_BLOCK */
  N_WHILE,     /* while a b */
  N_IFSTMT,    /* if a b [else c]: b an N_BLOCK, c an N_BLOCK, an N_IFSTMT or NULL */
  N_BREAK, N_CONTINUE,
  N_EXPRSTMT   /* a */
} lytP_kind;

typedef struct lytP_node lytP_node;
struct lytP_node {
  uint8_t kind;      /* lytP_kind */
  uint8_t op;        /* N_BINOP/N_UNOP: the operator token */
  lyt_loc loc;       /* where the construct starts (an operator: the operator) */
  int64_t ival;
  const char *str;   /* interned for names; decoded text for strings */
  int32_t len;       /* bytes in str */
  int32_t n;         /* elements in list */
  lytP_node *a, *b, *c;
  lytP_node *list;   /* first element of a child list */
  lytP_node *next;   /* next sibling in the parent's list */
  union {
    const void *fn;               /* N_FNDEF, N_FUNC: the evaluator's function (eval/state.h),
                                     made once */
    const struct lytS_tup *tup;   /* N_TUPLE of integers, `_` and such tuples, read from a
                                     line's text (lang/parse.c): the same as the stride core's
                                     tuple, made as it was read; NULL when not made */
  };
};

/* A list under construction: the parser appends at the tail. */
typedef struct lytP_list {
  lytP_node *head, *tail;
  int32_t n;
} lytP_list;

#endif
