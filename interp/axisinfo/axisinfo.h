/*
** axisinfo/axisinfo.h: Triton's AxisInfo analysis over concrete index tensors
** (axis-info core, lytV_).
**
** A value is an N-D (1 <= N <= 4) tensor of int64 indices, stored row
** major (last dim fastest, as Triton's tensors), together with per-dim
** AxisInfo: the facts Triton's AxisInfoAnalysis proves about pointer
** offsets to pick vector widths for loads and stores. Along dim d, with
** n = shape[d] and "lines" being the 1-D slices along d:
**
**   contiguity c   the largest c dividing n such that every aligned block
**                  [k*c, (k+1)*c) of every line is consecutive (x, x+1, ...)
**   constancy k    the same with "all equal" instead of "consecutive"
**   divisibility   the largest power of two dividing the first element of
**                  every contiguous block, i.e. of every element whose
**                  index along d is a multiple of c
**
** Runs are aligned blocks, not maximal runs: [0,1,2,7,8,9,10,11] has
** contiguity 1, because a thread's vector starts at an aligned index.
** Every seed and Triton example gives the same numbers either way. The
** valid c (and k) are exactly the divisors of the largest one, so claims
** compare by divisibility. 0 is divisible by every power of two; like
** Triton (kMaxDivisor = highestPowOf2Divisor(0)) we cap at 2^62.
**
** Two modes:
**   LYTV_CONSERVATIVE  the info follows from the operands' info alone, by
**                      Triton's rules (lib/Analysis/AxisInfo.cpp), or by
**                      rules derived the same way where Triton has none;
**                      axisinfo/axisinfo.c names which is which at every rule.
**   LYTV_EXACT         the info is recomputed from the values: the best
**                      facts the definitions allow.
** Values are always computed, so both modes run on one expression, and a
** conservative claim always holds of the values (lytV_info_holds), hence
** never exceeds the exact info. Leaves made from values (lytV_from_values,
** lytV_from_fn) start with the exact info, as if the program had given
** exact tt.contiguity/tt.divisibility/tt.constancy hints; lytV_assume
** replaces it by a weaker hint.
**
** Arithmetic: add/sub/mul are checked (overflow is an error). div and rem
** by a positive constant are floor division and its non-negative
** remainder (Python's // and %), so the block rules hold for negative
** indices too; Triton's divsi/remsi truncate and its rules assume
** non-negative offsets.
**
** Ownership: results live in cx's arena and are immutable (values may be
** shared between results). Arguments are never modified; arrays passed
** in are copied. Errors leave through lytS_fail with LYT_ERRRUN (bad
** operand, overflow) or LYT_ERRLIMIT (too many elements).
*/
#ifndef LYT_AXISINFO_H
#define LYT_AXISINFO_H

#include <stdint.h>

#include "interp/base/context.h"
#include "interp/base/inttuple.h"  /* lytS_buf */

#define LYTV_MAXRANK 4                    /* Triton's kernels rarely go past 3-D */
#define LYTV_MAX_DIV ((int64_t)1 << 62)   /* divisibility of 0: Triton's kMaxDivisor */
#define LYTV_MAX_ELEMS ((int64_t)1 << 24) /* values are materialized: keep them small */
#define LYTV_MAX_VEC_BYTES 16             /* ld/st .v4.b32: 128 bits (sm_100 allows 256) */

typedef enum lytV_mode { LYTV_CONSERVATIVE, LYTV_EXACT } lytV_mode;

typedef struct lytV_info {
  int rank;                             /* number of dims, 1..LYTV_MAXRANK */
  int64_t contiguity[LYTV_MAXRANK];     /* divides shape[d]; >= 1 */
  int64_t divisibility[LYTV_MAXRANK];   /* power of two, 1..LYTV_MAX_DIV */
  int64_t constancy[LYTV_MAXRANK];      /* divides shape[d]; >= 1 */
  int has_const;                        /* every element is known to equal cval */
  int64_t cval;                         /* Triton's knownConstantValue */
} lytV_info;

