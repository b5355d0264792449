/*
** eval/value.h: interpreter values.
**
** A value is a small tagged struct passed by value; what it points to
** lives in an arena (see base/arena.h) and is never mutated after creation.
** Integer tuples are held as generic tuples of values and converted to
** the core's lytS_tup at the boundary of a builtin. What each kind can do
** (copy, compare, print, JSON, call, show) is its row in the table of
** kinds (eval/kind.h); the family types are only named here, so the
** evaluator needs no family's header.
*/
#ifndef LYT_VALUE_H
#define LYT_VALUE_H

#include <stdint.h>

#include "interp/base/inttuple.h"

typedef enum lyt_vkind {
  LYT_VNIL,       /* absence: a missing optional argument, `nil` */
  LYT_VBOOL,      /* u.i is 0 or 1 */
  LYT_VINT,       /* u.i */
  LYT_VSTR,       /* u.str */
  LYT_VUNDER,     /* the wildcard `_` */
  LYT_VTUP,       /* u.tup: elements of any kind */
  LYT_VTILER,     /* u.tup: elements are layouts, ints (n means n:1), `_`, tilers */
  LYT_VLAYOUT,    /* u.lay */
  LYT_VSWIZZLE,   /* u.sw */
  LYT_VCOMPOSED,  /* u.comp: swizzle o offset o layout */
  LYT_VBASIS,     /* u.basis: a scaled basis leaf `1@0` (identity-layout strides) */
  LYT_VFUNC,      /* u.fn: a user-defined function */
  LYT_VBUILTIN,   /* u.bi: a C function */
  LYT_VRECORD,    /* u.rec: ordered fields {name: value}; a value may be nil */
  LYT_VLINEAR,    /* u.ll: a linear layout over GF(2) */
  LYT_VINDEX,     /* u.index: index values with their AxisInfo */
  LYT_VAXIS,      /* u.ax: a stride on a named axis, `4@lane` */
  LYT_VITERS,     /* u.axe: iters as written, `(8,2):(4@lane,1@warp)`, no convention yet */
  LYT_VAXE,       /* u.axe: an Axe layout (shard, replica, offset) */
  LYT_VNESTED,    /* u.nested: an IREE nested layout */
  LYT_VKERNEL,    /* u.kernel: a kernel description */
  LYT_VCFUNC,     /* u.cf: a C function registered by the host */
  LYT_NKINDS
} lyt_vkind;

struct lytS_layout;
struct lytS_swizzle;
struct lytS_composed;
struct lytI_func;
struct lytG_ll;
struct lytV_val;
struct lytX_layout;
struct lytN_layout;
struct lytK_kernel;
struct lytI_builtin;
struct lytI_cfunc;

typedef struct lyt_value {
  lyt_vkind kind;
  union {
    int64_t i;
    struct { const char *s; int64_t len; } str;
    struct { int32_t n; struct lyt_value *e; } tup;
    const struct lytS_layout *lay;
    const struct lytS_swizzle *sw;
    const struct lytS_composed *comp;
    const lytS_tup *basis;  /* a LYTS_BASIS node */
    struct { int32_t n; const char **name; struct lyt_value *e; } rec;  /* names interned */
    const struct lytG_ll *ll;
    const struct lytV_val *index;
    struct { int64_t v; const char *axis; } ax;   /* axis interned */
    const struct lytX_layout *axe;
    const struct lytN_layout *nested;
    const struct lytK_kernel *kernel;
    const struct lytI_func *fn;
    const struct lytI_builtin *bi;
    const struct lytI_cfunc *cf;
  } u;
} lyt_value;

#endif
