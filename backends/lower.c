/*
** backends/lower.c: a kernel description to a memory-operation program.
**
** Every address is split into a per-thread part, computed once from the
** thread and block ids (nodes), and a per-register constant. For a
** distributed layout L the tile coordinate of register r of thread t is
** x = L(r) ^ L(t) (GF(2): the register and thread bits XOR). In shared
** memory that XOR survives exactly: smem(x) = smem(L(t)) ^ smem(L(r)),
** one XOR with a constant per access. In global memory the offset is
** sum_d x_d * stride_d, and L(r)_d ^ L(t)_d becomes an addition when the
** register's bits and the bits the threads can set are disjoint (the
** usual case); otherwise the register gets its own address node.
**
** Vector widths come from the AxisInfo core in exact mode: the offsets of
** every thread's registers (block 0, and one block step per dim, which
** bounds the divisibility of every block) give contiguity along the
** registers and divisibility, and lytV_vector_width takes the minimum
** with the 16-byte limit.
*/
#include <string.h>

#include "interp/axisinfo/axisinfo.h"
#include "backends/kernel.h"

#define MAXNODES 4096

typedef struct prog {
  lytS_ctx *cx;
  lytK_node *node;
  lytK_op *op;
  int32_t nnodes, nops, capops;
  int32_t spare, spares;  /* free registers from `spare` on; how many stores used */
} prog;

/* ------------------------------------------------------------------ */
/* nodes, with constant folding and sharing                            */
/* ------------------------------------------------------------------ */

static int32_t add_node(prog *p, lytK_opcode op, int32_t a, int32_t b, int64_t k) {
  for (int32_t i = 0; i < p->nnodes; i++)
    if (p->node[i].op == op && p->node[i].a == a && p->node[i].b == b && p->node[i].k == k)
      return i;
  if (p->nnodes == MAXNODES)
    lytS_fail(p->cx, LYT_ERRLIMIT, "kernel: more than %d address nodes", MAXNODES);
  p->node[p->nnodes] = (lytK_node){ op, a, b, k };
  return p->nnodes++;
}

static int32_t cnst(prog *p, int64_t k) { return add_node(p, LYTK_CONST, -1, -1, k); }
static int is_const(const prog *p, int32_t n, int64_t k) {
  return p->node[n].op == LYTK_CONST && p->node[n].k == k;
}

static int32_t bin(prog *p, lytK_opcode op, int32_t a, int32_t b) {
  const lytK_node *x = &p->node[a], *y = &p->node[b];
  if (x->op == LYTK_CONST && y->op == LYTK_CONST) return cnst(p, lytK_fold(op, x->k, y->k));
  int zero_b = is_const(p, b, 0), one_b = is_const(p, b, 1);
  switch (op) {
    case LYTK_ADD: case LYTK_OR: case LYTK_XOR:
      if (zero_b) return a;
      if (is_const(p, a, 0)) return b;
      break;
    case LYTK_MUL:
      if (one_b) return a;
      if (zero_b || is_const(p, a, 0)) return cnst(p, 0);
      break;
    case LYTK_SHL: case LYTK_SHR: if (zero_b) return a; break;
    case LYTK_DIV: if (one_b) return a; break;
    case LYTK_MOD: if (one_b) return cnst(p, 0); break;
    case LYTK_AND: if (zero_b) return cnst(p, 0); break;
    default: break;
  }
  return add_node(p, op, a, b, 0);
}

static int32_t bink(prog *p, lytK_opcode op, int32_t a, int64_t k) { return bin(p, op, a, cnst(p, k)); }

/* ------------------------------------------------------------------ */
/* layouts                                                             */
/* ------------------------------------------------------------------ */

/* L's out-dims must be dim0.. with the sizes `size` (of `what`). */
static void check_outs(lytS_ctx *cx, const lytK_kernel *k, const lytG_ll *L, const char *name,
                       const int64_t *size, const char *what) {
  if (L->nout != k->rank)
    lytS_fail(cx, LYT_ERRRUN, "kernel: the %s layout has %d out-dims, the tensor %d dims", name,
              (int)L->nout, (int)k->rank);
  for (int32_t d = 0; d < k->rank; d++)
    if (strcmp(L->out[d].name, lytG_std_dim_name(d)) || (INT64_C(1) << L->out[d].log2) != size[d])
      lytS_fail(cx, LYT_ERRRUN, "kernel: the %s layout's out-dim %d must be %s of size %lld "
                "(%s), got %s of size %lld", name, (int)d, lytG_std_dim_name(d), (long long)size[d],
                what, L->out[d].name, (long long)(INT64_C(1) << L->out[d].log2));
}

static lytK_dist read_dist(lytS_ctx *cx, const lytK_kernel *k, const lytG_ll *L, const char *what) {
  for (int32_t i = 0; i < L->nin; i++)
    if (strcmp(L->in[i].name, "register") && strcmp(L->in[i].name, "lane") &&
        strcmp(L->in[i].name, "warp") && !(strcmp(L->in[i].name, "block") == 0 && L->in[i].log2 == 0))
      lytS_fail(cx, LYT_ERRRUN, "kernel: the %s layout's in-dims must be register, lane and "
                "warp, not %s", what, L->in[i].name);
  check_outs(cx, k, L, what, k->tile, "the tile");
  if (!lytG_is_surjective(L))
    lytS_fail(cx, LYT_ERRRUN, "kernel: the %s layout does not cover the tile (not "
              "surjective): some elements would never move", what);
  return lytK_dist_of(L);
}

/* Bits of tid (resp. register) whose basis is zero: their owners hold copies. */
static int64_t copy_mask(const lytK_dist *g, int thread) {
  int64_t m = 0, x[LYTK_MAXRANK];
  int n = thread ? g->lanebits + g->warpbits : g->regbits;
  for (int b = 0; b < n; b++) {
    if (thread) lytK_coord(g, 0, INT64_C(1) << b, x);
    else lytK_coord(g, INT64_C(1) << b, 0, x);
    int zero = 1;
    for (int32_t d = 0; d < g->L->nout; d++) zero &= x[d] == 0;
    if (zero) m |= INT64_C(1) << b;
  }
  return m;
}

/* A node for XOR over bits b of ((src >> b) & 1) * w(b), runs of bits
** landing on consecutive single bits done as one shift-and-mask. */
static int32_t bits_xor(prog *p, int32_t src, int nbits, const int64_t *w) {
  int32_t acc = cnst(p, 0);
  for (int b = 0; b < nbits;) {
    if (w[b] == 0) { b++; continue; }
    int32_t term;
    if ((w[b] & (w[b] - 1)) == 0) {
      int len = 1, at = lytS_ceil_log2(w[b]);
      while (b + len < nbits && w[b + len] == (INT64_C(1) << (at + len))) len++;
      term = bink(p, LYTK_AND, bink(p, LYTK_SHR, src, b), (INT64_C(1) << len) - 1);
      term = bink(p, LYTK_SHL, term, at);
      b += len;
    } else {
      term = bink(p, LYTK_MUL, bink(p, LYTK_AND, bink(p, LYTK_SHR, src, b), 1), w[b]);
      b++;
    }
    acc = bin(p, LYTK_XOR, acc, term);
  }
  return acc;
}

static int32_t tid_xor(prog *p, int nbits, const int64_t *w) {
  return bits_xor(p, add_node(p, LYTK_TID, -1, -1, 0), nbits, w);
}

/* The tile-grid coordinates of block `cta` under the linear layout `grid`. */
static void grid_xor(prog *p, const lytG_ll *G, int32_t cta, int32_t *b) {
  for (int32_t d = 0, at = 0; d < G->nout; at += G->out[d].log2, d++) {
    int64_t w[LYT_LL_MAXBITS];
    for (int32_t j = 0; j < G->inbits; j++)
      w[j] = (int64_t)(G->col[j] >> at & ((UINT64_C(1) << G->out[d].log2) - 1));
    b[d] = bits_xor(p, cta, G->inbits, w);
  }
}

/* ------------------------------------------------------------------ */
/* global addresses                                                    */
/* ------------------------------------------------------------------ */

typedef struct side {
  int32_t base;                  /* node: origin + thread part (the add path) */
  int32_t t[LYTK_MAXRANK];       /* nodes: the thread part per dim */
  int32_t origin;                /* node: the block's tile origin offset */
  int32_t blk[LYTK_MAXRANK];     /* nodes: the tile's place in the tile grid */
  int64_t tmask[LYTK_MAXRANK];   /* bits the threads can set per dim */
} side;

/* Tiles along dim d: the last one may stick out of the tensor. */
static int64_t tiles_along(const lytK_kernel *k, int32_t d) {
  return (k->shape[d] + k->tile[d] - 1) / k->tile[d];
}

