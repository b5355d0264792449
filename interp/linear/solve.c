/*
** linear/solve.c: solving over GF(2) (lytG_): invertAndCompose, invert,
** pseudoinvert, free variables, left/right division, quotient.
**
** Triton solves A X = B by f2reduce's RREF of [A | B] and reads X off the
** pivot rows, free variables set to 0. The RREF of a matrix is unique, and
** its pivots are the columns independent of all columns before them. So
** we eliminate A's columns in order (a column is a pivot when the pivots
** before it leave it nonzero), tracking which pivot columns each reduced
** vector is the XOR of; reducing a column of B through the pivots gives
** exactly the pivot combination of the RREF (the lowest-index preimage),
** word-parallel, without building rows.
*/
#include "interp/linear/linear.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* elimination                                                         */
/* ------------------------------------------------------------------ */

/* Column-ordered Gaussian elimination: column i, once reduced by the
** pivots before it, is a pivot when nonzero; its lowest set bit is then
** cleared from every later column. The masks are branch-free so the inner
** loops vectorize. */
typedef struct elim {
  int32_t n;                  /* pivots found */
  uint64_t v[LYT_LL_MAXBITS];     /* reduced pivot vectors */
  uint64_t combo[LYT_LL_MAXBITS]; /* the pivot columns whose XOR is v[i] */
  uint64_t bit[LYT_LL_MAXBITS];   /* lowest set bit of v[i] */
  uint64_t pivots;            /* which columns are pivots */
} elim;

/* When a column and its combination record fit one word together
** (out bits + n <= 64, as for every 32x32 layout), eliminate on the packed
** words: one XOR per row instead of two. */
static int elim_packed(elim *e, const uint64_t *cols, int32_t n) {
  uint64_t all = 0;
  for (int32_t j = 0; j < n; j++) all |= cols[j];
  int32_t ob = all ? 64 - __builtin_clzll(all) : 0;
  if (ob + n > 64) return 0;
  uint64_t w[LYT_LL_MAXBITS], low = ob == 64 ? ~(uint64_t)0 : ((uint64_t)1 << ob) - 1;
  for (int32_t j = 0; j < n; j++) w[j] = cols[j] | ((uint64_t)1 << (ob + j));
  e->n = 0;
  e->pivots = 0;
  for (int32_t i = 0; i < n; i++) {
    uint64_t full = w[i], v = full & low, p = v & (0 - v);
    if (!v) continue;
    e->v[e->n] = v;
    e->combo[e->n] = full >> ob;
    e->bit[e->n++] = p;
    e->pivots |= (uint64_t)1 << i;
    for (int32_t j = i + 1; j < n; j++) w[j] ^= full & (0 - (uint64_t)((w[j] & p) != 0));
  }
  return 1;
}

static void elim_build(elim *e, const uint64_t *cols, int32_t n) {
  if (elim_packed(e, cols, n)) return;
  uint64_t c[LYT_LL_MAXBITS], cm[LYT_LL_MAXBITS];
  memcpy(c, cols, sizeof c[0] * (size_t)n);
  for (int32_t j = 0; j < n; j++) cm[j] = (uint64_t)1 << j;
  e->n = 0;
  e->pivots = 0;
  for (int32_t i = 0; i < n; i++) {
    uint64_t v = c[i], p = v & (0 - v);
    if (!v) continue;
    e->v[e->n] = v;
    e->combo[e->n] = cm[i];
    e->bit[e->n++] = p;
    e->pivots |= (uint64_t)1 << i;
    for (int32_t j = i + 1; j < n; j++) {
      uint64_t m = 0 - (uint64_t)((c[j] & p) != 0);
      c[j] ^= v & m;
      cm[j] ^= cm[i] & m;
    }
  }
}

/* Solves for n right-hand sides at once: x[j] gets the pivot columns that
** XOR to b[j] (the RREF solution); b[j] is left with what is unreached. */
static void elim_solve(const elim *e, uint64_t *restrict b, uint64_t *restrict x, int32_t n) {
  for (int32_t j = 0; j < n; j++) x[j] = 0;
  for (int32_t i = 0; i < e->n; i++)
    for (int32_t j = 0; j < n; j++) {
      uint64_t m = 0 - (uint64_t)((b[j] & e->bit[i]) != 0);
      b[j] ^= e->v[i] & m;
      x[j] ^= e->combo[i] & m;
    }
}

