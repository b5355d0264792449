/*
** program.h: the backend-neutral memory-operation program (lytK_) that a
** kernel description lowers to, and that every backend prints.
**
** Execution model (CUDA-like): `blocks` blocks of `threads` threads; each
** thread has `nregs` element registers of `elem_bytes` bytes each, and
** the block has `smem_bytes` of shared memory. The kernel takes two
** pointers: `in` (in_elems elements) and `out` (out_elems elements).
** Every thread runs the ops in order; LYTK_BAR is a block-wide barrier.
**
** Integer values are computed by a DAG of nodes. A node reads only
** earlier nodes, so backends evaluate them in index order, once per
** thread (they are the hoisted per-thread address arithmetic). Every
** node value is an unsigned integer below 2^31 (the lowering checks the
** ranges), so 32-bit arithmetic is exact; DIV and MOD have a positive
** constant divisor (node b is a CONST); SHL/SHR shift by a CONST.
**
** An access moves `vec` element registers reg, reg+rstep, ...,
** reg+(vec-1)*rstep from or to the vec consecutive elements at element
** offset ((node[addr] ^ xor_k) + add_k) of its space (in, out, or shared
** memory). rstep is a power of two: 1 for registers side by side, more
** when a thread's registers run along another dim of the tile than the
** memory does (a register-level transpose, as when 4x4 elements per
** thread are read by rows and staged by columns). rstep 0: element i is
** register reg ^ (XOR of rbit[j] over the set bits j of i), any register
** bits (vec <= 8), as when registers are packed into a vector in another
** order (lytK_elem_reg). vec*elem_bytes is a
** power of two up to 16 and the lowering has proven the byte address
** aligned to it (given in/out aligned to 16 bytes). When
** pred >= 0 the access is skipped by threads where node[pred] != 0
** (threads that hold copies of data another thread stores, or elements
** outside a tensor that the tile does not divide).
**
** Register ops (a layout conversion between two distributed layouts):
** LYTK_MOV copies register src to reg; LYTK_SHFL copies register src of
** thread node[addr] (a thread of the same warp: the lowering never
** crosses one) to reg; LYTK_XORK XORs the vec registers reg.. with the
** low bits of node[addr] (an elementwise operation with a runtime operand,
** which keeps a compiler from folding conversions away). A predicated MOV
** is a select. Every thread runs every SHFL of a run of SHFLs together:
** the registers one reads are not written by another in the same run.
** LYTK_LOOP (vec: the trip count) and LYTK_END bracket ops that run vec
** times; loops do not nest, and nodes do not change inside them.
**
** LYTK_LDSM and LYTK_STSM move vec (1, 2, 4) matrices of 8 rows of 16
** bytes per warp, as PTX's ldmatrix/stmatrix (.trans when trans):
** thread t (t the lane) gives the shared element offset
** ((node[addr] ^ xor_k) + add_k) of row t&7 of matrix t>>3; thread t
** holds word t&3 of row t>>2 of each matrix i, or (.trans, 16-bit only)
** the elements of rows 2(t&3) and 2(t&3)+1 in column t>>2, in registers
** reg ^ rbit[1..2] as i's bits say. A word is two 2-byte elements, the
** second in register ^ rbit[0], or one 4-byte element (rbit[0] = 0). The same move, thread by
** thread, is one 16-bit access per register: register reg ^ R (R made of
** rbit[j]) at ((node[src] ^ xor_k ^ K) + add_k), K made of the same
** koff[j] (lytK_matrix_elem), which targets without these instructions
** use. pred, if any, is the same in a whole warp.
**
** l2_load and l2_store are L2 eviction priorities for the global loads
** and stores: a performance hint with no effect on the data, which a
** target without such a hint ignores.
*/
#ifndef LYT_PROGRAM_H
#define LYT_PROGRAM_H

#include <stdint.h>

typedef enum lytK_opcode {
  LYTK_TID,    /* the thread index in the block, [0, threads) */
  LYTK_CTAID,  /* the block index, [0, blocks) */
  LYTK_CONST,  /* k */
  LYTK_ADD, LYTK_MUL, LYTK_AND, LYTK_OR, LYTK_XOR, LYTK_SHL, LYTK_SHR, LYTK_DIV, LYTK_MOD,
  LYTK_GE      /* 1 if a >= b, else 0 */
} lytK_opcode;

/* The C spelling of a binary opcode ("+", "<<", ...), "" for the others. */
static inline const char *lytK_opsym(lytK_opcode op) {
  static const char *const sym[] = { "", "", "", "+", "*", "&", "|", "^", "<<", ">>", "/", "%", ">=" };
  return (unsigned)op < sizeof sym / sizeof sym[0] ? sym[op] : "";
}

/* A binary opcode applied to two node values (every one is below 2^31). */
static inline int64_t lytK_fold(lytK_opcode op, int64_t a, int64_t b) {
  switch (op) {
    case LYTK_ADD: return a + b;
    case LYTK_MUL: return a * b;
    case LYTK_AND: return a & b;
    case LYTK_OR: return a | b;
    case LYTK_XOR: return a ^ b;
    case LYTK_SHL: return a << b;
    case LYTK_SHR: return a >> b;
    case LYTK_DIV: return a / b;
    case LYTK_MOD: return a % b;
    case LYTK_GE: return a >= b;
    default: return 0;
  }
}