/* The tile of round t of a block: tile id ctaid + t*blocks, so that the
** blocks running at once work on neighbouring tiles in every round. Its
** coordinates in the tile grid go to b, its origin's offset is returned. */
static int32_t origin_node(prog *p, const lytK_kernel *k, const int64_t *stride, int32_t t,
                           int64_t blocks, int32_t *b) {
  int32_t acc = cnst(p, 0);
  int32_t cta = bink(p, LYTK_ADD, add_node(p, LYTK_CTAID, -1, -1, 0), t * blocks);
  if (k->grid) {
    grid_xor(p, k->grid, cta, b);
  } else if (k->grid_group > 1) {  /* rank 2: tile (r, c) from G x G groups in row-major order */
    int64_t G = k->grid_group, per_row = tiles_along(k, 1) / G;
    int32_t in = bink(p, LYTK_MOD, cta, G * G), grp = bink(p, LYTK_DIV, cta, G * G);
    b[0] = bin(p, LYTK_ADD, bink(p, LYTK_MUL, bink(p, LYTK_DIV, grp, per_row), G), bink(p, LYTK_DIV, in, G));
    b[1] = bin(p, LYTK_ADD, bink(p, LYTK_MUL, bink(p, LYTK_MOD, grp, per_row), G), bink(p, LYTK_MOD, in, G));
  } else {
    int64_t div = 1;
    for (int32_t i = 0; i < k->rank; i++) {
      int32_t d = k->has_grid_order ? k->grid_order[i] : k->rank - 1 - i;
      int64_t nb = tiles_along(k, d);
      b[d] = bink(p, LYTK_MOD, bink(p, LYTK_DIV, cta, div), nb);
      div *= nb;
    }
  }
  for (int32_t d = 0; d < k->rank; d++)
    acc = bin(p, LYTK_ADD, acc, bink(p, LYTK_MUL, b[d], k->tile[d] * stride[d]));
  return acc;
}

static side make_side(prog *p, const lytK_kernel *k, const lytK_dist *g, const int64_t *stride,
                      int32_t t, int64_t blocks) {
  side s;
  int nb = g->lanebits + g->warpbits;
  s.origin = origin_node(p, k, stride, t, blocks, s.blk);
  s.base = s.origin;
  for (int32_t d = 0; d < k->rank; d++) {
    int64_t w[64], x[LYTK_MAXRANK];
    s.tmask[d] = 0;
    for (int b = 0; b < nb; b++) {
      lytK_coord(g, 0, INT64_C(1) << b, x);
      w[b] = x[d];
      s.tmask[d] |= x[d];
    }
    s.t[d] = tid_xor(p, nb, w);
    s.base = bin(p, LYTK_ADD, s.base, bink(p, LYTK_MUL, s.t[d], stride[d]));
  }
  return s;
}

/* The address of register r: (node ^ xor_k) + add_k. */
static void global_addr(prog *p, const lytK_kernel *k, const lytK_dist *g, const side *s,
                        const int64_t *stride, int64_t r, lytK_op *o) {
  int64_t c[LYTK_MAXRANK], add = 0;
  int disjoint = 1;
  lytK_coord(g, r, 0, c);
  for (int32_t d = 0; d < k->rank; d++) {
    disjoint &= (c[d] & s->tmask[d]) == 0;
    add += c[d] * stride[d];
  }
  o->xor_k = 0;
  if (disjoint) { o->addr = s->base, o->add_k = add; return; }
  int32_t acc = s->origin;
  for (int32_t d = 0; d < k->rank; d++)
    acc = bin(p, LYTK_ADD, acc, bink(p, LYTK_MUL, bink(p, LYTK_XOR, s->t[d], c[d]), stride[d]));
  o->addr = acc, o->add_k = 0;
}

/* ------------------------------------------------------------------ */
/* vector widths (AxisInfo, exact)                                     */
/* ------------------------------------------------------------------ */

typedef int64_t (*offset_fn)(const lytK_kernel *k, const lytK_dist *g, const void *ud, int64_t blk_step,
                             int64_t t, int64_t r);

static int64_t global_off(const lytK_kernel *k, const lytK_dist *g, const void *ud, int64_t step,
                          int64_t t, int64_t r) {
  const int64_t *stride = ud;
  int64_t x[LYTK_MAXRANK], off = 0;
  lytK_coord(g, r, t, x);
  for (int32_t d = 0; d < k->rank; d++) {
    int64_t o = step == d ? k->tile[d] : 0;  /* one block step along dim `step` */
    off += (x[d] + o) * stride[d];
  }
  return off;
}

static int64_t smem_off(const lytK_kernel *k, const lytK_dist *g, const void *ud, int64_t step,
                        int64_t t, int64_t r) {
  int64_t x[LYTK_MAXRANK], o;
  (void)k, (void)step;
  lytK_coord(g, r, t, x);
  lytG_apply(ud, x, &o);
  return o;
}

/* Register r at place i of the order that walks register bit a first:
** the bits of i rotated left by a. */
static int64_t walk(int64_t i, int32_t a, int32_t bits) {
  return a ? ((i << a) | (i >> (bits - a))) & ((INT64_C(1) << bits) - 1) : i;
}

/* The widest vector and the register bit it runs along (*bit): vectors
** need not take consecutive registers, so each register bit is tried as
** the first of the order AxisInfo reads; the lowest bit wins a tie. */
static int32_t vector_width(lytS_ctx *cx, const lytK_kernel *k, const lytK_dist *g, offset_fn f,
                            const void *ud, int global, int32_t *bit) {
  int64_t T = lytK_threads(g), R = lytK_regs(g), steps = 1;
  if (global)
    for (int32_t d = 0; d < k->rank; d++) steps += k->shape[d] > k->tile[d];
  int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)(steps * T * R));
  int32_t best = 0;
  for (int32_t a = 0; a < (g->regbits ? g->regbits : 1); a++) {
    int64_t *q = v;
    for (int64_t s = 0; s < (global ? k->rank + 1 : 1); s++) {
      if (s > 0 && k->shape[s - 1] <= k->tile[s - 1]) continue;
      for (int64_t t = 0; t < T; t++)
        for (int64_t i = 0; i < R; i++) *q++ = f(k, g, ud, s - 1, t, walk(i, a, g->regbits));
    }
    int64_t shape[2] = { steps * T, R };
    lytV_info info = lytV_exact_info(cx, lytV_from_values(cx, 2, shape, v));
    int32_t w = (int32_t)lytV_vector_width(cx, &info, 1, k->elem_bytes, 16, R >> a);
    if (w > best) best = w, *bit = a;
  }
  return best;
}

/* The first registers of the vectors of width w along register bit a. */
static int vector_start(int64_t r, int32_t w, int32_t a) {
  return (r & ((int64_t)(w - 1) << a)) == 0;
}

/* ------------------------------------------------------------------ */
/* ops                                                                 */
/* ------------------------------------------------------------------ */

static lytK_op *new_op(prog *p, lytK_kind kind, int32_t vec, int32_t reg) {
  if (p->nops == p->capops) {
    int32_t cap = p->capops ? 2 * p->capops : 64;
    lytK_op *o = lytS_alloc(p->cx, sizeof *o * (size_t)cap);
    if (p->nops) memcpy(o, p->op, sizeof *o * (size_t)p->nops);
    p->op = o, p->capops = cap;
  }
  lytK_op *o = &p->op[p->nops++];
  *o = (lytK_op){ kind, vec, reg, -1, 0, 0, -1, 1, -1, 0, { 0, 0, 0 }, { 0, 0, 0 } };
  return o;
}

static int32_t tid(prog *p) { return add_node(p, LYTK_TID, -1, -1, 0); }

static int32_t copy_pred(prog *p, const lytK_dist *g) {
  int64_t m = copy_mask(g, 1);
  return m ? bink(p, LYTK_AND, tid(p), m) : -1;
}

/* Either predicate skips the access (-1: none). */
static int32_t pred_or(prog *p, int32_t a, int32_t b) {
  return a < 0 ? b : b < 0 ? a : bin(p, LYTK_OR, a, b);
}

/* Dims the tile does not divide: their last tile has elements outside. */
static int ragged(const lytK_kernel *k, int32_t d) { return k->shape[d] % k->tile[d] != 0; }

/* Nonzero where the element at tile coordinate t ^ c (c: register r's part)
** lies outside the tensor; -1 when no element can. */
static int32_t outside(prog *p, const lytK_kernel *k, const side *s, const int64_t *c) {
  int32_t acc = -1;
  for (int32_t d = 0; d < k->rank; d++) {
    if (!ragged(k, d)) continue;
    int32_t x = bin(p, LYTK_ADD, bink(p, LYTK_XOR, s->t[d], c[d]), bink(p, LYTK_MUL, s->blk[d], k->tile[d]));
    acc = pred_or(p, acc, bink(p, LYTK_GE, x, k->shape[d]));
  }
  return acc;
}

/* A vector of w registers along register bit a is wholly inside or wholly
** outside the tensor when along every ragged dim its elements share one
** coordinate, or fill an aligned run of w that the extent ends at a
** multiple of (the thread bits leave the run's bits alone). */
static int whole_at_edges(const lytK_kernel *k, const lytK_dist *g, const side *s, int32_t w,
                          int32_t a) {
  for (int64_t r = 0; r < lytK_regs(g); r++) {
    if ((r & ((int64_t)(w - 1) << a)) != 0) continue;
    for (int32_t d = 0; d < k->rank; d++) {
      if (!ragged(k, d)) continue;
      int64_t x[LYTK_MAXRANK], lo = INT64_MAX, hi = -1;
      for (int32_t i = 0; i < w; i++) {
        lytK_coord(g, r + ((int64_t)i << a), 0, x);
        lo = x[d] < lo ? x[d] : lo, hi = x[d] > hi ? x[d] : hi;
      }
      if (lo != hi && (lo % w || hi - lo != w - 1 || k->shape[d] % w || (s->tmask[d] & (w - 1))))
        return 0;
    }
  }
  return 1;
}