/* When the pivots span all nbits output bits, back-substitution turns
** each pivot vector into the unit vector of its lowest bit, so sol[k]
** (the pivot columns giving output bit k) solves any right-hand side by
** XOR over its set bits: O(popcount) per column instead of O(pivots). */
static void elim_unit_solve(elim *e, uint64_t *b, uint64_t *x, int32_t n) {
  int32_t owner[LYT_LL_MAXBITS];  /* pivot whose lowest bit is k */
  uint64_t sol[LYT_LL_MAXBITS];
  for (int32_t i = 0; i < e->n; i++) owner[__builtin_ctzll(e->bit[i])] = i;
  for (int32_t i = e->n - 1; i >= 0; i--) {
    uint64_t rest = e->v[i] & ~e->bit[i];  /* all bits of later pivots, already units */
    for (; rest; rest &= rest - 1) e->combo[i] ^= e->combo[owner[__builtin_ctzll(rest)]];
    sol[__builtin_ctzll(e->bit[i])] = e->combo[i];
  }
  for (int32_t j = 0; j < n; j++) {
    uint64_t r = 0;
    for (uint64_t w = b[j]; w; w &= w - 1) r ^= sol[__builtin_ctzll(w)];
    x[j] = r;
    b[j] = 0;
  }
}

void lytG_free_variable_masks(const lytG_ll *L, uint64_t *masks) {
  elim e;
  elim_build(&e, L->col, L->inbits);
  for (int32_t i = 0, j = 0; i < L->nin; j += L->in[i].log2, i++)
    masks[i] = (~e.pivots >> j) & lytG_mask(L->in[i].log2);
}

/* ------------------------------------------------------------------ */
/* invertAndCompose                                                    */
/* ------------------------------------------------------------------ */

/* Bases of in-dim i of a and in-dim j of b equal component by component,
** and the out sizes equal too (out-dims matched by name). Triton 3.6
** compares the two sublayouts with ==, which includes the sizes: with
** out sizes 8 and 16 an equal-looking dim is solved, not kept as identity
** (tests/ll/ops.txt, checked on Triton 3.6). */
static int same_bases(const lytG_ll *a, int32_t i, const lytG_ll *b, int32_t j) {
  if (a->in[i].log2 != b->in[j].log2) return 0;
  for (int32_t k = 0; k < b->nout; k++)
    if (a->out[lytG_find_dim(a->nout, a->out, b->out[k].name)].log2 != b->out[k].log2) return 0;
  int32_t oa = lytG_in_offset(a, i), ob = lytG_in_offset(b, j);
  for (int32_t t = 0; t < a->in[i].log2; t++)
    for (int32_t k = 0; k < b->nout; k++) {
      int32_t p = lytG_find_dim(a->nout, a->out, b->out[k].name);
      if (lytG_field(a, a->col[oa + t], p) != lytG_field(b, b->col[ob + t], k)) return 0;
    }
  return 1;
}

/* B's columns moved into A's output words (B's out sizes <= A's). */
static void to_outer_space(const lytG_ll *A, const lytG_ll *B, uint64_t *out) {
  int32_t dst[LYT_LL_MAXDIMS], ident = A->outbits == B->outbits;
  for (int32_t k = 0, off = 0; k < B->nout; off += B->out[k].log2, k++) {
    dst[k] = lytG_out_offset(A, lytG_find_dim(A->nout, A->out, B->out[k].name));
    ident = ident && dst[k] == off;
  }
  for (int32_t j = 0; j < B->inbits; j++) {
    uint64_t w = B->col[j], o = 0;
    for (int32_t k = 0, off = 0; k < B->nout && !ident; off += B->out[k].log2, k++)
      o |= ((w >> off) & lytG_mask(B->out[k].log2)) << dst[k];
    out[j] = ident ? w : o;
  }
}

/* The dims of X in A(X(y)) = B(y): B's in-dims to A's in-dims; the
** columns are left for the caller. */
static lytG_ll *solution_frame(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  lytG_ll *R = lytG_new(cx);
  R->nin = B->nin;
  R->nout = A->nin;
  memcpy(R->in, B->in, sizeof R->in);
  memcpy(R->out, A->in, sizeof R->out);
  return R;
}

static void ic_check_dims(lytS_ctx *cx, const lytG_ll *B, const lytG_ll *A) {
  int ok = A->nout == B->nout;
  for (int32_t k = 0; k < B->nout && ok; k++) ok = lytG_out_index(A, B->out[k].name) >= 0;
  if (!ok)
    lytS_fail(cx, LYT_ERRRUN, "invert_and_compose: out-dims must match, ignoring order, but "
              "they don't: %s and %s", lytG_out_names(cx, B), lytG_out_names(cx, A));
  for (int32_t k = 0; k < B->nout; k++) {
    int32_t p = lytG_out_index(A, B->out[k].name);
    if (A->out[p].log2 < B->out[k].log2)
      lytS_fail(cx, LYT_ERRRUN, "invert_and_compose: incompatible output shapes in '%s': "
                "%lld (second) must be >= %lld (first)", B->out[k].name,
                (long long)lytG_out_size(A, p), (long long)lytG_out_size(B, k));
  }
}

