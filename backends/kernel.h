/*
** backends/kernel.h: kernel descriptions made of layouts, and their lowering to
** the memory-operation program of backends/program.h (lytK_).
**
** A kernel moves a tensor of `shape` (rank 1 to 4) from `in` to `out`:
** the element at logical coordinate x is read at element offset
** src(x) = sum x_d*src_stride[d] and written at dst(x). The grid tiles the
** tensor by `tile` (the last tile along a dim may stick out of the tensor:
** its accesses outside are predicated off), blocks in row-major order of
** the tile grid, or as the
** linear layout `grid` says: block -> dim0.. of the tile grid); in a
** block, the `load` layout (register, lane, warp -> dim0.. over the tile,
** a linear layout) says which thread reads which element into which
** register, and the `store` layout which thread writes it. When they
** differ the registers are converted by `mechanism`: renamed, moved
** within each thread, shuffled within each warp, or staged in shared
** memory through `smem` (tile coordinate -> shared offset, linear over
** GF(2)); NULL smem: chosen by lytK_pick_smem. Copies in a layout (zero
** bases) are allowed: for stores only the first owner writes.
**
** Thread ids: tid = warp*lanes + lane. Errors leave through lytS_fail.
*/
#ifndef LYT_KERNEL_H
#define LYT_KERNEL_H

#include <stdint.h>

#include "interp/base/context.h"
#include "interp/base/inttuple.h"
#include "interp/linear/linear.h"
#include "lang/source.h"
#include "backends/program.h"

#define LYTK_MAXRANK 4
#define LYTK_MAX_SMEM 232448  /* shared memory of one block, bytes (sm_90's opt-in limit) */
#define LYTK_MAX_REGS 256     /* element registers of one thread */

/* How a kernel's data gets from the load layout to the store layout
** (lytK_kernel.mechanism); AUTO: the cheapest that can (backends/lower.c). */
typedef enum lytK_mech {
  LYTK_MECH_AUTO, LYTK_MECH_NONE, LYTK_MECH_REGISTERS, LYTK_MECH_SHUFFLE, LYTK_MECH_SHARED
} lytK_mech;
extern const char *const lytK_mech_names[];  /* "auto", "none", ..., NULL */

typedef struct lytK_kernel {
  const char *name, *elem;          /* elem: f16 bf16 f32 f64 i8 i32 */
  int32_t elem_bytes, rank;
  int64_t shape[LYTK_MAXRANK], tile[LYTK_MAXRANK];
  int64_t src_stride[LYTK_MAXRANK], dst_stride[LYTK_MAXRANK];
  const lytG_ll *load, *store;      /* store NULL: the load layout */
  const lytG_ll *smem;              /* in-dims dim0.., out-dim offset; NULL: picked */
  int32_t smem_picked;              /* smem is the lowering's own pick, kept to reuse */
  int32_t grid_order[LYTK_MAXRANK]; /* dims of the tile grid, fastest first */
  int32_t has_grid_order;           /* 0: the last dim fastest (row-major) */
  int32_t tiles_per_block;          /* rounds of one block (0 or 1: one tile) */
  int32_t grid_group;               /* rank 2: G x G groups of tiles, row-major (0: none) */
  const lytG_ll *grid;              /* block -> tile-grid coordinate (dim0..); NULL: the above */
  int32_t smem_bytes;               /* shared memory a block reserves (0: what staging needs) */
  lytK_l2 l2_load, l2_store;        /* L2 eviction hints of the global accesses */
  lytK_mech mechanism;              /* load -> store layout; AUTO: the cheapest */
  int32_t round_trips;              /* then K times: x ^= ctaid, store -> load
                                       layout, x ^= ctaid, load -> store layout */
  int32_t buffers;                  /* scratch buffers stagings alternate in (0: picked) */
  lyt_loc at;                       /* the kernel() call that made it: errors found
                                       later, when it is emitted, point there */
} lytK_kernel;

/* A distributed layout read as threads and registers: in-dims register,
** lane, warp (any may be absent, size 1); tid = warp*lanes + lane. Shared
** by the lowering and the bank-conflict model (backends/dist.c). */
typedef struct lytK_dist {
  const lytG_ll *L;
  int32_t ireg, ilane, iwarp;       /* in-dim indices, -1 if absent */
  int32_t regbits, lanebits, warpbits;
} lytK_dist;

lytK_dist lytK_dist_of(const lytG_ll *L);
/* The tile coordinate of register r of thread t, into x[L->nout]. */
void lytK_coord(const lytK_dist *g, int64_t r, int64_t t, int64_t *x);
/* The tile coordinate bits (flat, as L->col) of register bit b (thread 0)
** or of thread bit b (lane bits, then warp bits). */
uint64_t lytK_col(const lytK_dist *g, int thread, int32_t b);
int64_t lytK_regs(const lytK_dist *g);
int64_t lytK_threads(const lytK_dist *g);
/* The shared offset S(x) of every register of thread 0 (thread = 0:
** o[regs]) or of register 0 of every thread (thread = 1: o[threads]);
** register r of thread t is at the XOR of the two (GF(2) linearity). */
void lytK_offsets(const lytK_dist *g, const lytG_ll *S, int thread, int64_t *o);
/* The lowest register bit a such that, in every thread, each group of
** vec registers r, r + 2^a, ..., r + (vec-1)*2^a lies at vec consecutive
** offsets of S (tile -> offset) starting at a multiple of vec: the
** registers one shared-memory vector of vec elements moves; -1 if none. */
int32_t lytK_vec_bit(const lytK_dist *g, const lytG_ll *S, int32_t vec);