/* One round's global accesses: tile t into registers from `reg` on. */
static void global_ops(prog *p, const lytK_kernel *k, const lytK_dist *g, const int64_t *stride,
                       lytK_kind kind, int32_t t, int64_t blocks, int32_t reg) {
  int32_t a = 0, w = vector_width(p->cx, k, g, global_off, stride, 1, &a);
  side s = make_side(p, k, g, stride, t, blocks);
  while (w > 1 && !whole_at_edges(k, g, &s, w, a)) w /= 2;
  int64_t skip = kind == LYTK_STG ? copy_mask(g, 0) : 0;
  int32_t pred = kind == LYTK_STG ? copy_pred(p, g) : -1;
  for (int64_t r = 0; r < lytK_regs(g); r++) {
    if ((r & skip) || !vector_start(r, w, a)) continue;
    lytK_op *o = new_op(p, kind, w, (int32_t)(reg + r));
    global_addr(p, k, g, &s, stride, r, o);  /* adds nodes, never ops: o stays */
    int64_t c[LYTK_MAXRANK];
    lytK_coord(g, r, 0, c);
    o->pred = pred_or(p, pred, outside(p, k, &s, c)), o->rstep = 1 << a;
  }
}

/* ldmatrix/stmatrix where the layout and S allow (16- or 32-bit
** elements, 32 lanes): a thread's word (a pair of 16-bit elements 1 apart
** in S, through a register bit h, or one 32-bit element), lanes 0-1 the
** next words of a row and lanes 2-4 the rows; or, .trans, lanes 2-4 the
** columns (offsets 1, 2, 4) and h with lanes 0-1 the rows; rows, matrices
** (up to two more register bits) and everything else 16 bytes aligned.
** Returns 0, emitting nothing, where they do not fit or move no more
** elements per instruction than plain vectors of `wider` elements. */
/* The registers one round of staging moves: those whose element has the
** tile bits `mask` (bits only registers set, in both layouts) equal to
** `val`. {0, 0}: every register. */
typedef struct part { uint64_t mask, val; } part;

static int in_part(const lytK_dist *g, int64_t r, part q) {
  uint64_t x = 0;
  for (int32_t b = 0; b < g->regbits; b++)
    if (r >> b & 1) x ^= lytK_col(g, 0, b);
  return (x & q.mask) == q.val;
}

static int matrix_ops(prog *p, const lytK_kernel *k, const lytK_dist *g, const lytG_ll *S,
                      lytK_kind kind, int32_t t, part q, int32_t reg, int32_t base, const int64_t *to,
                      int32_t wider) {
  int64_t ro[LYT_LL_MAXBITS], x[LYTK_MAXRANK], w[64];
  int32_t nb = g->lanebits + g->warpbits, h = -1, m[2] = { -1, -1 }, nm = 0, eb = k->elem_bytes;
  int64_t row = 16 / eb;  /* elements of a row */
  if ((eb != 2 && eb != 4) || g->lanebits != 5) return 0;
  for (int32_t b = 0; b < g->regbits; b++) {
    lytK_coord(g, INT64_C(1) << b, 0, x);
    lytG_apply(S, x, &ro[b]);
  }
  /* a word is a pair of 16-bit elements (h), or one 32-bit element */
  int64_t word = eb == 2 ? 2 : 1;
  int trans = eb == 2 && to[2] == 1 && to[3] == 2 && to[4] == 4 && to[0] % 8 == 0 && to[1] % 8 == 0;
  if (!trans && !(to[0] == word && to[1] == 2 * word && to[2] % row == 0 && to[3] % row == 0 &&
                  to[4] % row == 0))
    return 0;
  for (int32_t b = 5; b < nb; b++)
    if (to[b] % row) return 0;
  int64_t skip = kind == LYTK_STS ? copy_mask(g, 0) : 0;
  for (int32_t b = 0; b < g->regbits; b++) {
    if (eb == 2 && h < 0 && (trans ? ro[b] % 8 == 0 && ro[b] : ro[b] == 1)) h = b;
    else if (ro[b] % row) return 0;
    else if (nm < 2 && ro[b] && !(skip >> b & 1)) m[nm++] = b;
  }
  if ((eb == 2 && h < 0) || (int64_t)(h >= 0 ? 2 : 1) << nm <= wider)
    return 0;  /* no fit, or plain vectors move as much */
  /* the row thread t gives: t&7 through lanes 2-4 (or h and lanes 0-1), matrix t>>3 */
  for (int32_t b = 0; b < nb; b++)
    w[b] = b < 3 ? (trans ? (b == 0 ? ro[h] : to[b - 1]) : to[b + 2]) : b < 5 ? (b - 3 < nm ? ro[m[b - 3]] : 0)
         : to[b];
  int32_t rows = tid_xor(p, nb, w), pred = -1;
  if (kind == LYTK_STS && (copy_mask(g, 1) & ~INT64_C(31)))  /* whole warps of copies */
    pred = bink(p, LYTK_AND, tid(p), copy_mask(g, 1) & ~INT64_C(31));
  int64_t used = (h >= 0 ? INT64_C(1) << h : 0) | (nm > 0 ? INT64_C(1) << m[0] : 0) |
                 (nm > 1 ? INT64_C(1) << m[1] : 0);
  for (int64_t r = 0; r < lytK_regs(g); r++) {
    if ((r & used) || (r & skip) || !in_part(g, r, q)) continue;
    lytK_op *o = new_op(p, kind == LYTK_LDS ? LYTK_LDSM : LYTK_STSM, 1 << nm, (int32_t)(reg + r));
    lytK_coord(g, r, 0, x);
    lytG_apply(S, x, &o->xor_k);
    o->add_k = (int64_t)t << S->outbits;
    o->addr = rows, o->src = base, o->pred = pred, o->trans = trans;
    if (h >= 0) o->rbit[0] = 1 << h, o->koff[0] = ro[h];
    for (int32_t i = 0; i < nm; i++) o->rbit[i + 1] = 1 << m[i], o->koff[i + 1] = ro[m[i]];
  }
  return 1;
}

/* Is b one of bit[0..n)? */
static int bit_below(const int32_t *bit, int32_t n, int32_t b) {
  for (int32_t j = 0; j < n; j++)
    if (bit[j] == b) return 1;
  return 0;
}

/* The widest shared vector whose registers may come in any order (PTX
** packs them): register bits whose offsets in S are 1, 2, 4 elements
** (into bit[]), while every other register and thread bit keeps the
** vector's offsets aligned; up to 16 bytes. */
static int32_t any_order_width(const lytK_kernel *k, const lytK_dist *g, const lytG_ll *S,
                               const int64_t *to, int32_t *bit) {
  int64_t ro[LYT_LL_MAXBITS], x[LYTK_MAXRANK], used = 0;
  int32_t n = 0, nb = g->lanebits + g->warpbits;
  if (g->lanebits == 6) return 1;  /* 64 lanes: AMD, whose vectors are register ranges */
  for (int32_t b = 0; b < g->regbits; b++) {
    lytK_coord(g, INT64_C(1) << b, 0, x);
    lytG_apply(S, x, &ro[b]);
  }
  for (int found = 1; found && n < 3 && (k->elem_bytes << (n + 1)) <= 16;) {
    found = 0;
    for (int32_t b = 0; b < g->regbits && !found; b++)
      if (ro[b] == INT64_C(1) << n) bit[n++] = b, used |= INT64_C(1) << b, found = 1;
  }
  for (; n > 0; n--) {  /* the others must keep the vector aligned */
    int ok = 1;
    for (int32_t b = 0; b < g->regbits && ok; b++) ok = ((used >> b & 1) && bit_below(bit, n, b)) || ro[b] % (1 << n) == 0;
    for (int32_t b = 0; b < nb && ok; b++) ok = to[b] % (1 << n) == 0;
    if (ok) break;
    used &= ~(INT64_C(1) << bit[n - 1]);
  }
  return 1 << n;
}

/* The bank model's count over ops [from, to) of the program so far. */
static lytK_conflicts ops_conflicts(prog *p, const lytK_kernel *k, const lytK_dist *g, int32_t from,
                                    int32_t to) {
  lytK_program P = { .name = k->name, .elem_bytes = k->elem_bytes, .threads = (int32_t)lytK_threads(g),
                     .model = g->lanebits == 6 ? LYTK_MODEL_CDNA3 : LYTK_MODEL_NVIDIA,
                     .nnodes = p->nnodes, .nops = to - from, .node = p->node, .op = p->op + from };
  return lytK_program_conflicts(p->cx, &P);
}

/* Ops [s0, s1) and an alternative [s1, nops) just made: the alternative
** stays (and 1 is returned) if the bank model gives it fewer wavefronts
** (no more, with `ties`) and no more conflicts. */
static int keep_cheaper(prog *p, const lytK_kernel *k, const lytK_dist *g, int32_t s0, int32_t s1,
                        int ties) {
  lytK_conflicts a = ops_conflicts(p, k, g, s0, s1), b = ops_conflicts(p, k, g, s1, p->nops);
  if (b.wavefronts > a.wavefronts || (!ties && b.wavefronts == a.wavefronts) || b.conflicts > a.conflicts) {
    p->nops = s1;
    return 0;
  }
  memmove(p->op + s0, p->op + s1, sizeof *p->op * (size_t)(p->nops - s1));
  p->nops = s0 + (p->nops - s1);
  return 1;
}