typedef struct lytK_node {
  lytK_opcode op;
  int32_t a, b;  /* operand nodes (binary ops) */
  int64_t k;     /* LYTK_CONST only */
} lytK_node;

typedef enum lytK_kind {
  LYTK_LDG,    /* registers <- in */
  LYTK_STG,    /* out <- registers */
  LYTK_LDS,    /* registers <- shared */
  LYTK_STS,    /* shared <- registers */
  LYTK_BAR,    /* block barrier (no operands); vec 1: a warp's only */
  LYTK_MOV,    /* reg <- src */
  LYTK_SHFL,   /* reg <- src of thread node[addr] */
  LYTK_XORK,   /* reg .. reg+vec-1 ^= node[addr] */
  LYTK_LOOP,   /* the ops up to the matching LYTK_END run vec times */
  LYTK_END,
  LYTK_LDSM,   /* registers <- shared, vec 8x8 matrices of 16-bit elements (ldmatrix) */
  LYTK_STSM    /* shared <- registers, the same (stmatrix) */
} lytK_kind;

typedef struct lytK_op {
  lytK_kind kind;
  int32_t vec, reg, addr;
  int64_t xor_k, add_k;
  int32_t pred;  /* -1: always */
  int32_t rstep; /* register step between a vector's elements */
  int32_t src;   /* MOV, SHFL: the register read; LDSM, STSM: a node */
  int32_t trans; /* LDSM, STSM: the .trans form */
  int32_t rbit[3];  /* LDSM, STSM: register index bits of the half, matrix bit 0, 1 */
  int64_t koff[3];  /* LDSM, STSM: their element offsets */
} lytK_op;

typedef enum lytK_l2 {
  LYTK_L2_NONE,         /* no hint */
  LYTK_L2_EVICT_FIRST,  /* the line goes before others */
  LYTK_L2_EVICT_LAST    /* the line stays longer than others */
} lytK_l2;

/* "evict_first", "evict_last"; NULL for LYTK_L2_NONE. */
static inline const char *lytK_l2_name(lytK_l2 h) {
  return h == LYTK_L2_EVICT_FIRST ? "evict_first" : h == LYTK_L2_EVICT_LAST ? "evict_last" : NULL;
}

/* The bank model a program's shared accesses are counted by: NVIDIA's
** (warps of 32 threads), or AMD CDNA3's (waves of 64); backends/bank.c. */
typedef enum lytK_model { LYTK_MODEL_NVIDIA, LYTK_MODEL_CDNA3 } lytK_model;

typedef struct lytK_program {
  const char *name;           /* a C identifier */
  const char *mechanism;      /* how the load layout's registers reach the store
                                 layout's: "none", "registers", "shuffle",
                                 "shared"; NULL when one layout does both */
  const char *mechanism_back; /* the store layout's back to the load layout's,
                                 when round trips take another; else NULL */
  int32_t conversions;        /* layout conversions the program makes */
  int32_t rounds, buffers;    /* stagings of a conversion, scratch buffers they alternate in */
  lytK_model model;           /* CDNA3 where the layouts have 64 lanes */
  int32_t lanes;              /* threads of a warp its shuffles assume (0: none) */
  const struct lytG_ll *smem; /* the shared layout it stages through, NULL if none */
  int32_t elem_bytes;         /* 1, 2, 4 or 8 */
  const char *elem;           /* "f16", "bf16", "f32", "f64", "i8", "i32" */
  int32_t threads, blocks, smem_bytes, nregs;
  lytK_l2 l2_load, l2_store;
  int64_t in_elems, out_elems;
  int32_t nnodes, nops;
  const lytK_node *node;
  const lytK_op *op;
} lytK_program;

/* The register of element i of an access. */
static inline int32_t lytK_elem_reg(const lytK_op *o, int32_t i) {
  if (o->rstep) return o->reg + i * o->rstep;
  int32_t r = o->reg;
  for (int32_t j = 0; j < 3; j++)
    if (i >> j & 1) r ^= o->rbit[j];
  return r;
}

/* The elements a thread moves in a matrix op: two per matrix for 16-bit
** elements, one for 32-bit ones (rbit[0] = 0, no half). */
static inline int32_t lytK_matrix_elems(const lytK_op *o) { return o->vec * (o->rbit[0] ? 2 : 1); }

/* Element k of a matrix op as a plain LDS or STS: half k&1 of matrix
** k>>1 (16-bit), or matrix k (32-bit). */
static inline lytK_op lytK_matrix_elem(const lytK_op *o, int32_t k) {
  lytK_op e = *o;
  e.kind = o->kind == LYTK_LDSM ? LYTK_LDS : LYTK_STS;
  e.vec = 1, e.rstep = 1, e.addr = o->src;
  if (!o->rbit[0]) k <<= 1;
  for (int32_t j = 0; j < 3; j++)
    if (k >> j & 1) e.reg ^= o->rbit[j], e.xor_k ^= o->koff[j];
  return e;
}

/* The values of every node for thread tid of block cta, into v[nnodes]. */
static inline void lytK_eval_nodes(const lytK_program *P, int64_t tid, int64_t cta, int64_t *v) {
  for (int32_t i = 0; i < P->nnodes; i++) {
    const lytK_node *n = &P->node[i];
    v[i] = n->op == LYTK_TID ? tid : n->op == LYTK_CTAID ? cta : n->op == LYTK_CONST ? n->k
         : lytK_fold(n->op, v[n->a], v[n->b]);
  }
}

#endif
