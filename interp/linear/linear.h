/*
** linear/linear.h: Triton's LinearLayout, the GF(2) layout core (lytG_).
**
** A linear layout maps named input dims (register, lane, warp, ...) to
** named output dims (dim0, dim1, ...). Every dim has a power-of-two size
** and the map is linear over GF(2): the image of an input is the XOR of
** the images ("bases") of its set bits. Semantics follow Triton 3.6's
** LinearLayout bit for bit (dim orders, size inference, tie-breaks of the
** solvers); docs are in shared/reference/triton_linear_layout.md §1-2.
**
** Storage is one 64-bit word per input bit: col[j] is the image of input
** bit j as a flat output word (out-dims concatenated, the first least
** significant). In-dims are likewise flattened, the first in-dim giving
** the low bits. Hence at most 64 input and 64 output bits in all.
**
** Ownership: dim names are NOT copied; the caller keeps every name alive
** as long as any layout using it (interned strings, literals). Names are
** compared with strcmp. Results are allocated in cx's arena; inputs are
** never modified. Errors leave through lytS_fail (LYT_ERRRUN) with a
** message saying what is wrong; `try` variants return NULL instead.
*/
#ifndef LYT_LINEAR_H
#define LYT_LINEAR_H

#include <stdint.h>

#include "interp/base/context.h"
#include "interp/base/inttuple.h"  /* lytS_buf */

#define LYT_LL_MAXDIMS 16  /* in-dims or out-dims of one layout */
#define LYT_LL_MAXBITS 64  /* total input bits and total output bits */
#define LYT_LL_MAXLOG2 62  /* one dim's size stays an int64 (Triton: int32) */

typedef struct lytG_dim {
  const char *name;  /* not owned, compared with strcmp */
  int32_t log2;      /* the dim's size is 1 << log2 */
} lytG_dim;

typedef struct lytG_ll {
  int32_t nin, nout;                /* number of in-dims, out-dims */
  lytG_dim in[LYT_LL_MAXDIMS];      /* ordered, minor first */
  lytG_dim out[LYT_LL_MAXDIMS];     /* ordered, minor first */
  int32_t inbits, outbits;          /* sums of log2 sizes, each <= 64 */
  uint64_t col[LYT_LL_MAXBITS];     /* col[j]: flat image of input bit j; 0 for j >= inbits */
  int32_t rank;                     /* GF(2) rank, or -1 until needed: read it with lytG_rank */
  uint8_t require_surjective;       /* Triton's constructor flag; products etc. combine it */
} lytG_ll;

/* Bases of one in-dim for lytG_from_bases: n vectors of nout components,
** stored row after row (v[i*nout + k] = component k of basis i). The
** in-dim's size is 1 << n. */
typedef struct lytG_inbases {
  const char *name;
  int32_t n;
  const int64_t *v;
} lytG_inbases;

/* ================================================================== */
/* construction (linear/linear.c)                                             */
/* ================================================================== */

lytG_ll *lytG_empty(lytS_ctx *cx);  /* no dims; the unit of product */
/* size 0 gives the empty layout, as in Triton; other sizes must be powers of 2 */
lytG_ll *lytG_identity_1d(lytS_ctx *cx, int64_t size, const char *in, const char *out);
lytG_ll *lytG_zeros_1d(lytS_ctx *cx, int64_t size, const char *in, const char *out,
                       int64_t out_size);  /* out_size 1 in Triton's default */
lytG_ll *lytG_strided_1d(lytS_ctx *cx, int64_t size, int64_t stride, const char *in,
                         const char *out);
/* Triton's LinearLayout(bases, outDims, requireSurjective). out_sizes NULL
** infers every size with the strict NextPowerOf2 rule and then requires
** surjectivity whatever require_surjective says (Triton's names-only
** constructor). Checks, each failing with its own message: more than
** LYT_LL_MAXDIMS dims, duplicate names, then in Triton's order: negative
** basis value, vector length != nout (only with explicit nout: the C
** layout of v makes every vector nout long), size not a power of two,
** component >= its out size, more than 64 bits, not surjective. */
lytG_ll *lytG_from_bases(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins,
                         int32_t nout, const char *const *outs, const int64_t *out_sizes,
                         int require_surjective);
/* Same checks, NULL instead of failing (Triton's tryCreate). cx still
** receives the message in cx->msg. */
lytG_ll *lytG_try_from_bases(lytS_ctx *cx, int32_t nin, const lytG_inbases *ins,
                             int32_t nout, const char *const *outs,
                             const int64_t *out_sizes, int require_surjective);