/* Stores from lanes that hold copies: rather than copy 0 storing every
** register, copy j stores the registers it picks, register bits rbit[i]
** XORed in for each set lane-copy bit lane[i] -- as if the layout (g) gave
** those lanes the register bits' elements. A warp's stores then fill more
** of each wavefront; moves select the value each thread stores. Register
** bits of the round's tile bits stay out: a round is every thread's. */
typedef struct split {
  lytK_dist g;
  int32_t n, lane[LYTK_TIDBITS], rbit[LYTK_TIDBITS];
} split;

static int split_copies(lytS_ctx *cx, const lytK_dist *g, part q, split *s) {
  int64_t copies = copy_mask(g, 1);
  s->n = 0;
  for (int32_t b = 0, rb = g->regbits - 1; b < g->lanebits; b++) {
    while (rb >= 0 && (!lytK_col(g, 0, rb) || (lytK_col(g, 0, rb) & q.mask))) rb--;
    if (rb < 0) break;
    if (copies >> b & 1) s->lane[s->n] = b, s->rbit[s->n++] = rb--;
  }
  if (!s->n) return 0;
  lytG_ll *L = lytG_copy(cx, g->L);
  int32_t lo = lytG_in_offset(L, g->ilane), ro = lytG_in_offset(L, g->ireg);
  for (int32_t i = 0; i < s->n; i++)
    L->col[lo + s->lane[i]] = L->col[ro + s->rbit[i]], L->col[ro + s->rbit[i]] = 0;
  L->rank = -1;
  s->g = lytK_dist_of(L);
  return 1;
}

/* Spare registers spare.. get the words of a store from split lanes: word
** i of copy j is register r_i ^ (the rbit of each set bit of j). */
static void split_words(prog *p, const split *sp, const lytK_op *o) {
  int64_t m = 0;
  for (int32_t i = 0; i < sp->n; i++) m |= INT64_C(1) << sp->lane[i];
  for (int32_t w = 0; w < o->vec; w++)
    for (int64_t j = 0; j < INT64_C(1) << sp->n; j++) {
      int32_t r = lytK_elem_reg(o, w) - o->reg, x = 0;
      int64_t at = 0;
      for (int32_t i = 0; i < sp->n; i++)
        if (j >> i & 1) x |= 1 << sp->rbit[i], at |= INT64_C(1) << sp->lane[i];
      int32_t pred = j ? bink(p, LYTK_XOR, bink(p, LYTK_AND, tid(p), m), at) : -1;
      lytK_op *mv = new_op(p, LYTK_MOV, 1, p->spare + w);
      mv->src = o->reg + (r ^ x), mv->pred = pred;
    }
  if (o->vec > p->spares) p->spares = o->vec;
}

/* One staging's shared accesses of the registers in part q, as plain
** vectors (or, sp given, stores from split lanes): tile (or buffer) t at
** t times S's size, registers from `reg` on. */
static void plain_ops(prog *p, const lytK_kernel *k, const lytK_dist *g, const lytG_ll *S,
                      lytK_kind kind, int32_t t, part q, int32_t reg, const split *sp) {
  int32_t a = 0, w = vector_width(p->cx, k, g, smem_off, S, 0, &a);
  int nb = g->lanebits + g->warpbits;
  int64_t wt[64], x[LYTK_MAXRANK];
  for (int b = 0; b < nb; b++) {
    lytK_coord(g, 0, INT64_C(1) << b, x);
    lytG_apply(S, x, &wt[b]);
  }
  int32_t base = tid_xor(p, nb, wt), gb[3], gw = any_order_width(k, g, S, wt, gb), s0 = p->nops;
  int64_t skip = kind == LYTK_STS ? copy_mask(g, 0) : 0, gmask = 0;
  int32_t pred = kind == LYTK_STS ? copy_pred(p, g) : -1;
  for (int32_t j = 0; (1 << j) < gw; j++) gmask |= INT64_C(1) << gb[j];
  for (int64_t r = 0; r < lytK_regs(g); r++) {
    if ((r & skip) || (gw > w ? (r & gmask) != 0 : !vector_start(r, w, a)) || !in_part(g, r, q))
      continue;
    lytK_op o = { .kind = kind, .vec = gw > w ? gw : w, .reg = (int32_t)(reg + r), .addr = base,
                  .pred = pred, .rstep = gw > w ? 0 : 1 << a };
    for (int32_t j = 0; gw > w && (1 << j) < gw; j++) o.rbit[j] = 1 << gb[j];
    lytK_coord(g, r, 0, x);
    lytG_apply(S, x, &o.xor_k);
    o.add_k = (int64_t)t << S->outbits;
    if (sp) {
      split_words(p, sp, &o);
      o.reg = p->spare, o.rstep = 1, memset(o.rbit, 0, sizeof o.rbit);
    }
    *new_op(p, kind, o.vec, o.reg) = o;
  }
  /* ldmatrix/stmatrix instead where they fit, unless the bank model says
  ** their rows cost more wavefronts or conflicts than the plain accesses */
  int32_t s1 = p->nops;
  if (!sp && matrix_ops(p, k, g, S, kind, t, q, reg, base, wt, w > gw ? w : gw))
    keep_cheaper(p, k, g, s0, s1, 1);
}

/* One staging's shared accesses of the registers in part q: tile (or
** buffer) t at t times S's size, registers from `reg` on; stores from
** split lanes where that saves wavefronts. */
static void smem_ops(prog *p, const lytK_kernel *k, const lytK_dist *g, const lytG_ll *S,
                     lytK_kind kind, int32_t t, part q, int32_t reg) {
  int32_t s0 = p->nops, spares = p->spares;
  split sp;
  plain_ops(p, k, g, S, kind, t, q, reg, NULL);
  if (kind != LYTK_STS || !split_copies(p->cx, g, q, &sp)) return;
  int32_t s1 = p->nops;
  plain_ops(p, k, &sp.g, S, kind, t, q, reg, &sp);
  if (!keep_cheaper(p, k, g, s0, s1, 0)) p->spares = spares;
}

/* ------------------------------------------------------------------ */
/* conversions between the load and the store layout                  */
/* ------------------------------------------------------------------ */

const char *const lytK_mech_names[] = { "auto", "none", "registers", "shuffle", "shared", NULL };

/* The registers of layout a (the load layout) sit from base_a + t*R for
** tile t, those of b from base_b + t*R; two spare registers after both
** hold a shuffle round's value sent and received. */
typedef struct conv {
  lytK_mech mech[2];           /* a -> b, and back */
  const lytK_dist *a, *b;
  const lytG_ll *S;            /* shared */
  int32_t *map[2];             /* registers: the register of the other layout */
  lytK_shuffle *shfl[2];       /* shuffle */
  int local[2];                /* shared: every warp reads only what it wrote */
  uint64_t rounds;             /* shared: tile bits a round of staging fixes (S's zero columns) */
  int32_t bufs;                /* shared: 2 when stagings alternate between two scratch buffers */
  int32_t R, T, base_a, base_b, spare, lanes, count, staged, last_local;
  int looping;                 /* lowering the round trips' loop, whose pass follows a pass */
} conv;

static int uses(const conv *c, lytK_mech m) { return c->mech[0] == m || c->mech[1] == m; }

static void mov(prog *p, int32_t dst, int32_t src, int32_t pred) {
  lytK_op *o = new_op(p, LYTK_MOV, 1, dst);
  o->src = src, o->pred = pred;
}

/* The XORs of every subset of n[0..nbits), each once (0 first). */
static int32_t span(const int64_t *n, int32_t nbits, int64_t *out) {
  int32_t m = 1;
  out[0] = 0;
  for (int32_t b = 0; b < nbits; b++) {
    int in = 0;
    for (int32_t i = 0; i < m && !in; i++) in = out[i] == n[b];
    for (int32_t i = 0, h = m; !in && i < h; i++) out[m++] = out[i] ^ n[b];
  }
  return m;
}

/* A node that is zero in the threads where f(tid) = v (f linear, no c). */
static int32_t is_value(prog *p, const lytK_affine *f, int32_t tbits, int64_t v) {
  return bink(p, LYTK_XOR, bits_xor(p, tid(p), tbits, f->n), v);
}

/* Round after round: pick the value to send (a select when it depends
** on the lane), shuffle, put it where it goes (a select when that does). */
static void shuffle_ops(prog *p, const conv *c, const lytK_shuffle *P, int32_t from, int32_t to,
                         int32_t regs) {
  int32_t tb = P->tbits, send = c->spare, got = c->spare + 1;
  int64_t sv[1 << LYTK_TIDBITS], ev[1 << LYTK_TIDBITS];
  int32_t ne = span(P->e.n, tb, ev);
  int32_t warp = bink(p, LYTK_AND, tid(p), ((INT64_C(1) << tb) - 1) & ~(int64_t)(c->lanes - 1));
  for (int32_t k = 0; k < P->rounds; k++) {
    const lytK_affine *s = &P->send[k], *l = &P->lane[k];
    int32_t ns = span(s->n, tb, sv), v = from + (int32_t)s->c;
    if (ns > 1) {
      mov(p, send, v, -1);
      for (int32_t i = 1; i < ns; i++) mov(p, send, from + (int32_t)(s->c ^ sv[i]), is_value(p, s, tb, sv[i]));
      v = send;
    }
    lytK_op *o = new_op(p, LYTK_SHFL, 1, ne > 1 ? got : to + P->dst[k]);
    int32_t lane = bink(p, LYTK_XOR, bits_xor(p, tid(p), tb, l->n), l->c);
    o->src = v, o->addr = bin(p, LYTK_OR, warp, lane);
    for (int32_t i = 0; ne > 1 && i < ne; i++)
      mov(p, to + (int32_t)(P->dst[k] ^ ev[i]), got, is_value(p, &P->e, tb, ev[i]));
  }
  for (int32_t r = 0; r < regs; r++)
    if (r & P->dup) mov(p, to + r, to + (int32_t)(r & ~P->dup), -1);
}

