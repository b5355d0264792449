/*
** base/inttuple.h: CuTe's IntTuple, the hierarchical integer tuple that
** shapes, strides and coordinates are made of (stride core, lytS_).
**
** A node is an integer leaf, the wildcard `_` (only in coordinates and
** slicing profiles), a scaled basis element `v@i@j` (strides of identity
** layouts), or a tuple of nodes. `(3)` (a rank-1 tuple) and `3` are
** different values, as in CuTe. Nodes are immutable once built and live
** in the context's arena, so sharing subtrees is safe.
*/
#ifndef LYT_INTTUPLE_H
#define LYT_INTTUPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "interp/base/context.h"

enum { LYTS_INT, LYTS_UNDER, LYTS_TUP, LYTS_BASIS };

#define LYT_BASIS_MAX 8  /* nesting of a basis index path, e.g. 1@0@1 */

typedef struct lytS_tup lytS_tup;
struct lytS_tup {
  uint8_t kind;    /* LYTS_* */
  uint8_t npath;   /* LYTS_BASIS: length of path[] */
  uint8_t path[LYT_BASIS_MAX]; /* LYTS_BASIS: mode indices, outermost first */
  int32_t n;       /* LYTS_TUP: number of elements */
  int64_t v;       /* LYTS_INT: value; LYTS_BASIS: scale */
  lytS_tup **e;    /* LYTS_TUP: elements */
};

/* Growable text in the context's arena; the printers of all cores write here. */
typedef struct lytS_buf {
  lytS_ctx *cx;
  char *p;         /* NUL-terminated text */
  size_t n, cap;
} lytS_buf;

void lytS_buf_init(lytS_buf *b, lytS_ctx *cx);
void lytS_buf_add(lytS_buf *b, const char *s, size_t n);
/* One byte: the printers' parentheses and commas, without a call while there is room. */
static inline void lytS_buf_putc(lytS_buf *b, char c) {
  if (b->n + 2 > b->cap) { lytS_buf_add(b, &c, 1); return; }
  b->p[b->n++] = c;
  b->p[b->n] = '\0';
}
void lytS_buf_puts(lytS_buf *b, const char *s);
void lytS_buf_printf(lytS_buf *b, const char *fmt, ...) LYT_PRINTF(2, 3);
void lytS_buf_int(lytS_buf *b, int64_t v);  /* decimal, as %lld prints it */

/* ---- construction (all nodes in cx's arena) ---- */
/* The integers most layouts are made of, built once: nodes are immutable,
** so every 4 or 16 can be the same node, and a leaf costs no allocation. */
enum { LYTS_SMALL_INTS = 256 };
extern const lytS_tup lytS_small_int[LYTS_SMALL_INTS];
lytS_tup *lytS_new_int(lytS_ctx *cx, int64_t v);
static inline lytS_tup *lytS_int(lytS_ctx *ctx, int64_t v) {
  if ((uint64_t)v < LYTS_SMALL_INTS) return (lytS_tup *)&lytS_small_int[v];  /* never written */
  return lytS_new_int(ctx, v);
}
lytS_tup *lytS_under(lytS_ctx *cx);
/* Elements NULL: fill them. Inline, as most steps of the algebra make
** one: bench.py's script runs 1.1% fewer instructions. */
static inline lytS_tup *lytS_newtup(lytS_ctx *ctx, int32_t n) {
  size_t k = (size_t)(n > 0 ? n : 0);
  lytS_tup *t = lytS_alloc(ctx, sizeof *t + sizeof(lytS_tup *) * k);
  *t = (lytS_tup){ .kind = LYTS_TUP, .n = n, .e = (lytS_tup **)(t + 1) };
  lytS_tup **e = t->e;
  switch (k) {  /* most tuples are short: no call to memset */
    case 0: break;
    case 1: e[0] = NULL; break;
    case 2: e[0] = e[1] = NULL; break;
    case 3: e[0] = e[1] = e[2] = NULL; break;
    default: memset(e, 0, sizeof *e * k); break;
  }
  return t;
}
lytS_tup *lytS_pair(lytS_ctx *cx, lytS_tup *a, lytS_tup *b);
/* scale@path: path[] outermost mode first (E<1,0> is path {1,0}) */
lytS_tup *lytS_basis(lytS_ctx *cx, int64_t scale, const uint8_t *path, int npath);