/* From the packed form: dims with log2 sizes and one flat image word per
** input bit (ninbits = sum of in log2). Checks dims, bits and components. */
lytG_ll *lytG_make(lytS_ctx *cx, int32_t nin, const lytG_dim *in, int32_t nout,
                   const lytG_dim *out, const uint64_t *col, int require_surjective);
lytG_ll *lytG_copy(lytS_ctx *cx, const lytG_ll *L);

/* ================================================================== */
/* queries (linear/linear.c)                                                  */
/* ================================================================== */

int32_t lytG_in_index(const lytG_ll *L, const char *name);   /* -1 if absent */
int32_t lytG_out_index(const lytG_ll *L, const char *name);  /* -1 if absent */
int32_t lytG_in_index_x(lytS_ctx *cx, const lytG_ll *L, const char *name);  /* fails if absent */
int32_t lytG_out_index_x(lytS_ctx *cx, const lytG_ll *L, const char *name);
int32_t lytG_in_offset(const lytG_ll *L, int32_t i);   /* first flat input bit of in-dim i */
int32_t lytG_out_offset(const lytG_ll *L, int32_t k);  /* first flat output bit of out-dim k */
int64_t lytG_in_size(const lytG_ll *L, int32_t i);
int64_t lytG_out_size(const lytG_ll *L, int32_t k);
/* Component k of basis `bit` of in-dim i (Triton's getBasis(in, i, out)). */
int64_t lytG_basis(const lytG_ll *L, int32_t i, int32_t bit, int32_t k);
/* Splits a flat output word into per-out-dim values (vals: nout slots). */
void lytG_unflatten_out(const lytG_ll *L, uint64_t w, int64_t *vals);

int32_t lytG_rank(const lytG_ll *L);  /* GF(2) rank (cached, or computed now) */
int lytG_is_surjective(const lytG_ll *L);
int lytG_is_injective(const lytG_ll *L);
int lytG_is_invertible(const lytG_ll *L);
int64_t lytG_num_consecutive(const lytG_ll *L);  /* getNumConsecutiveInOut */
/* masks[i]: bits of in-dim i that change no output (nin slots). */
void lytG_free_variable_masks(const lytG_ll *L, uint64_t *masks);
int lytG_sublayout_is_zero(lytS_ctx *cx, const lytG_ll *L, int32_t nins,
                           const char *const *ins, int32_t nouts, const char *const *outs);
/* Fails, as Triton does, unless every dim is both an in-dim and an
** out-dim (a dim that is neither gives 0). */
int lytG_is_trivial_over(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims);
int lytG_equal(const lytG_ll *a, const lytG_ll *b);  /* operator== */
int lytG_equal_ignoring_out_sizes(const lytG_ll *a, const lytG_ll *b);

/* apply: vals[i] is the value of in-dim i (L's order); bits at or above
** the dim's size are ignored as in Triton. out: nout slots. */
void lytG_apply(const lytG_ll *L, const int64_t *vals, int64_t *out);
/* The same, failing unless 0 <= vals[i] < size of in-dim i. */
void lytG_apply_checked(lytS_ctx *cx, const lytG_ll *L, const int64_t *vals, int64_t *out);
uint64_t lytG_apply_flat(const lytG_ll *L, uint64_t x);  /* flat in -> flat out */
void lytG_apply_many(const lytG_ll *L, const uint64_t *in, uint64_t *out, int32_t n);

/* ================================================================== */
/* algebra (linear/linear.c, linear/solve.c)                                  */
/* ================================================================== */

lytG_ll *lytG_product(lytS_ctx *cx, const lytG_ll *inner, const lytG_ll *outer);
lytG_ll *lytG_compose(lytS_ctx *cx, const lytG_ll *L, const lytG_ll *outer);  /* outer∘L */
lytG_ll *lytG_invert_and_compose(lytS_ctx *cx, const lytG_ll *L, const lytG_ll *outer);
lytG_ll *lytG_invert(lytS_ctx *cx, const lytG_ll *L);
lytG_ll *lytG_pseudoinvert(lytS_ctx *cx, const lytG_ll *L);
/* A = B * C solved for C (left) or A = C * B (right); fail with the
** reason, or the try forms return NULL. */
lytG_ll *lytG_divide_left(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B);
lytG_ll *lytG_divide_right(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B);
lytG_ll *lytG_try_divide_left(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B);
lytG_ll *lytG_try_divide_right(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B);
lytG_ll *lytG_quotient(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims);
lytG_ll *lytG_try_quotient(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                           const char *const *dims);