/* Marks the identity dims (in both layouts with equal bases); checks
** that both or neither layout keep non-identity dims. */
static void ic_identity(lytS_ctx *cx, const lytG_ll *B, const lytG_ll *A, uint32_t *idA,
                        uint32_t *idB) {
  *idA = *idB = 0;
  for (int32_t i = 0; i < A->nin; i++) {
    int32_t j = lytG_in_index(B, A->in[i].name);
    if (j >= 0 && same_bases(A, i, B, j)) {
      *idA |= 1u << i;
      *idB |= 1u << j;
    }
  }
  int restA = *idA != (A->nin ? (uint32_t)((1ull << A->nin) - 1) : 0);
  int restB = *idB != (B->nin ? (uint32_t)((1ull << B->nin) - 1) : 0);
  if (restA != restB)
    lytS_fail(cx, LYT_ERRRUN, "invert_and_compose: after removing the in-dims equal in both "
              "layouts, %s has in-dims left and %s has none", restA ? "the second" : "the first",
              restA ? "the first" : "the second");
}

static lytG_ll *inv_comp(lytS_ctx *cx, const lytG_ll *B, const lytG_ll *A, int32_t rank) {
  ic_check_dims(cx, B, A);
  uint32_t idA, idB;
  ic_identity(cx, B, A, &idA, &idB);
  uint64_t acols[LYT_LL_MAXBITS], rhs[LYT_LL_MAXBITS];
  memcpy(acols, A->col, sizeof acols);
  for (int32_t i = 0, j = 0; i < A->nin; j += A->in[i].log2, i++)
    if ((idA >> i) & 1)  /* identity dims leave the system: zero columns are no pivots */
      memset(&acols[j], 0, sizeof acols[0] * (size_t)A->in[i].log2);
  elim e;
  elim_build(&e, acols, A->inbits);
  to_outer_space(A, B, rhs);
  lytG_ll *R = solution_frame(cx, A, B);
  for (int32_t i = 0, j = 0; i < B->nin; j += B->in[i].log2, i++) {
    int32_t ai = (idB >> i) & 1 ? lytG_in_index(A, B->in[i].name) : -1;
    int32_t aoff = ai >= 0 ? lytG_in_offset(A, ai) : 0;
    if (ai >= 0) {
      for (int32_t t = 0; t < B->in[i].log2; t++) R->col[j + t] = (uint64_t)1 << (aoff + t);
      memset(&rhs[j], 0, sizeof rhs[0] * (size_t)B->in[i].log2);
    }
  }
  uint64_t x[LYT_LL_MAXBITS];
  if (e.n == A->outbits) elim_unit_solve(&e, rhs, x, B->inbits);
  else elim_solve(&e, rhs, x, B->inbits);
  for (int32_t i = 0, j = 0; i < B->nin; j += B->in[i].log2, i++)
    for (int32_t t = 0; t < B->in[i].log2; t++) {
      if (rhs[j + t])
        lytS_fail(cx, LYT_ERRRUN, "invert_and_compose: the image of the first layout is not "
                  "contained in the image of the second (basis %d of in-dim '%s' is not "
                  "reached)", (int)t, B->in[i].name);
      if (!((idB >> i) & 1)) R->col[j + t] = x[j + t];
    }
  lytG_finish_rank(cx, R, 0, "invert_and_compose", rank);
  return R;
}

lytG_ll *lytG_invert_and_compose(lytS_ctx *cx, const lytG_ll *B, const lytG_ll *A) {
  return inv_comp(cx, B, A, -1);
}

/* Triton's factorThrough: X with A(X(y)) == B(y), the RREF solution (no
** identity dims set aside, unlike invert_and_compose); NULL where the
** out-dims differ as sets, B has an out-dim larger than A's, or B's image
** leaves A's. */
lytG_ll *lytG_factor_through(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  if (A->nout != B->nout) return NULL;
  for (int32_t k = 0; k < B->nout; k++) {
    int32_t p = lytG_out_index(A, B->out[k].name);
    if (p < 0 || A->out[p].log2 < B->out[k].log2) return NULL;
  }
  elim e;
  elim_build(&e, A->col, A->inbits);
  uint64_t rhs[LYT_LL_MAXBITS], x[LYT_LL_MAXBITS];
  to_outer_space(A, B, rhs);
  elim_solve(&e, rhs, x, B->inbits);
  for (int32_t j = 0; j < B->inbits; j++)
    if (rhs[j]) return NULL;
  lytG_ll *R = solution_frame(cx, A, B);
  memcpy(R->col, x, sizeof x[0] * (size_t)B->inbits);
  lytG_finish(cx, R, 0, "factor_through");
  return R;
}