/* A conversion within warps by shuffles (backends/shuffle.c), from the
** registers of layout `from` to those of `to`. In round j every thread t
** sends its register send[j](t), reads the thread of its own warp whose
** lane is lane[j](t), and puts what it gets in register dst[j] ^ E(t);
** registers of `to` that differ from another only in the bits `dup`
** (zero bases: copies) are filled by moves afterwards. Each function of t
** is affine over GF(2) in t's bits: c ^ (XOR of n[b] over the set bits b). */
#define LYTK_TIDBITS 10  /* 1024 threads */
typedef struct lytK_affine { int64_t c, n[LYTK_TIDBITS]; } lytK_affine;
typedef struct lytK_shuffle {
  int32_t rounds, tbits;
  int32_t *dst;
  lytK_affine *send, *lane, e;  /* e.c = 0 */
  int64_t dup;
} lytK_shuffle;
/* NULL when warps do not hold the same elements or no such rounds exist. */
lytK_shuffle *lytK_plan_shuffle(lytS_ctx *cx, const lytK_dist *from, const lytK_dist *to);
/* For every register of `to`, the register of `from` holding the same
** element in every thread; NULL unless the layouts give each thread the
** same elements (the same thread bases). */
int32_t *lytK_plan_registers(lytS_ctx *cx, const lytK_dist *from, const lytK_dist *to);
/* The value of an affine function at t. */
int64_t lytK_affine_at(const lytK_affine *f, int32_t tbits, int64_t t);

/* Bytes of an element type, 0 if unknown. */
int32_t lytK_elem_bytes(const char *elem);  /* a type kernels move; 0 if not one */
int32_t lytK_type_bytes(const char *elem);  /* any type lyt names (pictures); 0 if none */

/* The same description: binding a kernel (K2 = K) copies it. */
int lytK_equal(const lytK_kernel *a, const lytK_kernel *b);

/* Checks the description (shapes, tiles dividing the tensor, layouts over
** the tile, offsets in range) and lowers it. */
lytK_program *lytK_lower(lytS_ctx *cx, const lytK_kernel *k);

/* For each out element, the in element the kernel must leave there (-1:
** none), from src and dst alone (not from the program): the oracle the
** C and GPU tests compare against. */
int64_t *lytK_expect(lytS_ctx *cx, const lytK_kernel *k, int64_t *out_elems);

/* The code of n kernels for a target ("c", "ptx", "amdgcn"; arch NULL:
** its default), appended to b: the one path to backend text (emit.c). */
void lytK_emit(lytS_ctx *cx, lytS_buf *b, const lytK_kernel *const *ks, int32_t n,
               const char *target, const char *arch);

/* The program as text, one op per line (backends/program_text.c). */
void lytK_print_program(lytS_buf *b, const lytK_program *P);

/* Shared-memory bank conflicts of one distributed access pattern: every
** thread accesses its elements (dist: register, lane, warp -> dim0..)
** at smem(x) (dim0.. -> offset), `vec` consecutive registers per access,
** one access per register group and warp. A warp's access costs as many
** wavefronts as the largest number of distinct 4-byte words one of the
** 32 banks must serve (at least its bytes / 128); conflicts are the
** wavefronts beyond that ideal, summed over the warps and accesses of a
** block (what Nsight Compute counts as bank conflicts). */
typedef struct lytK_conflicts {
  int64_t accesses;     /* warp-level instructions */
  int64_t wavefronts;
  int64_t ideal;
  int64_t conflicts;    /* wavefronts - ideal */
} lytK_conflicts;
lytK_conflicts lytK_bank_conflicts(lytS_ctx *cx, const lytG_ll *dist, const lytG_ll *smem,
                                   int32_t elem_bytes, int32_t vec, int32_t lanes_per_warp,
                                   int load);
/* The same over a lowered program's shared accesses (block 0, warps of 32
** or waves of 64 by P->model), from the addresses its nodes compute. */
lytK_conflicts lytK_program_conflicts(lytS_ctx *cx, const lytK_program *P);
lytK_conflicts lytK_grid_conflicts(lytS_ctx *cx, const lytK_program *P);  /* every block */

/* The widest vector (elements) both layouts can move through smem, and
** an XOR swizzle of the row-major tile that gives zero bank conflicts for
** the writes (load layout) and the reads (store layout) at that width,
** or the fewest conflicts; see backends/lower.c. */
lytG_ll *lytK_pick_smem(lytS_ctx *cx, const lytK_kernel *k);

#endif