/* ================================================================== */
/* layout conversions as Triton lowers them (linear/cvt.c)            */
/* ================================================================== */

/* How far data moves in a ttg.convert_layout: not at all, within each
** thread's registers, between lanes by warp shuffles, through shared
** memory, or across CTAs (which Triton 3.6 does not lower). */
typedef enum {
  LYTG_CVT_NONE, LYTG_CVT_REGISTERS, LYTG_CVT_SHUFFLE, LYTG_CVT_SHARED, LYTG_CVT_CTAS
} lytG_cvt_kind;

typedef struct lytG_cvt {
  lytG_cvt_kind kind;
  const lytG_ll *minimal;   /* Triton's minimalCvtLayout(src, dst) */
  int32_t transpositions;   /* register<->lane transpositions when only lanes move, else -1 */
} lytG_cvt;

/* dst.invertAndCompose(src) with block, warp, lane and register quotiented
** away, slowest first, while the conversion is the identity on them. */
lytG_ll *lytG_minimal_cvt(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst);
/* src and dst: distributed layouts (register, lane, warp, block) of one tensor. */
void lytG_cvt_plan(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst, lytG_cvt *out);
const char *lytG_cvt_name(lytG_cvt_kind k);  /* "none", "registers", "shuffle", "shared", "ctas" */

/* A conversion through shared memory as Triton 3.6 lowers it on NVIDIA
** (linear/swizzle.c): the scratch layout and each side's instructions. */
typedef struct lytG_smem_side {
  int32_t instr;        /* 0 st/ld.shared, 1 stmatrix/ldmatrix, 2 their .trans */
  const char *name;     /* "st.shared", "ldmatrix.trans", ... */
  int32_t elems, bits;  /* elements and bits one thread moves per instruction */
  int32_t matrices;     /* 8x8 matrices per ldmatrix/stmatrix (.x1/.x2/.x4), else 0 */
  int64_t count;        /* instructions per thread, all rounds */
  int32_t conflicts;    /* Triton's model: extra wavefronts per instruction */
} lytG_smem_side;

typedef struct lytG_smem_plan {
  lytG_smem_side st, ld;
  int32_t reps;         /* log2 of the rounds the tile is moved in */
  int64_t scratch;      /* elements of scratch per round */
  /* The scratch layout, Triton's: its in-bits vector, bank, segment (these
  ** make the offset, least significant first), then reps, each bit's image
  ** a flat element index (the tensor's dims, dim0 least significant). */
  int32_t nvec, nbank, nseg, nbases;
  uint64_t bases[LYT_LL_MAXBITS];
} lytG_smem_plan;

/* src, dst: register, lane, warp -> dims of one tensor (block dropped);
** bits: the element's width as Triton stores it (i1 as 8, pointers as 64);
** sm: the compute capability (90 for sm_90). */
void lytG_cvt_smem(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst, int32_t bits,
                   int32_t sm, lytG_smem_plan *out);
/* One side of a local memory op as Triton 3.6 lowers it on NVIDIA:
** kind 0 writes the registers of reg (register, lane, warp[, block] ->
** dims) to a buffer of shared layout smem (offset[, block] -> the same
** dims) (local_alloc, local_store), 1 reads them (local_load), 2 copies
** them from global memory (async_copy_global_to_local). maxvec > 0 caps
** the vector (an async copy's contiguity, a padded buffer's smallest
** interval; its linear component is smem), its registers then in order
** and no ldmatrix/stmatrix. conflicts: Triton's model, -1 where it has
** none (ldmatrix/stmatrix, padded buffers). */
void lytG_local_access(lytS_ctx *cx, const lytG_ll *reg, const lytG_ll *smem, int32_t bits,
                       int32_t sm, int32_t kind, int32_t maxvec, lytG_smem_side *out);

/* ================================================================== */
/* structural transforms (linear/shape.c)                              */
/* ================================================================== */

/* Keeps the listed dims in L's order (argument order is irrelevant). */
lytG_ll *lytG_sublayout(lytS_ctx *cx, const lytG_ll *L, int32_t nins,
                        const char *const *ins, int32_t nouts, const char *const *outs);