static int32_t ones(uint64_t m) {
  int32_t n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

/* The bits of i, in order, at the set bits of mask. */
static uint64_t deposit(uint64_t i, uint64_t mask) {
  uint64_t v = 0;
  for (int32_t b = 0; b < 64 && i; b++)
    if (mask >> b & 1) v |= (i & 1) << b, i >>= 1;
  return v;
}

/* One conversion of every tile, to layout b (to_b) or back to a. */
static void convert(prog *p, const lytK_kernel *k, conv *c, int to_b) {
  const lytK_dist *x = to_b ? c->a : c->b, *y = to_b ? c->b : c->a;
  int32_t bx = to_b ? c->base_a : c->base_b, by = to_b ? c->base_b : c->base_a;
  int32_t ry = (int32_t)lytK_regs(y), dir = !to_b;
  for (int32_t t = 0; t < c->T; t++) {
    int32_t fx = bx + t * c->R, fy = by + t * c->R;
    if (c->mech[dir] == LYTK_MECH_REGISTERS)
      for (int32_t r = 0; r < ry; r++) mov(p, fy + r, fx + c->map[dir][r], -1);
    else if (c->mech[dir] == LYTK_MECH_SHUFFLE)
      shuffle_ops(p, c, c->shfl[dir], fx, fy, ry);
  }
  if (c->mech[dir] == LYTK_MECH_SHARED)
    for (int64_t i = 0; i < INT64_C(1) << ones(c->rounds); i++) {
      part q = { c->rounds, deposit(i, c->rounds) };
      int32_t slot = c->staged % c->bufs * c->T;
      /* reads done, unless the other buffer's barrier came between (warp
      ** barriers where the exchange stays in warps); in the loop, those of
      ** the pass before too, even when no staging came before the loop
      ** (shuffles there, shared memory back) */
      if ((c->staged++ || c->looping) && c->bufs == 1)
        new_op(p, LYTK_BAR, c->local[dir] && c->last_local, 0);
      for (int32_t t = 0; t < c->T; t++) smem_ops(p, k, x, c->S, LYTK_STS, slot + t, q, bx + t * c->R);
      new_op(p, LYTK_BAR, c->local[dir], 0);
      c->last_local = c->local[dir];
      for (int32_t t = 0; t < c->T; t++) smem_ops(p, k, y, c->S, LYTK_LDS, slot + t, q, by + t * c->R);
    }
  c->count++;
}

/* x ^= ctaid on every register of every tile of layout a or b. */
static void xor_key(prog *p, const conv *c, int in_b) {
  int32_t n = (int32_t)lytK_regs(in_b ? c->b : c->a);
  for (int32_t t = 0; t < c->T; t++) {
    lytK_op *o = new_op(p, LYTK_XORK, n, (in_b ? c->base_b : c->base_a) + t * c->R);
    o->addr = add_node(p, LYTK_CTAID, -1, -1, 0);
  }
}

/* Triton's scratch layout for the pair (linear/swizzle.c: its optimal
** swizzle for the widest vectors), as tile -> offset, when it holds the
** whole tile at once; NULL otherwise. */
static const lytG_ll *triton_scratch(lytS_ctx *cx, const lytK_kernel *k, const conv *c) {
  const char *hw[3] = { "register", "lane", "warp" }, *outs[LYTK_MAXRANK];
  const lytG_ll *a = c->a->L, *b = c->b->L;
  for (int32_t d = 0; d < k->rank; d++) outs[d] = a->out[d].name;
  lytG_smem_plan pl;
  lytG_cvt_smem(cx, lytG_sublayout(cx, a, 3, hw, k->rank, outs),
                lytG_sublayout(cx, b, 3, hw, k->rank, outs), k->elem_bytes * 8, 90, &pl);
  lytG_dim in = { "offset", pl.nvec + pl.nbank + pl.nseg };
  if (pl.reps) return NULL;
  lytG_ll *L = lytG_make(cx, 1, &in, a->nout, a->out, pl.bases, 0);
  return lytG_is_invertible(L) ? lytG_invert(cx, L) : NULL;
}

/* The shared accesses of staging through S, one way: their wavefronts
** and instructions in a block, from the lowered accesses. */
static lytK_conflicts staging(lytS_ctx *cx, const lytK_kernel *k, const lytK_dist *from,
                              const lytK_dist *to, const lytG_ll *S) {
  prog p = { cx, lytS_alloc(cx, sizeof(lytK_node) * MAXNODES), NULL, 0, 0, 0, 0, 0 };
  smem_ops(&p, k, from, S, LYTK_STS, 0, (part){ 0, 0 }, 0);
  smem_ops(&p, k, to, S, LYTK_LDS, 0, (part){ 0, 0 }, 0);
  return ops_conflicts(&p, k, from, 0, p.nops);
}

/* The shared layout: lyt's search (lytK_pick_smem), that search for the
** stores of split lanes (when the load layout's lanes hold copies), or
** Triton's swizzle, whichever the bank model gives no conflicts, then
** fewer wavefronts, then fewer instructions (wider vectors); the first on
** a tie. */
static const lytG_ll *pick_scratch(lytS_ctx *cx, const lytK_kernel *k, const conv *c) {
  const lytG_ll *cand[3] = { lytK_pick_smem(cx, k), NULL, triton_scratch(cx, k, c) }, *best = NULL;
  split sp;
  if (split_copies(cx, c->a, (part){ 0, 0 }, &sp)) {
    lytK_kernel ks = *k;
    ks.load = sp.g.L;
    cand[1] = lytK_pick_smem(cx, &ks);
  }
  int64_t bk[3] = { 0 };
  for (int i = 0; i < 3; i++) {
    if (!cand[i] || cand[i]->nin != k->rank) continue;
    lytK_conflicts x = staging(cx, k, c->a, c->b, cand[i]);
    int64_t key[3] = { x.conflicts > 0, x.wavefronts, x.accesses };
    int less = !best;
    for (int j = 0; j < 3 && !less && key[j] <= bk[j]; j++) less = key[j] < bk[j];
    if (less) best = cand[i], memcpy(bk, key, sizeof key);
  }
  return best;
}

/* A staging's block barrier, in the same units, a warp: every warp waits
** for the slowest, and what the tile's wavefronts count leaves that out.
** Measured (bench/gpu/results-h100.md, H200): slice0's conversion there
** by shuffles, 148 units against 37 of wavefronts, ran the round trip 8%
** faster; within_f32 both ways and mma2_dota_w22 back, by shuffles of
** 1.5 and 2.1 times their wavefronts' units, ran 2.0 and 1.2 times
** slower. A barrier is worth between 28 and 140 units a warp there. No
** AMD GPU measured it: 64-lane wavefronts leave it out. */
#define BARRIER_UNITS 64

/* What one conversion by shuffles costs a block, in quarters of a shared
** wavefront: a shfl.sync moves 32 bits of a warp per clock, as a shared
** wavefront moves 128 bytes (4 units, plus 1 to issue the instruction);
** a move or select issues four to a clock (1). */
static int64_t shuffle_cost(const lytK_kernel *k, const conv *c, const lytK_shuffle *P) {
  int64_t per = 0, words = k->elem_bytes > 4 ? 2 : 1, sv[1 << LYTK_TIDBITS];
  int32_t ne = span(P->e.n, P->tbits, sv);
  for (int32_t r = 0; r < P->rounds; r++) {
    int32_t ns = span(P->send[r].n, P->tbits, sv);
    per += 5 * words + (ns > 1 ? ns : 0) + (ne > 1 ? ne : 0) + (k->elem_bytes < 4 ? 2 : 0);
  }
  return per * (lytK_threads(c->a) / c->lanes);
}

/* Is map a permutation of n registers? */
static int permutes(const int32_t *map, int64_t n) {
  uint8_t seen[LYTK_MAX_REGS] = { 0 };
  for (int64_t r = 0; r < n; r++) {
    if (seen[map[r]]) return 0;
    seen[map[r]] = 1;
  }
  return 1;
}

/* The mechanism: the one asked for, or the cheapest that can. Layouts that
** give every thread the same elements need no data to move (renaming
** registers when both hold them once each, moves otherwise); warps that
** hold the same elements go through shuffles where Triton's own measure of
** a conversion within warps says they pay (at most one exchange of a
** register bit with a lane bit); anything else through shared memory, as
** does a kernel given the shared layout to stage through. */
static void choose(lytS_ctx *cx, const lytK_kernel *k, conv *c) {
  lytK_mech want = k->mechanism == LYTK_MECH_AUTO && k->smem && !k->smem_picked ? LYTK_MECH_SHARED
                 : k->mechanism;
  c->map[0] = lytK_plan_registers(cx, c->a, c->b);
  c->map[1] = c->map[0] ? lytK_plan_registers(cx, c->b, c->a) : NULL;
  int none = c->map[0] && lytK_regs(c->a) == lytK_regs(c->b) && permutes(c->map[0], lytK_regs(c->b));
  if (want == LYTK_MECH_NONE && !none)
    lytS_fail(cx, LYT_ERRRUN, "kernel: mechanism \"none\" needs layouts equal up to the order of "
              "registers; these put %s", c->map[0] ? "copies of an element in several registers of a thread"
              : "some elements in other threads");
  if (want == LYTK_MECH_REGISTERS && !c->map[0])
    lytS_fail(cx, LYT_ERRRUN, "kernel: mechanism \"registers\" needs both layouts to give every "
              "thread the same elements; these put some in other threads");
  if (want == LYTK_MECH_AUTO && c->map[0]) want = none ? LYTK_MECH_NONE : LYTK_MECH_REGISTERS;
  for (int dir = 0; dir < 2; dir++) {
    c->mech[dir] = want;
    if (want != LYTK_MECH_AUTO && want != LYTK_MECH_SHUFFLE) continue;
    if (dir && !k->round_trips) { c->mech[1] = c->mech[0]; break; }  /* never goes back */
    const lytK_dist *from = dir ? c->b : c->a, *to = dir ? c->a : c->b;
    c->shfl[dir] = lytK_plan_shuffle(cx, from, to);
    if (!c->shfl[dir] && want == LYTK_MECH_SHUFFLE)
      lytS_fail(cx, LYT_ERRRUN, "kernel: mechanism \"shuffle\" needs both layouts to give every "
                "warp the same elements; these put some in other warps");
    if (want == LYTK_MECH_SHUFFLE) continue;
    c->mech[dir] = LYTK_MECH_SHARED;  /* unless shuffles cost less */
    if (!c->shfl[dir]) continue;
    if (!c->S) c->S = k->smem ? k->smem : pick_scratch(cx, k, c);
    lytK_conflicts n = staging(cx, k, from, to, c->S);
    int64_t barrier = c->lanes == 32 ? BARRIER_UNITS * (lytK_threads(c->a) / 32) : 0;
    if (shuffle_cost(k, c, c->shfl[dir]) < 4 * n.wavefronts + n.accesses + barrier)
      c->mech[dir] = LYTK_MECH_SHUFFLE;
  }
}

/* ------------------------------------------------------------------ */
/* checks and the entry point                                          */
/* ------------------------------------------------------------------ */

/* Every element type lyt names; kernels move the ones the backends type. */
static const struct { const char *name; int32_t bytes, kernel; } elem_types[] = {
  { "f16", 2, 1 }, { "bf16", 2, 1 }, { "f32", 4, 1 }, { "f64", 8, 1 }, { "i8", 1, 1 }, { "i32", 4, 1 },
  { "u8", 1, 0 }, { "f8", 1, 0 }, { "e4m3", 1, 0 }, { "e5m2", 1, 0 }, { "i16", 2, 0 },
  { "u16", 2, 0 }, { "tf32", 4, 0 }, { "u32", 4, 0 }, { "i64", 8, 0 }, { "u64", 8, 0 },
};

static int32_t type_bytes(const char *elem, int kernel_only) {
  for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++)
    if (strcmp(elem_types[i].name, elem) == 0 && (elem_types[i].kernel || !kernel_only))
      return elem_types[i].bytes;
  return 0;
}