/* The identity over L's out-dims: Triton's product of identity1D's. */
static lytG_ll *out_identity(lytS_ctx *cx, const lytG_ll *L) {
  lytG_ll *I = lytG_new(cx);
  I->nin = I->nout = L->nout;
  memcpy(I->in, L->out, sizeof I->in);
  memcpy(I->out, L->out, sizeof I->out);
  for (int32_t j = 0; j < L->outbits; j++) I->col[j] = (uint64_t)1 << j;
  lytG_finish_rank(cx, I, 1, "pseudoinvert", L->outbits);
  return I;
}

lytG_ll *lytG_pseudoinvert(lytS_ctx *cx, const lytG_ll *L) {
  if (!lytG_is_surjective(L))
    lytS_fail(cx, LYT_ERRRUN, "pseudoinvert: the layout must be surjective (rank %d of %d "
              "output bits)", (int)lytG_rank(L), (int)L->outbits);
  /* rank of the result: the preimages of independent outputs stay independent */
  return inv_comp(cx, out_identity(cx, L), L, L->outbits);
}

/* Inverses of layouts of at most 32 bits, on words that hold a column's
** image (low half) and the input bits it is the XOR of (high half); row[b]
** ends as the unit image of output bit b, its high half the preimage: a
** column of the inverse. */

/* Near-permutations (swizzles) and small layouts:
** work that follows the set bits. Forward, each column is XORed with the
** row of its lowest pivot bit until it has none (a row's lowest bit is its
** pivot, so each step moves past one) and becomes the row of its own
** lowest bit; backward, highest pivot first, a row is XORed with the
** reduced rows of the other bits it has. */
static void invert_sparse(const uint64_t *col, int32_t n, uint64_t *row) {
  uint32_t piv = 0;
  for (int32_t j = 0; j < n; j++) {
    uint64_t w = col[j] | (uint64_t)1 << (32 + j);
    for (uint32_t s; (s = (uint32_t)w & piv) != 0;) w ^= row[__builtin_ctz(s)];
    int32_t p = __builtin_ctz((uint32_t)w);  /* w's image is nonzero: L is invertible */
    row[p] = w;
    piv |= 1u << p;
  }
  for (int32_t b = n - 1; b >= 0; b--)
    for (uint32_t s = (uint32_t)row[b] & ~(1u << b); s; s &= s - 1) row[b] ^= row[__builtin_ctz(s)];
}

/* The set {x ^ v : x in S} of a set S of 4-bit values (bit x of S). */
static uint32_t nibble_set_xor(uint32_t S, uint32_t v) {
  if (v & 1) S = (S & 0x5555) << 1 | (S >> 1 & 0x5555);
  if (v & 2) S = (S & 0x3333) << 2 | (S >> 2 & 0x3333);
  if (v & 4) S = (S & 0x0f0f) << 4 | (S >> 4 & 0x0f0f);
  if (v & 8) S = (S & 0x00ff) << 8 | (S >> 8 & 0x00ff);
  return S;
}

/* Dense ones: Gauss-Jordan four output bits at a time (the "Four
** Russians" method). For each group of four bits, four columns whose
** bits there are independent become a 16-word table of all their XORs,
** indexed by those bits; one lookup then clears the group from every
** other column, and the entries 1, 2, 4, 8 are the new reduced rows.
** The work is a fixed lookup per column and group, where following set
** bits costs a mispredicted branch per bit of a dense matrix. a[b] for
** b < lo holds the reduced rows so far, a[lo..n) the columns not yet
** pivots. */

static uint64_t swap_in(uint64_t *a, int32_t i, int32_t j) {
  uint64_t t = a[i];
  a[i] = a[j], a[j] = t;
  return t;
}