lytG_ll *lytG_transpose_ins(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                            const char *const *order);
lytG_ll *lytG_transpose_outs(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                             const char *const *order);
lytG_ll *lytG_reshape_ins(lytS_ctx *cx, const lytG_ll *L, int32_t n, const lytG_dim *dims);
lytG_ll *lytG_reshape_outs(lytS_ctx *cx, const lytG_ll *L, int32_t n, const lytG_dim *dims);
lytG_ll *lytG_flatten_ins(lytS_ctx *cx, const lytG_ll *L);
lytG_ll *lytG_flatten_outs(lytS_ctx *cx, const lytG_ll *L);
lytG_ll *lytG_resize_in_dim(lytS_ctx *cx, const lytG_ll *L, const char *in, int64_t size);
lytG_ll *lytG_resize_out_dim(lytS_ctx *cx, const lytG_ll *L, const char *out, int64_t size);
/* The renamed dim moves to the last position, as Triton's code does. */
lytG_ll *lytG_rename_in_dim(lytS_ctx *cx, const lytG_ll *L, const char *from, const char *to);
lytG_ll *lytG_squeeze_ins(lytS_ctx *cx, const lytG_ll *L, const char *in);   /* size-1 only */
lytG_ll *lytG_squeeze_outs(lytS_ctx *cx, const lytG_ll *L, const char *out);
lytG_ll *lytG_remove_zero_bases(lytS_ctx *cx, const lytG_ll *L, const char *in);
lytG_ll *lytG_concat_ins(lytS_ctx *cx, const lytG_ll *a, const lytG_ll *b);
lytG_ll *lytG_concat_outs(lytS_ctx *cx, const lytG_ll *a, const lytG_ll *b);

/* ================================================================== */
/* helpers around the class (linear/shape.c)                           */
/* ================================================================== */

/* "dim0".."dim15": string literals, valid forever; NULL if d is out of range. */
const char *lytG_std_dim_name(int32_t d);
/* Wherever `names` (rank entries) is NULL below, dim0..dim{rank-1} are used. */

/* Product over i of identity_1d(shape[order[i]], in, names[order[i]]). */
lytG_ll *lytG_identity_standard_nd(lytS_ctx *cx, const char *in, int32_t rank,
                                   const int64_t *shape, const int32_t *order,
                                   const char *const *names);
/* shape[d] is the wanted size of out-dim names[d]; L's out-dims must be
** exactly those. Repeats via the first in-dim, in L's out-dim order. */
lytG_ll *lytG_ensure_not_smaller(lytS_ctx *cx, const lytG_ll *L, int32_t rank,
                                 const int64_t *shape, const char *const *names);
/* For each too-large out-dim (L's order), zeroes the largest basis
** values first until the size fits; ties go in in-dim order, then basis
** order (what libstdc++'s sort does for up to 16 candidates). With
** broadcast_registers 0, "register" bases are dropped instead of zeroed
** (Triton's broadcastRegisters=false). Out sizes are then re-inferred and
** surjectivity required, as Triton does. */
lytG_ll *lytG_ensure_not_larger(lytS_ctx *cx, const lytG_ll *L, int32_t rank,
                                const int64_t *shape, const char *const *names,
                                int broadcast_registers);
lytG_ll *lytG_combine_cta_cga(lytS_ctx *cx, const lytG_ll *cta, const lytG_ll *cga,
                              int32_t rank, const int64_t *shape, const char *const *names);
/* Merges two ordered name lists keeping both orders, ties to a; result
** into out (na+nb slots), its length returned; fails if none exists. */
int32_t lytG_supremum(lytS_ctx *cx, int32_t na, const char *const *a, int32_t nb,
                      const char *const *b, const char **out);

/* ================================================================== */
/* printing (linear/shape.c)                                           */
/* ================================================================== */

/* {register: [[0,1],[0,2]], lane: [[1,0]], warp: []} -> {dim0: 8, dim1: 4} */
void lytG_print(lytS_buf *b, const lytG_ll *L);
/* Triton's LinearLayout::toString() text. */
void lytG_print_triton(lytS_buf *b, const lytG_ll *L);
/* #ttg.linear<{register = [[0, 1], [0, 2]], lane = [...], warp = [], block = []}> */
void lytG_print_attr(lytS_buf *b, const lytG_ll *L);
/* Its in-dims alone, "register = [[0, 1]], lane = [...]", as attributes write them. */
void lytG_print_attr_ins(lytS_buf *b, const lytG_ll *L);
const char *lytG_str(lytS_ctx *cx, const lytG_ll *L);  /* lytG_print into a new string */