int32_t lytK_elem_bytes(const char *elem) { return type_bytes(elem, 1); }
int32_t lytK_type_bytes(const char *elem) { return type_bytes(elem, 0); }

/* The largest element offset + 1 of a strided tensor, < 2^31 bytes; the
** offsets of the tiles that stick out (computed, never accessed) too. */
static int64_t extent(lytS_ctx *cx, const lytK_kernel *k, const int64_t *stride, const char *what) {
  int64_t top = 0, tiled = 0;
  for (int32_t d = 0; d < k->rank; d++) {
    if (stride[d] < 0)
      lytS_fail(cx, LYT_ERRRUN, "kernel: the %s layout has a negative stride", what);
    top = lytS_add(cx, top, lytS_mul(cx, k->shape[d] - 1, stride[d]));
    tiled = lytS_add(cx, tiled, lytS_mul(cx, tiles_along(k, d) * k->tile[d] - 1, stride[d]));
  }
  if (lytS_mul(cx, tiled + 1, k->elem_bytes) > INT32_MAX)
    lytS_fail(cx, LYT_ERRRUN, "kernel: the %s tensor%s spans %lld bytes; offsets must stay "
              "below 2^31 bytes", what, tiled > top ? ", its last tiles included," : "",
              (long long)((tiled + 1) * k->elem_bytes));
  return top + 1;
}

/* The grid layout must put the tiles one to one on the blocks' tile ids. */
static void check_grid(lytS_ctx *cx, const lytK_kernel *k, int64_t tiles) {
  const lytG_ll *G = k->grid;
  if (k->has_grid_order || k->grid_group > 1)
    lytS_fail(cx, LYT_ERRRUN, "kernel: grid takes the place of grid_order and grid_group; "
              "give one of them");
  if (G->nin != 1 || strcmp(G->in[0].name, "block") || (INT64_C(1) << G->in[0].log2) != tiles)
    lytS_fail(cx, LYT_ERRRUN, "kernel: the grid layout must have the one in-dim block of size "
              "%lld (the tiles)", (long long)tiles);
  int64_t grid[LYTK_MAXRANK];
  for (int32_t d = 0; d < k->rank; d++) grid[d] = tiles_along(k, d);
  check_outs(cx, k, G, "grid", grid, "the tile grid");
  if (!lytG_is_invertible(G))
    lytS_fail(cx, LYT_ERRRUN, "kernel: the grid layout must give every tile to one block "
              "(it is not invertible)");
}

static void check_kernel(lytS_ctx *cx, const lytK_kernel *k) {
  if (k->rank < 1 || k->rank > LYTK_MAXRANK)
    lytS_fail(cx, LYT_ERRRUN, "kernel: tensors have 1 to %d dims", LYTK_MAXRANK);
  if (!k->elem_bytes)
    lytS_fail(cx, LYT_ERRRUN, "kernel: unknown element type '%s' (f16, bf16, f32, f64, i8, "
              "i32)", k->elem);
  int64_t blocks = 1;
  for (int32_t d = 0; d < k->rank; d++) {
    int64_t t = k->tile[d];
    if (!lytS_is_pow2(t))
      lytS_fail(cx, LYT_ERRRUN, "kernel: tile[%d] = %lld must be a power of two", (int)d,
                (long long)t);
    if (k->shape[d] < 1)
      lytS_fail(cx, LYT_ERRRUN, "kernel: the tensor's dim %d is empty", (int)d);
    blocks = lytS_mul(cx, blocks, tiles_along(k, d));
  }
  /* dst must write each element to its own place: sorted by stride, each
  ** dim must start beyond the previous one's extent */
  int64_t used[LYTK_MAXRANK][2];
  int32_t n = 0;
  for (int32_t d = 0; d < k->rank; d++)
    if (k->shape[d] > 1) used[n][0] = k->dst_stride[d], used[n++][1] = k->shape[d];
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = i + 1; j < n; j++)
      if (used[j][0] < used[i][0]) {
        int64_t a = used[i][0], b = used[i][1];
        used[i][0] = used[j][0], used[i][1] = used[j][1], used[j][0] = a, used[j][1] = b;
      }
  for (int32_t i = 0; i < n; i++)
    if (used[i][0] == 0 || (i > 0 && used[i][0] < used[i - 1][0] * used[i - 1][1]))
      lytS_fail(cx, LYT_ERRRUN, "kernel: the destination layout writes several elements to one "
                "place (its strides overlap)");
  if (k->has_grid_order) {
    int32_t seen = 0;
    for (int32_t i = 0; i < k->rank; i++) {
      int32_t d = k->grid_order[i];
      if (d < 0 || d >= k->rank || (seen >> d & 1))
        lytS_fail(cx, LYT_ERRRUN, "kernel: grid_order must be a permutation of the dims 0..%d",
                  (int)k->rank - 1);
      seen |= 1 << d;
    }
  }
  if (k->grid_group > 1) {
    int64_t G = k->grid_group;
    if (k->rank != 2 || k->has_grid_order || (G & (G - 1)) || tiles_along(k, 0) % G ||
        tiles_along(k, 1) % G)
      lytS_fail(cx, LYT_ERRRUN, "kernel: grid_group = %lld needs a rank-2 tensor whose tile grid "
                "both dims of which it divides (a power of two), without grid_order", (long long)G);
  }
  if (k->grid) check_grid(cx, k, blocks);
  if (blocks > INT32_MAX)
    lytS_fail(cx, LYT_ERRRUN, "kernel: %lld blocks is more than a grid holds", (long long)blocks);
}

static void check_pair(lytS_ctx *cx, const lytK_dist *a, const lytK_dist *b) {
  if (a->lanebits != b->lanebits || a->warpbits != b->warpbits)
    lytS_fail(cx, LYT_ERRRUN, "kernel: the load and store layouts must use the same lanes and "
              "warps (%lld x %lld vs %lld x %lld)", (long long)(INT64_C(1) << a->lanebits),
              (long long)(INT64_C(1) << a->warpbits), (long long)(INT64_C(1) << b->lanebits),
              (long long)(INT64_C(1) << b->warpbits));
  if (lytK_threads(a) > 1024)
    lytS_fail(cx, LYT_ERRRUN, "kernel: %lld threads per block; at most 1024",
              (long long)lytK_threads(a));
  if (lytK_regs(a) > LYTK_MAX_REGS || lytK_regs(b) > LYTK_MAX_REGS)
    lytS_fail(cx, LYT_ERRRUN, "kernel: %lld elements per thread; at most %d",
              (long long)(lytK_regs(a) > lytK_regs(b) ? lytK_regs(a) : lytK_regs(b)), LYTK_MAX_REGS);
}