/* A whole group of four: the k-th chosen column is the first whose
** nibble is outside the span of the nibbles e1.. chosen before it,
** written out as a bit set; the table's indices are XORs of those
** nibbles. */
static inline __attribute__((always_inline)) void group_of_four(uint64_t *a, int32_t lo, uint64_t *T) {
#define NIB(i) ((uint32_t)(a[i] >> lo) & 15)
  int32_t i = lo;
  uint32_t e1, e2, e3, e4, s;  /* the columns' nibbles; s: their span */
  while ((e1 = NIB(i)) == 0) i++;
  uint64_t p0 = swap_in(a, i++, lo);
  s = 1u | 1u << e1;
  while ((s >> (e2 = NIB(i))) & 1) i++;
  uint64_t p1 = swap_in(a, i++, lo + 1);
  s |= 1u << e2 | 1u << (e2 ^ e1);
  while ((s >> (e3 = NIB(i))) & 1) i++;
  uint64_t p2 = swap_in(a, i++, lo + 2);
  s |= 1u << e3 | 1u << (e3 ^ e1) | 1u << (e3 ^ e2) | 1u << (e3 ^ e2 ^ e1);
  while ((s >> (e4 = NIB(i))) & 1) i++;
  uint64_t p3 = swap_in(a, i, lo + 3);
#undef NIB
  uint64_t q1 = p0 ^ p1, q2 = p2 ^ p0, q3 = p2 ^ p1, q4 = q1 ^ p2;
  uint32_t f1 = e1 ^ e2, f2 = e3 ^ e1, f3 = e3 ^ e2, f4 = f1 ^ e3;
  T[0] = 0, T[e1] = p0, T[e2] = p1, T[f1] = q1;
  T[e3] = p2, T[f2] = q2, T[f3] = q3, T[f4] = q4;
  T[e4] = p3, T[e4 ^ e1] = p0 ^ p3, T[e4 ^ e2] = p1 ^ p3, T[e4 ^ f1] = q1 ^ p3;
  T[e4 ^ e3] = p2 ^ p3, T[e4 ^ f2] = q2 ^ p3, T[e4 ^ f3] = q3 ^ p3, T[e4 ^ f4] = q4 ^ p3;
}

/* The last group of k < 4 bits: its span kept as a set of nibbles. */
static void group_of_fewer(uint64_t *a, int32_t lo, int32_t n, uint64_t *T) {
  int32_t k = n - lo;
  uint32_t span = 1;
  for (int32_t b = 0, i = lo; b < k; i++) {
    uint32_t v = (uint32_t)(a[i] >> lo) & 15;
    if ((span >> v) & 1) continue;
    span |= nibble_set_xor(span, v);
    swap_in(a, i, lo + b++);
  }
  uint64_t p0 = a[lo], p1 = k > 1 ? a[lo + 1] : 0, p2 = k > 2 ? a[lo + 2] : 0;
  uint64_t u[8] = { 0, p0, p1, p0 ^ p1, p2, p2 ^ p0, p2 ^ p1, p2 ^ p0 ^ p1 };
  for (int32_t v = 0; v < 8; v++) T[(u[v] >> lo) & 15] = u[v];
}

static inline __attribute__((always_inline)) void dense_groups(uint64_t *a, int32_t n) {
  uint64_t bit = (uint64_t)1 << 32;
  for (int32_t j = 0; j < n; j++, bit <<= 1) a[j] |= bit;
  for (int32_t lo = 0; lo < n; lo += 4) {
    uint64_t T[16];
    if (n - lo >= 4) group_of_four(a, lo, T);
    else group_of_fewer(a, lo, n, T);
#pragma GCC unroll 32
    for (int32_t i = 0; i < n; i++) a[i] ^= T[(a[i] >> lo) & 15];
#pragma GCC unroll 4
    for (int32_t b = 0; b < 4; b++)
      if (lo + b < n) a[lo + b] = T[1 << b];
  }
}

/* Written for any n, inlined with n constant for 32 bits: with the pass
** over the columns unrolled and the groups of four written out, 343 ->
** 230 ns on dense 32-bit layouts (make bench-linear). */
static inline __attribute__((always_inline)) lytG_ll *invert_n(lytS_ctx *cx, const lytG_ll *L,
                                                               int32_t n) {
  uint64_t row[32];
  int32_t units = 0;
  for (int32_t j = 0; j < n; j++) units += !(L->col[j] & (L->col[j] - 1));
  /* the dense pass costs a lookup per column and group of four bits, the
  ** sparse one about a row per set bit met: measured (make bench-linear),
  ** sparse wins where at least half the columns are single bits (a
  ** swizzle's) */
  if (2 * units >= n) invert_sparse(L->col, n, row);
  else {
    memcpy(row, L->col, sizeof *row * (size_t)n);
    dense_groups(row, n);
  }
  lytG_ll *R = lytG_shell(cx, L->nout, L->out, n, L->nin, L->in, n);
  for (int32_t b = 0; b < n; b++) R->col[b] = row[b] >> 32;
  lytG_finish_known(R, n, 0);
  return R;
}

static lytG_ll *invert_small(lytS_ctx *cx, const lytG_ll *L) {
  return L->inbits == 32 ? invert_n(cx, L, 32) : invert_n(cx, L, L->inbits);
}

lytG_ll *lytG_invert(lytS_ctx *cx, const lytG_ll *L) {
  if (!lytG_is_invertible(L))
    lytS_fail(cx, LYT_ERRRUN, "invert: a linear layout must be surjective and square to be "
              "invertible (rank %d, %d input bits, %d output bits)", (int)lytG_rank(L),
              (int)L->inbits, (int)L->outbits);
  return L->inbits <= 32 ? invert_small(cx, L) : lytG_pseudoinvert(cx, L);
}