typedef struct lytV_val {
  int rank;                       /* 1..LYTV_MAXRANK */
  int64_t shape[LYTV_MAXRANK];    /* extents, each >= 1 */
  int64_t n;                      /* number of elements, product of shape */
  const int64_t *v;               /* n values, row major; immutable, maybe shared */
  lytV_info info;                 /* as the mode of the operation that made it gives */
} lytV_val;

/* Which mode the operations use; copy it to change mode per operation. */
typedef struct lytV_ctx {
  lytS_ctx *cx;    /* arena and error escape */
  lytV_mode mode;  /* how results get their info */
} lytV_ctx;

/* A layout evaluated at a thread/element id: the offset it maps id to.
** The stride (lytS_) and GF(2) (lytG_) cores plug in here through ud,
** without this module knowing them. May fail through lytS_fail(cx, ...). */
typedef int64_t (*lytV_index_fn)(lytS_ctx *cx, void *ud, int64_t id);

/* ================================================================== */
/* context                                                             */
/* ================================================================== */
lytV_ctx lytV_context(lytS_ctx *cx, lytV_mode mode);

/* ================================================================== */
/* leaves                                                              */
/* ================================================================== */
/* tl.arange: [start, end), 1-D; end - start must be a power of two > 0
** (as Triton requires). */
lytV_val *lytV_make_range(const lytV_ctx *vx, int64_t start, int64_t end);
/* [value] everywhere in a tensor of [rank] dims; [shape] is copied. */
lytV_val *lytV_splat(const lytV_ctx *vx, int64_t value, int rank, const int64_t *shape);
/* A tensor holding [values] (n of them, row major, copied); its info is
** exact in both modes. */
lytV_val *lytV_from_values(lytS_ctx *cx, int rank, const int64_t *shape,
                           const int64_t *values);
/* The same with element e (row major) = fn(cx, ud, first + e): a layout
** evaluated over a range of thread or element ids. */
lytV_val *lytV_from_fn(lytS_ctx *cx, int rank, const int64_t *shape, int64_t first,
                       lytV_index_fn fn, void *ud);
/* [v] with [info] instead of its own (a hint, like tt.divisibility).
** Fails unless the hint holds of the values, so a wrong hint can never
** widen a vector. */
lytV_val *lytV_assume(lytS_ctx *cx, const lytV_val *v, const lytV_info *info);
/* The weakest info of [rank] dims: all 1, no constant (Triton's
** pessimistic state for an unannotated argument). */
lytV_info lytV_pessimistic(int rank);

/* ================================================================== */
/* operations: results in vx's mode                                    */
/* ================================================================== */
/* Elementwise on equal shapes (broadcast first, as Triton does). */
lytV_val *lytV_add(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b);
lytV_val *lytV_sub(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b);
lytV_val *lytV_mul(const lytV_ctx *vx, const lytV_val *a, const lytV_val *b);
/* By a constant: k > 0 for div and rem (floor semantics, see above). */
lytV_val *lytV_div(const lytV_ctx *vx, const lytV_val *a, int64_t k);
lytV_val *lytV_rem(const lytV_ctx *vx, const lytV_val *a, int64_t k);
lytV_val *lytV_xor(const lytV_ctx *vx, const lytV_val *a, int64_t k);
lytV_val *lytV_and(const lytV_ctx *vx, const lytV_val *a, int64_t k);
/* tt.broadcast: same rank; each dim keeps its extent or grows from 1. */
lytV_val *lytV_broadcast(const lytV_ctx *vx, const lytV_val *a, int rank,
                         const int64_t *shape);
/* tt.expand_dims: a new dim of extent 1 before dim [axis] (0..rank). */
lytV_val *lytV_expand_dims(const lytV_ctx *vx, const lytV_val *a, int axis);

/* ================================================================== */
/* queries                                                             */
/* ================================================================== */
/* The info computed from the values alone (what LYTV_EXACT gives). */
lytV_info lytV_exact_info(lytS_ctx *cx, const lytV_val *v);
/* 1 if every claim of [info] holds of v's values, else 0 (also 0 for a
** malformed info: wrong rank, a divisibility not a power of two, ...). */
int lytV_info_holds(lytS_ctx *cx, const lytV_val *v, const lytV_info *info);
/* Largest power of two dividing x, LYTV_MAX_DIV for 0 (and INT64_MIN). */
int64_t lytV_pow2_divisor(int64_t x);