static void check_smem(lytS_ctx *cx, const lytK_kernel *k, const lytG_ll *S) {
  int64_t size = 1;
  for (int32_t d = 0; d < k->rank; d++) size *= k->tile[d];
  if (S->nin != k->rank || S->nout != 1 || S->inbits != lytS_ceil_log2(size) || !lytG_is_invertible(S))
    lytS_fail(cx, LYT_ERRRUN, "kernel: the shared layout must map the tile (dim0..) one to one "
              "onto offsets [0, %lld)", (long long)size);
}

static int same_ll(const lytG_ll *a, const lytG_ll *b) { return a && b ? lytG_equal(a, b) : a == b; }

int lytK_equal(const lytK_kernel *a, const lytK_kernel *b) {
  size_t r = sizeof(int64_t) * (size_t)a->rank;
  return !strcmp(a->name, b->name) && !strcmp(a->elem, b->elem) && a->rank == b->rank &&
         !memcmp(a->shape, b->shape, r) && !memcmp(a->tile, b->tile, r) &&
         !memcmp(a->src_stride, b->src_stride, r) && !memcmp(a->dst_stride, b->dst_stride, r) &&
         a->has_grid_order == b->has_grid_order &&
         !memcmp(a->grid_order, b->grid_order, sizeof a->grid_order) &&
         a->tiles_per_block == b->tiles_per_block && a->grid_group == b->grid_group &&
         same_ll(a->grid, b->grid) &&
         a->smem_bytes == b->smem_bytes && a->buffers == b->buffers && a->l2_load == b->l2_load &&
         a->l2_store == b->l2_store && a->mechanism == b->mechanism &&
         a->round_trips == b->round_trips && same_ll(a->load, b->load) &&
         same_ll(a->store, b->store) && same_ll(a->smem, b->smem);
}

/* Tile bits that only registers set in both layouts, each by a register
** bit of its own: a round of staging can take the elements with given
** values of them, in every thread alike. */
static uint64_t register_only_bits(const conv *c) {
  uint64_t taken = 0;
  for (int i = 0; i < 2; i++) {
    const lytK_dist *g = i ? c->b : c->a;
    for (int32_t b = 0; b < g->lanebits + g->warpbits; b++) taken |= lytK_col(g, 1, b);
    for (int32_t b = 0; b < g->regbits; b++) {
      uint64_t x = lytK_col(g, 0, b);
      if (x & (x - 1)) taken |= x;
    }
  }
  return ~taken & ((UINT64_C(1) << c->a->L->outbits) - 1);
}

/* L with the tile bits in `gone` taken out of its out-dims. */
static const lytG_ll *squeeze(lytS_ctx *cx, const lytG_ll *L, uint64_t gone) {
  lytG_dim out[LYT_LL_MAXDIMS];
  uint64_t col[LYT_LL_MAXBITS] = { 0 };
  for (int32_t d = 0, at = 0; d < L->nout; at += L->out[d++].log2) {
    uint64_t mine = gone >> at & ((UINT64_C(1) << L->out[d].log2) - 1);
    out[d] = (lytG_dim){ L->out[d].name, L->out[d].log2 - ones(mine) };
  }
  for (int32_t j = 0; j < L->inbits; j++)
    for (int32_t q = 0, n = 0; q < L->outbits; q++)
      if (!(gone >> q & 1)) col[j] |= (L->col[j] >> q & 1) << n++;
  return lytG_make(cx, L->nin, L->in, L->nout, out, col, 0);
}

/* A scratch layout for one round of staging: picked for the tile without
** the bits in `gone`, which it maps to offset 0 (its zero columns tell a
** round's bits to whoever lowers the kernel again). */
static const lytG_ll *round_scratch(lytS_ctx *cx, const lytK_kernel *k, const conv *c, uint64_t gone) {
  lytK_kernel r = *k;
  r.load = squeeze(cx, c->a->L, gone), r.store = squeeze(cx, c->b->L, gone), r.smem = NULL;
  lytK_dist a = lytK_dist_of(r.load), b = lytK_dist_of(r.store);
  lytG_dim in[LYTK_MAXRANK];
  for (int32_t d = 0; d < k->rank; d++) {
    r.tile[d] = INT64_C(1) << r.load->out[d].log2;
    in[d] = (lytG_dim){ lytG_std_dim_name(d), c->a->L->out[d].log2 };
  }
  conv rc = { .a = &a, .b = &b };
  const lytG_ll *S = pick_scratch(cx, &r, &rc);
  uint64_t col[LYT_LL_MAXBITS] = { 0 };
  for (int32_t j = 0, n = 0; j < c->a->L->outbits; j++)
    if (!(gone >> j & 1)) col[j] = S->col[n++];
  return lytG_make(cx, k->rank, in, 1, S->out, col, 0);
}

/* Whether a second scratch buffer pays: it saves a barrier a staging, and
** costs resident blocks where shared memory limits them. On the H200 (2048
** threads, 32 blocks and 228 KB an SM, 1 KB reserved per block) it gained
** 1-5% on every benchmark pair that kept two blocks an SM, and lost up to
** 7% where one was left (bench/gpu/results-h100.md, "Conversions"); the
** same rule for CDNA3 (64 lanes: 2048 threads and 64 KB of LDS a CU),
** not measured. */
static int second_buffer_pays(const lytK_dist *g, int64_t bytes) {
  int amd = g->lanebits == 6;
  int64_t threads = lytK_threads(g), most = 2048 / threads < 32 ? 2048 / threads : 32;
  int64_t two = amd ? 65536 / (2 * bytes) : 228 * 1024 / (2 * bytes + 1024);
  return (two < most ? two : most) >= 2;
}

/* The scratch layout, the rounds it takes and its buffers. The tile is
** staged whole unless that needs more than smem_bytes (or a block's
** shared memory: 64 KB of LDS where the layouts have 64 lanes): then in rounds, each taking the elements with given
** values of some tile bits only registers set (dim0's top bits first). Two
** buffers let a staging skip the barrier that waits for the reads of the
** one before: the barrier between them already did, if no exchange stays
** within warps (warp barriers) and the stagings of a round trip alternate
** evenly. */
static void plan_staging(lytS_ctx *cx, const lytK_kernel *k, conv *c) {
  int64_t size = 1, eb = k->elem_bytes, T = c->T;
  int64_t budget = k->smem_bytes ? k->smem_bytes : c->a->lanebits == 6 ? 65536 : LYTK_MAX_SMEM;
  int32_t want = k->buffers ? k->buffers : 1;
  for (int32_t d = 0; d < k->rank; d++) size *= k->tile[d];
  const lytG_ll *S = k->smem;
  if (S && !k->smem_picked) check_smem(cx, k, S);
  else if (!S) {
    uint64_t free = register_only_bits(c), gone = 0;
    int32_t at[LYTK_MAXRANK + 1] = { 0 }, n = 0;
    for (int32_t d = 0; d < k->rank; d++) at[d + 1] = at[d] + c->a->L->out[d].log2;
    for (int32_t d = 0; d < k->rank && want * T * (size >> n) * eb > budget; d++)
      for (int32_t j = at[d + 1] - 1; j >= at[d] && want * T * (size >> n) * eb > budget; j--)
        if (free >> j & 1) gone |= UINT64_C(1) << j, n++;
    S = !gone ? (c->S ? c->S : pick_scratch(cx, k, c)) : round_scratch(cx, k, c, gone);
  }
  c->S = S, c->rounds = 0;
  for (int32_t j = 0; j < S->inbits; j++)
    if (!S->col[j]) c->rounds |= UINT64_C(1) << j;
  int64_t bytes = T * (INT64_C(1) << S->outbits) * eb, stagings = INT64_C(1) << ones(c->rounds);
  if (want * bytes > budget) {
    const char *need = want > 1 ? "two buffers of staging need" : "staging needs";
    const char *room = k->smem_bytes ? "smem_bytes =" : "a block has";
    if (S == k->smem)
      lytS_fail(cx, LYT_ERRRUN, "kernel: %s %lld bytes of shared memory, more than %s %lld", need,
                (long long)(want * bytes), room, (long long)budget);
    lytS_fail(cx, LYT_ERRRUN, "kernel: %s %lld bytes of shared memory, more than %s %lld; rounds "
              "of staging split the tile along bits only registers set in both layouts, and these "
              "layouts have %d such bit%s", need, (long long)(want * bytes), room, (long long)budget,
              (int)ones(c->rounds), ones(c->rounds) == 1 ? "" : "s");
  }
  const char *why = c->local[0] || c->local[1] ? "exchanges within warps, behind warp barriers"
                  : !k->round_trips ? (stagings > 1 ? NULL : "one staging")
                  : stagings * (1 + (c->mech[0] == c->mech[1])) % 2 ? "an odd number of stagings a round trip"
                  : NULL;
  if (k->buffers == 2 && why)
    lytS_fail(cx, LYT_ERRRUN, "kernel: buffers = 2 needs stagings that alternate between two "
              "buffers, each behind a block barrier; this conversion has %s", why);
  c->bufs = k->buffers ? k->buffers
          : !why && 2 * bytes <= budget && second_buffer_pays(c->a, bytes) ? 2 : 1;
}