/* ------------------------------------------------------------------ */
/* division                                                            */
/* ------------------------------------------------------------------ */

/* B's dims inside A's, and C's out-dims (A's, sizes A/B) into C. */
static const char *div_dims(const lytG_ll *A, const lytG_ll *B, lytG_ll *C) {
  for (int32_t i = 0; i < B->nin; i++)
    if (lytG_in_index(A, B->in[i].name) < 0) return "an in-dim of the divisor is not in A";
  for (int32_t k = 0; k < B->nout; k++)
    if (lytG_out_index(A, B->out[k].name) < 0) return "an out-dim of the divisor is not in A";
  C->nout = A->nout;
  C->nin = A->nin;
  for (int32_t k = 0; k < A->nout; k++) {
    int32_t q = lytG_out_index(B, A->out[k].name);
    int32_t lb = q >= 0 ? B->out[q].log2 : 0;
    if (lb > A->out[k].log2) return "an out-dim of the divisor is larger than A's";
    C->out[k] = (lytG_dim){ A->out[k].name, A->out[k].log2 - lb };
  }
  for (int32_t i = 0; i < A->nin; i++) {
    int32_t q = lytG_in_index(B, A->in[i].name);
    int32_t lb = q >= 0 ? B->in[q].log2 : 0;
    if (lb > A->in[i].log2) return "an in-dim of the divisor is larger than A's";
    C->in[i] = (lytG_dim){ A->in[i].name, A->in[i].log2 - lb };
  }
  return NULL;
}

/* A's basis word as C's word for divideLeft: each component divided by
** the divisor's out size, which must divide it. 0 if it does not. */
static int left_part(const lytG_ll *A, const lytG_ll *B, const lytG_ll *C, uint64_t w,
                     uint64_t *out) {
  *out = 0;
  for (int32_t k = 0, coff = 0; k < A->nout; coff += C->out[k].log2, k++) {
    uint64_t v = lytG_field(A, w, k);
    int32_t q = lytG_out_index(B, A->out[k].name);
    int32_t lb = q >= 0 ? B->out[q].log2 : 0;
    if (v & lytG_mask(lb)) return 0;
    *out |= (v >> lb) << coff;
  }
  return 1;
}

/* A's leading basis word as C's word for divideRight: components kept,
** each must be below C's out size (Triton's constructor check). */
static int right_part(const lytG_ll *A, const lytG_ll *C, uint64_t w, uint64_t *out) {
  *out = 0;
  for (int32_t k = 0, coff = 0; k < A->nout; coff += C->out[k].log2, k++) {
    uint64_t v = lytG_field(A, w, k);
    if (v >> C->out[k].log2) return 0;
    *out |= v << coff;
  }
  return 1;
}

/* A trailing basis of A against the divisor's for divideRight: over B's
** out-dims, A's component is B's scaled by C's out size. */
static int right_tail_ok(const lytG_ll *A, const lytG_ll *B, const lytG_ll *C, uint64_t a,
                         uint64_t b) {
  for (int32_t k = 0; k < B->nout; k++) {
    int32_t p = lytG_out_index(A, B->out[k].name);
    uint64_t v = lytG_field(A, a, p);
    int32_t lc = C->out[p].log2;
    if ((v & lytG_mask(lc)) || (v >> lc) != lytG_field(B, b, k)) return 0;
  }
  return 1;
}

/* B's basis word as an A word (B's components in A's fields, 0 in the
** out-dims B lacks). */
static uint64_t b_in_a(const lytG_ll *A, const lytG_ll *B, uint64_t w) {
  uint64_t o = 0;
  for (int32_t k = 0, off = 0; k < B->nout; off += B->out[k].log2, k++) {
    int32_t p = lytG_out_index(A, B->out[k].name);
    o |= ((w >> off) & lytG_mask(B->out[k].log2)) << lytG_out_offset(A, p);
  }
  return o;
}

/* Triton asserts B * C == A (or C * B == A) after dividing; a mismatch
** comes from dim orders the product would merge differently. */
static const char *div_verify(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *inner,
                              const lytG_ll *outer) {
  const char *a[LYT_LL_MAXDIMS], *b[LYT_LL_MAXDIMS], *r[2 * LYT_LL_MAXDIMS];
  for (int32_t i = 0; i < inner->nin; i++) a[i] = inner->in[i].name;
  for (int32_t i = 0; i < outer->nin; i++) b[i] = outer->in[i].name;
  if (lytG_sup_try(inner->nin, a, outer->nin, b, r) < 0) return "the in-dim orders conflict";
  for (int32_t i = 0; i < inner->nout; i++) a[i] = inner->out[i].name;
  for (int32_t i = 0; i < outer->nout; i++) b[i] = outer->out[i].name;
  if (lytG_sup_try(inner->nout, a, outer->nout, b, r) < 0) return "the out-dim orders conflict";
  if (!lytG_equal(lytG_product(cx, inner, outer), A))
    return "the product of the factors would not reproduce A (dim orders differ)";
  return NULL;
}