/* How many elements one ld/st may move when a thread accesses
** base + offset*elem_bytes, [info] describing the offsets (in elements,
** Triton's addptr operand) and [dim] being the contiguous dim (order[0]):
**
**   w = min(p2(contiguity), alignment in elements, p2(elems_per_thread),
**           LYTV_MAX_VEC_BYTES / elem_bytes), at least 1
**
** where p2(x) is the largest power of two dividing x, and the alignment
** in elements is gcd(ptr_align_bytes, divisibility * elem_bytes) /
** elem_bytes (at least 1): the byte alignment of the address at the start
** of every contiguous block (Triton's addptr rule, then getAlignment's
** divisibility / elemNumBytes). Triton takes plain minima because its
** extents are powers of two; lyt allows any extent, and a vector of w must
** tile the block and the thread's run, so w divides both. Each vector
** then starts at a block start plus a multiple of w, so its address is a
** multiple of w * elem_bytes: never wider than alignment proves (the GPU
** faults on a misaligned vector access; ptxas does not check).
** [elem_bytes] and [ptr_align_bytes] must be powers of two; a pointer
** aligned below its element size gives 1. */
int64_t lytV_vector_width(lytS_ctx *cx, const lytV_info *info, int dim,
                          int64_t elem_bytes, int64_t ptr_align_bytes,
                          int64_t elems_per_thread);

/* ================================================================== */
/* printing                                                            */
/* ================================================================== */
/* {contiguity: [4, 1], divisibility: [16, inf], constancy: [1, 2]}
** in dim order; "inf" is LYTV_MAX_DIV (the divisibility of 0), and a known
** constant adds ", constant: 7" before the brace. */
void lytV_print_info(lytS_buf *b, const lytV_info *info);
const char *lytV_info_str(lytS_ctx *cx, const lytV_info *info);
/* Nested lists: [1, 2] or [[1, 2], [3, 4]]. */
void lytV_print_values(lytS_buf *b, const lytV_val *v);
const char *lytV_values_str(lytS_ctx *cx, const lytV_val *v);

/* ================================================================== */
/* Triton's rules on facts alone (axisinfo/rules.c)                    */
/* ================================================================== */
/* What Triton 3.6's own AxisInfo analysis concludes of a value of a
** compiled module, where there are no values to look at: Triton's rules
** exactly, none of axisinfo.c's [derived] ones. Scalars are rank 1,
** extent 1. Results are returned by value; nothing is allocated. */
enum { LYTV_T_ADD, LYTV_T_SUB, LYTV_T_MUL, LYTV_T_DIV, LYTV_T_REM, LYTV_T_AND, LYTV_T_OR,
       LYTV_T_XOR, LYTV_T_ADDPTR };
enum { LYTV_T_EQ, LYTV_T_NE, LYTV_T_LT, LYTV_T_LE, LYTV_T_GT, LYTV_T_GE };
lytV_info lytV_t_constant(int64_t value, int rank, const int64_t *shape);
lytV_info lytV_t_make_range(int64_t start, int64_t end);
lytV_info lytV_t_splat(const lytV_info *a, int rank, const int64_t *shape);
lytV_info lytV_t_broadcast(const lytV_info *a, int rank, const int64_t *from, const int64_t *to);
lytV_info lytV_t_expand_dims(const lytV_info *a, int axis);
/* elem: the pointee's bytes for LYTV_T_ADDPTR (offsets count elements). */
lytV_info lytV_t_binary(lytS_ctx *cx, int op, const lytV_info *a, const lytV_info *b, int rank,
                        const int64_t *shape, int64_t elem);
lytV_info lytV_t_cmp(int pred, const lytV_info *a, const lytV_info *b, int rank,
                     const int64_t *shape);
lytV_info lytV_t_select(const lytV_info *c, const lytV_info *a, const lytV_info *b, int rank);
lytV_info lytV_t_join(const lytV_info *a, const lytV_info *b);  /* a loop's merge: gcds */
int lytV_t_same(const lytV_info *a, const lytV_info *b);

#endif