#define lytS_isint(t)   ((t)->kind == LYTS_INT)
#define lytS_istup(t)   ((t)->kind == LYTS_TUP)
#define lytS_isunder(t) ((t)->kind == LYTS_UNDER)
#define lytS_isbasis(t) ((t)->kind == LYTS_BASIS)

/* ---- queries ---- */
int lytS_tup_eq(const lytS_tup *a, const lytS_tup *b);
int32_t lytS_rank(const lytS_tup *t);                /* an int has rank 1 */
int32_t lytS_depth(const lytS_tup *t);               /* an int has depth 0 */
int64_t lytS_size(lytS_ctx *cx, const lytS_tup *t);  /* product of int leaves */
int32_t lytS_nleaves(const lytS_tup *t);
int lytS_has_under(const lytS_tup *t);
int lytS_has_basis(const lytS_tup *t);
lytS_tup *lytS_mode(const lytS_tup *t, int32_t i);   /* mode i; an int's mode 0 is itself */
/* Fails unless every leaf is an int > 0; what names the operand. */
void lytS_check_shape(lytS_ctx *cx, const lytS_tup *t, const char *what);

/* ---- IntTuple algebra (CuTe int_tuple.hpp semantics, static ints) ---- */
lytS_tup *lytS_flatten(lytS_ctx *cx, const lytS_tup *t);  /* int stays int */
void lytS_leaves(const lytS_tup *t, lytS_tup **out, int32_t *n);  /* out: nleaves slots */
lytS_tup *lytS_product_each(lytS_ctx *cx, const lytS_tup *t);
lytS_tup *lytS_prefix_product(lytS_ctx *cx, const lytS_tup *t);
int64_t lytS_inner_product(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b);
lytS_tup *lytS_shape_div(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b);
lytS_tup *lytS_ceil_div(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b);
int64_t lytS_ceil_div_int(lytS_ctx *cx, int64_t a, int64_t b);
int lytS_congruent(const lytS_tup *a, const lytS_tup *b);
int lytS_weakly_congruent(const lytS_tup *a, const lytS_tup *b);
int lytS_compatible(lytS_ctx *cx, const lytS_tup *a, const lytS_tup *b);

/* ---- coordinates ---- */
/* crd2idx(c, shape, stride): an int, or an arithmetic tuple when strides
** are basis elements. `_` in c counts as 0. */
lytS_tup *lytS_crd2idx(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape,
                       const lytS_tup *stride);
int64_t lytS_crd2idx_int(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape,
                         const lytS_tup *stride);
int64_t lytS_crd2idx_i64(lytS_ctx *cx, int64_t i, const lytS_tup *shape,
                         const lytS_tup *stride);  /* integer coordinate */
int64_t lytS_crd2idx_colex(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape);
lytS_tup *lytS_idx2crd(lytS_ctx *cx, const lytS_tup *i, const lytS_tup *shape,
                       const lytS_tup *stride);  /* stride NULL: 2-arg form */
/* Fails unless c is a coordinate of shape inside its domain. */
void lytS_check_coord(lytS_ctx *cx, const lytS_tup *c, const lytS_tup *shape);
/* Sum of two index values (ints or arithmetic tuples of ints). */
lytS_tup *lytS_index_add(lytS_ctx *cx, lytS_tup *a, lytS_tup *b);

/* ---- printing, CuTe notation without static markers ---- */
void lytS_print_tup(lytS_buf *b, const lytS_tup *t);
const char *lytS_tup_str(lytS_ctx *cx, const lytS_tup *t);

#endif