/* The tail both divisions share: C must be a valid layout, and multiplying
** back (B * C on the left, C * B on the right) must give A. */
static const char *div_finish(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B, lytG_ll *C,
                              int left, lytG_ll **out) {
  const char *m = lytG_finish_msg(cx, C, lytG_is_surjective(A) && lytG_is_surjective(B),
                                  left ? "divide_left" : "divide_right");
  if (!m) m = div_verify(cx, A, left ? B : C, left ? C : B);
  if (!m) *out = C;
  return m;
}

static const char *divide_left_msg(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B,
                                   lytG_ll **out) {
  lytG_ll *C = lytG_new(cx);
  const char *m = div_dims(A, B, C);
  if (m) return m;
  for (int32_t i = 0, ja = 0, jc = 0; i < A->nin; ja += A->in[i].log2, i++) {
    int32_t q = lytG_in_index(B, A->in[i].name);
    int32_t nb = A->in[i].log2 - C->in[i].log2, ob = q >= 0 ? lytG_in_offset(B, q) : 0;
    for (int32_t t = 0; t < nb; t++)
      if (A->col[ja + t] != b_in_a(A, B, B->col[ob + t]))
        return "A's first bases differ from the divisor's";
    for (int32_t t = nb; t < A->in[i].log2; t++, jc++)
      if (!left_part(A, B, C, A->col[ja + t], &C->col[jc]))
        return "a basis of A is not a multiple of the divisor's out size";
  }
  return div_finish(cx, A, B, C, 1, out);
}

static const char *divide_right_msg(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B,
                                    lytG_ll **out) {
  lytG_ll *C = lytG_new(cx);
  const char *m = div_dims(A, B, C);
  if (m) return m;
  for (int32_t i = 0, ja = 0, jc = 0; i < A->nin; ja += A->in[i].log2, i++) {
    int32_t q = lytG_in_index(B, A->in[i].name);
    int32_t nc = C->in[i].log2, ob = q >= 0 ? lytG_in_offset(B, q) : 0;
    for (int32_t t = 0; t < nc; t++, jc++)
      if (!right_part(A, C, A->col[ja + t], &C->col[jc]))
        return "a leading basis of A does not fit C's out size (Triton aborts here)";
    for (int32_t t = nc; t < A->in[i].log2; t++)
      if (!right_tail_ok(A, B, C, A->col[ja + t], B->col[ob + t - nc]))
        return "A's trailing bases are not the divisor's scaled by C's out size";
  }
  return div_finish(cx, A, B, C, 0, out);
}

typedef const char *(*divfn)(lytS_ctx *, const lytG_ll *, const lytG_ll *, lytG_ll **);

static lytG_ll *divide(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B, divfn f,
                       const char *what, int fail) {
  lytG_ll *C = NULL;
  const char *m = f(cx, A, B, &C);
  if (!m) return C;
  if (fail)
    lytS_fail(cx, LYT_ERRRUN, "%s: no C with %s: %s", what,
              f == divide_left_msg ? "A = B * C" : "A = C * B", m);
  snprintf(cx->msg, sizeof cx->msg, "%s: %s", what, m);
  return NULL;
}

lytG_ll *lytG_divide_left(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  return divide(cx, A, B, divide_left_msg, "divide_left", 1);
}

lytG_ll *lytG_divide_right(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  return divide(cx, A, B, divide_right_msg, "divide_right", 1);
}

lytG_ll *lytG_try_divide_left(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  return divide(cx, A, B, divide_left_msg, "divide_left", 0);
}

lytG_ll *lytG_try_divide_right(lytS_ctx *cx, const lytG_ll *A, const lytG_ll *B) {
  return divide(cx, A, B, divide_right_msg, "divide_right", 0);
}

/* ------------------------------------------------------------------ */
/* triviality and quotient                                             */
/* ------------------------------------------------------------------ */