/* ================================================================== */
/* Triton's layout utilities (linear/utils.c)                          */
/* ================================================================== */

int lytG_square_sublayout_is_identity(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                                      const char *const *dims);
uint64_t lytG_output_basis_mask(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                                const char *const *ins, const char *out);
uint64_t lytG_input_basis_mask(lytS_ctx *cx, const lytG_ll *L, const char *in, int32_t n,
                               const char *const *outs);
/* The quotient; *size the identity prefix's size. */
lytG_ll *lytG_factor_identity_prefix(lytS_ctx *cx, const lytG_ll *L, const char *in,
                                     const char *out, int64_t max_size, int64_t *size);
lytG_ll *lytG_rename_dims(lytS_ctx *cx, const lytG_ll *L, int32_t ni, const char *const *in_from,
                          const char *const *in_to, int32_t no, const char *const *out_from,
                          const char *const *out_to);

/* getReps: cvt with tile's leading bases zeroed; NULL where cvt does not
** start with tile's bases or its others touch tile's out-bits. */
lytG_ll *lytG_get_reps(lytS_ctx *cx, const lytG_ll *cvt, const lytG_ll *tile);
/* getIntegerStrides: 1 and stride[d], mask[d] for each of ins, or 0 (no value). */
int lytG_integer_strides(lytS_ctx *cx, const lytG_ll *L, const char *out, int32_t n,
                         const char *const *ins, int64_t *stride, uint64_t *mask);
int lytG_is_identity_on_out_dim(lytS_ctx *cx, const lytG_ll *L, const char *dim);
lytG_ll *lytG_invert_and_compose_block_local(lytS_ctx *cx, const lytG_ll *mem,
                                             const lytG_ll *regs);
/* ColumnAction(action, in, log2).apply(L); action's entries < log2 */
lytG_ll *lytG_column_action(lytS_ctx *cx, const lytG_ll *L, const char *in, int32_t log2,
                            int32_t n, const int32_t *action);
/* factorThrough (linear/solve.c): X with A(X(y)) == B(y), or NULL */
lytG_ll *lytG_factor_through(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B);

/* ================================================================== */
/* internal: shared by the linear*.c files only                        */
/* ================================================================== */

/* All ones in the low n bits (n in 0..64). */
#define lytG_mask(n) ((n) >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << (n)) - 1))

lytG_ll *lytG_new(lytS_ctx *cx);  /* zeroed, to be filled then finished */
/* Checks dims (count, names, sizes, bit totals), clears unused columns,
** computes rank and fails if require_surjective and not surjective;
** what names the operation in messages. */
void lytG_finish(lytS_ctx *cx, lytG_ll *L, int require_surjective, const char *what);
/* The same with a rank the caller already knows (rank < 0: compute). */
void lytG_finish_rank(lytS_ctx *cx, lytG_ll *L, int require_surjective, const char *what,
                      int32_t rank);
/* What lytG_finish_rank records (rank, flag) for a lytG_shell whose dims
** are those of layouts already checked and whose columns stay inside them
** (compose, invert): the checks cannot fail, so they are not run again. */
void lytG_finish_known(lytG_ll *L, int32_t rank, int require_surjective);
lytG_ll *lytG_shell(lytS_ctx *cx, int32_t nin, const lytG_dim *in, int32_t inbits,
                    int32_t nout, const lytG_dim *out, int32_t outbits);
/* The same checks; the message instead of failing (NULL when fine). */
const char *lytG_finish_msg(lytS_ctx *cx, lytG_ll *L, int require_surjective, const char *what);
/* The index of name in d[0..n), or -1. */
int32_t lytG_find_dim(int32_t n, const lytG_dim *d, const char *name);
int32_t lytG_rank_of(const uint64_t *cols, int32_t n);
/* Component k of a flat output word. */
uint64_t lytG_field(const lytG_ll *L, uint64_t w, int32_t k);
/* Appends "[a, b]"-style name lists to messages. */
const char *lytG_names_str(lytS_ctx *cx, int32_t n, const char *const *names);
const char *lytG_in_names(lytS_ctx *cx, const lytG_ll *L);
const char *lytG_out_names(lytS_ctx *cx, const lytG_ll *L);
/* supremum without failing: length, or -1 if none exists. */
int32_t lytG_sup_try(int32_t na, const char *const *a, int32_t nb, const char *const *b,
                     const char **out);

#endif