/* A conversion between the layouts (or a forced one), its mechanism, its
** staging and the registers it needs. */
static void plan_conversion(lytS_ctx *cx, const lytK_kernel *k, conv *c, int32_t T, int32_t R) {
  c->T = T, c->R = R, c->lanes = 1 << c->a->lanebits;
  int differ = k->store && !lytG_equal(k->load, k->store);
  c->mech[0] = c->mech[1] = LYTK_MECH_NONE;
  if (differ || k->mechanism != LYTK_MECH_AUTO) choose(cx, k, c);
  if (uses(c, LYTK_MECH_SHUFFLE) && c->lanes > 64)
    lytS_fail(cx, LYT_ERRRUN, "kernel: a shuffle stays within a warp of at most 64 lanes; the "
              "layouts have %d", (int)c->lanes);
  for (int dir = 0; dir < 2; dir++) {  /* a warp's elements come from itself, stored by itself */
    const lytK_dist *from = dir ? c->b : c->a, *to = dir ? c->a : c->b;
    c->local[dir] = c->mech[dir] == LYTK_MECH_SHARED && !(copy_mask(from, 1) >> from->lanebits) &&
                    (c->shfl[dir] || lytK_plan_shuffle(cx, from, to));
  }
  if (!uses(c, LYTK_MECH_SHARED)) c->S = NULL;
  else plan_staging(cx, k, c);
  /* one register file for both layouts, unless a layout's registers are
  ** read after the other's are written (moves, shuffles, rounds) */
  int two = uses(c, LYTK_MECH_REGISTERS) || uses(c, LYTK_MECH_SHUFFLE) || c->rounds;
  if (c->rounds && 2 * T * R > LYTK_MAX_REGS)
    lytS_fail(cx, LYT_ERRRUN, "kernel: staging in rounds keeps both layouts' %d elements per "
              "thread in registers at once; at most %d", (int)(T * R), LYTK_MAX_REGS / 2);
  c->base_a = 0, c->base_b = two ? T * R : 0;
  c->spare = (two ? 2 : 1) * T * R;
}

/* Scratch reads not yet behind a barrier, per buffer, as a thread runs
** the ops; a warp barrier ends those of a staging whose exchange stayed
** in warps (its stores and loads had a warp barrier between them). */
typedef struct hazards {
  int64_t per;          /* elements of a buffer */
  int read[2], local[2];
  int warp_bar;         /* the last barrier was a warp's */
} hazards;

static int32_t loop_end(const lytK_program *P, int32_t i) {
  for (int32_t depth = 0;; i++) {
    depth += P->op[i].kind == LYTK_LOOP ? 1 : P->op[i].kind == LYTK_END ? -1 : 0;
    if (!depth) return i;
  }
}

/* Ops [from, to) in the order a thread runs them, a loop's body twice (its
** end flows back to its start). No staging may store into scratch that
** another warp may still read: the barrier logic of convert() fails with
** an internal error rather than a kernel with a race, which a simulation
** thread by thread (the C backend's) would not show. */
static void check_hazards(lytS_ctx *cx, const lytK_program *P, hazards *h, int32_t from, int32_t to) {
  for (int32_t i = from; i < to; i++) {
    const lytK_op *o = &P->op[i];
    int buf = (int)(o->add_k / h->per % 2);
    switch (o->kind) {
      case LYTK_LOOP: {
        int32_t end = loop_end(P, i);
        check_hazards(cx, P, h, i + 1, end);
        check_hazards(cx, P, h, i + 1, end);
        i = end;
        break;
      }
      case LYTK_BAR:
        for (int b = 0; b < 2; b++) h->read[b] = h->read[b] && o->vec == 1 && !h->local[b];
        h->warp_bar = o->vec == 1;
        break;
      case LYTK_LDS: case LYTK_LDSM: h->read[buf] = 1, h->local[buf] = h->warp_bar; break;
      case LYTK_STS: case LYTK_STSM:
        if (h->read[buf])
          lytS_fail(cx, LYT_ERRRUN, "kernel '%s': internal error: a staging would store into "
                    "scratch that other warps may still read", P->name);
        break;
      default: break;
    }
  }
}

lytK_program *lytK_lower(lytS_ctx *cx, const lytK_kernel *k) {
  check_kernel(cx, k);
  lytK_dist ld = read_dist(cx, k, k->load, "load");
  lytK_dist st = k->store ? read_dist(cx, k, k->store, "store") : ld;
  check_pair(cx, &ld, &st);
  prog p = { cx, lytS_alloc(cx, sizeof(lytK_node) * MAXNODES), NULL, 0, 0, 0, 0, 0 };
  lytK_program *P = lytS_alloc(cx, sizeof *P);
  memset(P, 0, sizeof *P);
  P->name = k->name, P->elem = k->elem, P->elem_bytes = k->elem_bytes;
  P->in_elems = extent(cx, k, k->src_stride, "source");
  P->out_elems = extent(cx, k, k->dst_stride, "destination");
  P->threads = (int32_t)lytK_threads(&ld);
  P->model = ld.lanebits == 6 ? LYTK_MODEL_CDNA3 : LYTK_MODEL_NVIDIA;  /* only AMD has 64 lanes */
  int32_t T = k->tiles_per_block > 1 ? k->tiles_per_block : 1;
  int32_t R = (int32_t)(lytK_regs(&ld) > lytK_regs(&st) ? lytK_regs(&ld) : lytK_regs(&st));
  int64_t tiles = 1;
  for (int32_t d = 0; d < k->rank; d++) tiles *= tiles_along(k, d);
  if (tiles % T)
    lytS_fail(cx, LYT_ERRRUN, "kernel: %d tiles per block do not divide the %lld tiles", (int)T,
              (long long)tiles);
  if ((int64_t)T * R > LYTK_MAX_REGS)
    lytS_fail(cx, LYT_ERRRUN, "kernel: %d tiles of %d elements per thread; at most %d", (int)T,
              (int)R, LYTK_MAX_REGS);
  P->blocks = (int32_t)(tiles / T);
  P->l2_load = k->l2_load, P->l2_store = k->l2_store;
  conv c = { .a = &ld, .b = &st };
  plan_conversion(cx, k, &c, T, R);
  p.spare = c.spare;
  if (c.S) {
    P->smem = c.S;
    P->smem_bytes = (int32_t)(((int64_t)c.bufs * T << c.S->outbits) * k->elem_bytes);
    P->rounds = 1 << ones(c.rounds), P->buffers = c.bufs;
  }
  for (int32_t t = 0; t < T; t++) global_ops(&p, k, &ld, k->src_stride, LYTK_LDG, t, P->blocks, t * R);
  int converts = k->mechanism != LYTK_MECH_AUTO || k->round_trips || (k->store && !lytG_equal(k->load, k->store));
  if (converts) {
    convert(&p, k, &c, 1);
    /* with nothing to move either way a round trip XORs each register
    ** twice: the identity, left out as any compiler would */
    if (k->round_trips && (c.mech[0] != LYTK_MECH_NONE || c.mech[1] != LYTK_MECH_NONE)) {
      c.looping = 1;
      new_op(&p, LYTK_LOOP, k->round_trips, 0);
      xor_key(&p, &c, 1);
      convert(&p, k, &c, 0);
      xor_key(&p, &c, 0);
      convert(&p, k, &c, 1);
      new_op(&p, LYTK_END, 0, 0);
    }
    P->mechanism = lytK_mech_names[c.mech[0]], P->conversions = 1 + 2 * k->round_trips;
    if (k->round_trips && c.mech[1] != c.mech[0]) P->mechanism_back = lytK_mech_names[c.mech[1]];
    P->lanes = uses(&c, LYTK_MECH_SHUFFLE) ? c.lanes : 0;
  }
  /* "none": the load layout's registers already are the store layout's */
  const lytK_dist *out = c.mech[0] == LYTK_MECH_NONE ? &ld : &st;
  for (int32_t t = 0; t < T; t++)
    global_ops(&p, k, out, k->dst_stride, LYTK_STG, t, P->blocks, c.base_b + t * R);
  if (k->smem_bytes > P->smem_bytes) P->smem_bytes = k->smem_bytes;
  P->nregs = c.spare + (uses(&c, LYTK_MECH_SHUFFLE) && p.spares < 2 ? 2 : p.spares);
  P->node = p.node, P->nnodes = p.nnodes, P->op = p.op, P->nops = p.nops;
  if (uses(&c, LYTK_MECH_SHARED)) {
    hazards h = { (int64_t)c.T << c.S->outbits, { 0, 0 }, { 0, 0 }, 0 };
    check_hazards(cx, P, &h, 0, P->nops);
  }
  return P;
}

int64_t *lytK_expect(lytS_ctx *cx, const lytK_kernel *k, int64_t *out_elems) {
  check_kernel(cx, k);
  int64_t n_out = extent(cx, k, k->dst_stride, "destination"), size = 1;
  extent(cx, k, k->src_stride, "source");
  int64_t *e = lytS_alloc(cx, sizeof *e * (size_t)n_out);
  for (int64_t i = 0; i < n_out; i++) e[i] = -1;
  for (int32_t d = 0; d < k->rank; d++) size *= k->shape[d];
  for (int64_t f = 0; f < size; f++) {
    int64_t rest = f, src = 0, dst = 0;
    for (int32_t d = k->rank - 1; d >= 0; d--) {
      int64_t x = rest % k->shape[d];
      rest /= k->shape[d];
      src += x * k->src_stride[d], dst += x * k->dst_stride[d];
    }
    e[dst] = src;
  }
  *out_elems = n_out;
  return e;
}