static int listed(int32_t n, const char *const *names, const char *name) {
  for (int32_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* Mask of the output fields of the out-dims listed (or not listed). */
static uint64_t out_mask(const lytG_ll *L, int32_t n, const char *const *names, int in_list) {
  uint64_t m = 0;
  for (int32_t k = 0, off = 0; k < L->nout; off += L->out[k].log2, k++)
    if (listed(n, names, L->out[k].name) == in_list) m |= lytG_mask(L->out[k].log2) << off;
  return m;
}

static void check_subset(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *names,
                         int in, const char *what) {
  for (int32_t i = 0; i < n; i++)
    if ((in ? lytG_in_index(L, names[i]) : lytG_out_index(L, names[i])) < 0)
      lytS_fail(cx, LYT_ERRRUN, "%s: dimensions must be a subset, ignoring order, but they "
                "aren't: %s and %s", what, lytG_names_str(cx, n, names),
                in ? lytG_in_names(cx, L) : lytG_out_names(cx, L));
}

int lytG_sublayout_is_zero(lytS_ctx *cx, const lytG_ll *L, int32_t nins,
                           const char *const *ins, int32_t nouts, const char *const *outs) {
  check_subset(cx, L, nins, ins, 1, "sublayout_is_zero");
  check_subset(cx, L, nouts, outs, 0, "sublayout_is_zero");
  uint64_t m = out_mask(L, nouts, outs, 1);
  for (int32_t i = 0, j = 0; i < L->nin; j += L->in[i].log2, i++)
    if (listed(nins, ins, L->in[i].name))
      for (int32_t t = 0; t < L->in[i].log2; t++)
        if (L->col[j + t] & m) return 0;
  return 1;
}

/* squareSublayoutIsIdentity: the flattened square sublayout over dims has
** bases 1, 2, 4, ... */
static int square_identity(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims) {
  if (n == 0) return 1;
  check_subset(cx, L, n, dims, 1, "is_trivial_over");
  check_subset(cx, L, n, dims, 0, "is_trivial_over");
  for (int32_t d = 0; d < n; d++)
    if (L->in[lytG_in_index(L, dims[d])].log2 != L->out[lytG_out_index(L, dims[d])].log2)
      return 0;
  int32_t bit = 0;
  for (int32_t i = 0, j = 0; i < L->nin; j += L->in[i].log2, i++) {
    if (!listed(n, dims, L->in[i].name)) continue;
    for (int32_t t = 0; t < L->in[i].log2; t++, bit++) {
      uint64_t w = 0;  /* the column compacted to the listed out-dims */
      for (int32_t k = 0, off = 0; k < L->nout; k++)
        if (listed(n, dims, L->out[k].name)) {
          w |= lytG_field(L, L->col[j + t], k) << off;
          off += L->out[k].log2;
        }
      if (w != (uint64_t)1 << bit) return 0;
    }
  }
  return 1;
}

int lytG_is_trivial_over(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims) {
  for (int32_t d = 0; d < n; d++)
    if (lytG_in_index(L, dims[d]) < 0 && lytG_out_index(L, dims[d]) < 0) return 0;
  if (!square_identity(cx, L, n, dims)) return 0;
  uint64_t mine = out_mask(L, n, dims, 1), rest = out_mask(L, n, dims, 0);
  for (int32_t i = 0, j = 0; i < L->nin; j += L->in[i].log2, i++) {
    uint64_t m = listed(n, dims, L->in[i].name) ? rest : mine;
    for (int32_t t = 0; t < L->in[i].log2; t++)
      if (L->col[j + t] & m) return 0;
  }
  return 1;
}

static lytG_ll *quotient(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims,
                         int fail) {
  if (!lytG_is_trivial_over(cx, L, n, dims)) {
    if (fail)
      lytS_fail(cx, LYT_ERRRUN, "quotient: the layout is not trivial over %s (not the "
                "identity there, or mixed with the other dims)", lytG_names_str(cx, n, dims));
    snprintf(cx->msg, sizeof cx->msg, "quotient: the layout is not trivial over the dims");
    return NULL;
  }
  const char *ins[LYT_LL_MAXDIMS], *outs[LYT_LL_MAXDIMS];
  int32_t ni = 0, no = 0;
  for (int32_t i = 0; i < L->nin; i++)
    if (!listed(n, dims, L->in[i].name)) ins[ni++] = L->in[i].name;
  for (int32_t k = 0; k < L->nout; k++)
    if (!listed(n, dims, L->out[k].name)) outs[no++] = L->out[k].name;
  return lytG_sublayout(cx, L, ni, ins, no, outs);
}

lytG_ll *lytG_quotient(lytS_ctx *cx, const lytG_ll *L, int32_t n, const char *const *dims) {
  return quotient(cx, L, n, dims, 1);
}

lytG_ll *lytG_try_quotient(lytS_ctx *cx, const lytG_ll *L, int32_t n,
                           const char *const *dims) {
  return quotient(cx, L, n, dims, 0);
}
