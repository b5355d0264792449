/*
** kind.h: what a value kind is, described once.
**
** Every kind of value has one row in the table lytI_kinds (interp/kinds.c),
** indexed by lyt_vkind. Generic code (binding, equality, printing, JSON,
** calling, `show`, the C API) asks the row and never switches over all
** kinds, so a kind cannot be handled in five places and forgotten in the
** sixth. The functions a row names live in the kind's family folder.
**
** An operation that does not apply to a kind is NULL, and the row says
** why in the matching no_* text; tests/unit/test_kinds.c fails, naming
** the kind, for a NULL without a reason.
*/
#ifndef LYT_KIND_H
#define LYT_KIND_H

#include "interp/eval/state.h"

struct lytG_ll;
struct lytX_layout;

typedef struct lytI_kind {
  const char *name;  /* as messages name it: "layout", "linear layout" */
  int type;          /* what lyt_type() says: LYT_T* of lyt.h */
  /* A deep copy into cx's arena: a binding outlives the statement whose
  ** scratch arena the value was made in. Values that hold nothing in a
  ** statement's arena (scalars, interned names, code) return themselves. */
  lyt_value (*copy)(lytS_ctx *cx, lyt_value v);
  int (*equal)(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);  /* same kind */
  void (*print)(lytS_buf *b, const lyt_value *v);        /* what `print` writes */
  const char *no_notation;  /* NULL: print writes lyt text that reads back equal */
  /* to_json() of the value; depth counts enclosing tuples and records. */
  void (*to_json)(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth);
  const char *no_json;
  /* Calling the value, f(args): argv[0] is f, then the arguments. NULL:
  ** not callable (functions are called by the evaluator itself). */
  lytI_cfn apply;
  int apply_kw;      /* apply takes keyword arguments */
  void (*show)(lyt_state *L, const lyt_value *v, lyt_loc at);  /* `show v`; NULL: an error */
  /* linear(v) and lyt_linear_of: the value as a linear layout; out_dim
  ** names the out-dim where the kind has only one (offset). NULL: none. */
  const struct lytG_ll *(*to_linear)(lytI_call *c, const lyt_value *v, const char *out_dim);
  /* axe(v): the shard of an Axe layout, exactly (a fresh copy). NULL: none. */
  struct lytX_layout *(*to_axe)(lytI_call *c, const lyt_value *v);
  const char *sample;  /* lyt text that makes one, for the property test */
} lytI_kind;

extern const lytI_kind lytI_kinds[LYT_NKINDS];

/* eval/value.c: the operations of the evaluator's own kinds. */
lyt_value lytI_copy_self(lytS_ctx *cx, lyt_value v);  /* nothing in a statement's arena */
lyt_value lytI_copy_str(lytS_ctx *cx, lyt_value v);
lyt_value lytI_copy_seq(lytS_ctx *cx, lyt_value v);   /* tuples and tilers */
lyt_value lytI_copy_record(lytS_ctx *cx, lyt_value v);
int lytI_equal_always(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);  /* nil, `_` */
int lytI_equal_int(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);     /* integers, bools */
int lytI_equal_str(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_seq(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_record(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_code(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_builtin(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_cfunc(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_nil(lytS_buf *b, const lyt_value *v);
void lytI_print_bool(lytS_buf *b, const lyt_value *v);
void lytI_print_int(lytS_buf *b, const lyt_value *v);
void lytI_print_str(lytS_buf *b, const lyt_value *v);
void lytI_print_under(lytS_buf *b, const lyt_value *v);
void lytI_print_tuple(lytS_buf *b, const lyt_value *v);
void lytI_print_tiler(lytS_buf *b, const lyt_value *v);
void lytI_print_record(lytS_buf *b, const lyt_value *v);
void lytI_print_func(lytS_buf *b, const lyt_value *v);
void lytI_print_builtin(lytS_buf *b, const lyt_value *v);
void lytI_print_cfunc(lytS_buf *b, const lyt_value *v);

#endif
