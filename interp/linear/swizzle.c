/*
** linear/swizzle.c: the scratch layout Triton 3.6 picks when a
** ttg.convert_layout goes through shared memory, and what it costs: the
** instructions each side uses (st.shared / stmatrix / stmatrix.trans,
** ld.shared / ldmatrix / ldmatrix.trans), their vector width and count,
** the rounds the tile is moved in, and the bank conflicts Triton's model
** gives each access. And for local_alloc, local_store, local_load and
** async copies, the access Triton lowers each to (lytG_local_access).
**
** Facts from Triton's GenericSwizzling (optimalSwizzling,
** optimalSwizzlingTile, optimalSwizzlingLdSt, computeSegment, buildReps,
** bankConflicts, bankConflictsMemDesc), getSrcDstTiles, lowerLdSt's
** largestVectorisation and NVIDIA's lowerLdStMatrix; the construction is the linear-layouts
** paper's optimal swizzle. These functions changed between Triton
** releases; the variants here are those whose instruction counts equal
** Triton 3.6's PTX on all 193 conversions of tests/data/ttgir/ (the pair
** search keeping two rounds for ldmatrix/stmatrix pairs, the plain ld/st
** fallback that fills bank 0 from warps, vectors over any registers).
** Everything works on flat layouts: the tensor's
** dims concatenated into one, dim0 least significant, as Triton's
** flattenOuts has them, so each basis is one word. The order of the bases
** in each list matters (Triton breaks ties by it), so lists are kept as
** Triton builds them.
*/
#include <string.h>

#include "interp/linear/linear.h"

typedef struct vecs {
  int32_t n;
  uint64_t v[LYT_LL_MAXBITS];
} vecs;

static void push(vecs *a, uint64_t x) {
  if (a->n < LYT_LL_MAXBITS) a->v[a->n++] = x;
}

static int has(const vecs *a, uint64_t x) {
  for (int32_t i = 0; i < a->n; i++)
    if (a->v[i] == x) return 1;
  return 0;
}

/* lytS_is_pow2 for a flat word, whose top bit an int64 would make negative */
static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* The reduced row echelon form of the span of a (pivot: a row's lowest
** set bit, which no other row has). Unique for the span, so what follows
** from it does not depend on how it was computed. */
static vecs rref(const vecs *a) {
  vecs r = { 0 };
  for (int32_t i = 0; i < a->n; i++) {
    uint64_t x = a->v[i];
    for (int32_t k = 0; k < r.n; k++)
      if (x >> __builtin_ctzll(r.v[k]) & 1) x ^= r.v[k];
    if (!x) continue;
    for (int32_t k = 0; k < r.n; k++)
      if (r.v[k] >> __builtin_ctzll(x) & 1) r.v[k] ^= x;
    push(&r, x);
  }
  return r;
}

static uint64_t pivots(const vecs *r) {
  uint64_t p = 0;
  for (int32_t k = 0; k < r->n; k++) p |= UINT64_C(1) << __builtin_ctzll(r->v[k]);
  return p;
}

/* The vectors orthogonal to all of a within `dim` bits, one per free
** column of a's echelon form, in column order. */
static vecs nullspace(const vecs *a, int32_t dim) {
  vecs r = rref(a), out = { 0 };
  uint64_t piv = pivots(&r);
  for (int32_t c = 0; c < dim; c++) {
    if (piv >> c & 1) continue;
    uint64_t x = UINT64_C(1) << c;
    for (int32_t k = 0; k < r.n; k++)
      if (r.v[k] >> c & 1) x ^= UINT64_C(1) << __builtin_ctzll(r.v[k]);
    push(&out, x);
  }
  return out;
}

/* The unit vectors completing a to the whole space: the non-pivot columns. */
static vecs complement(const vecs *a, int32_t dim) {
  vecs r = rref(a), out = { 0 };
  uint64_t piv = pivots(&r);
  for (int32_t c = 0; c < dim; c++)
    if (!(piv >> c & 1)) push(&out, UINT64_C(1) << c);
  return out;
}

/* A basis of span(a) ∩ span(b). When every vector is a power of two it is
** a's vectors that b also has, in a's order (Triton's choice). */
static vecs intersection(const vecs *a, const vecs *b, int32_t dim) {
  vecs out = { 0 };
  int all = 1;
  for (int32_t i = 0; i < a->n; i++) all &= pow2(a->v[i]);
  for (int32_t i = 0; i < b->n; i++) all &= pow2(b->v[i]);
  if (all) {
    for (int32_t i = 0; i < a->n; i++)
      if (has(b, a->v[i])) push(&out, a->v[i]);
    return out;
  }
  vecs na = nullspace(a, dim), nb = nullspace(b, dim);
  for (int32_t i = 0; i < nb.n; i++) push(&na, nb.v[i]);
  return nullspace(&na, dim);
}

/* ------------------------------------------------------------------ */
/* the two layouts, flat                                               */
/* ------------------------------------------------------------------ */

typedef struct flat {
  vecs reg, lane, warp;   /* broadcast registers dropped, lanes and warps as they are */
  const lytG_ll *ll;      /* register, lane, warp -> one flat dim */
} flat;

static vecs dim_cols(const lytG_ll *L, const char *name, int nonzero) {
  vecs a = { 0 };
  int32_t i = lytG_in_index(L, name);
  for (int32_t t = 0; i >= 0 && t < L->in[i].log2; t++) {
    uint64_t w = L->col[lytG_in_offset(L, i) + t];
    if (w || !nonzero) push(&a, w);
  }
  return a;
}

static flat flatten(lytS_ctx *cx, const lytG_ll *L) {
  flat f = { dim_cols(L, "register", 1), dim_cols(L, "lane", 0), dim_cols(L, "warp", 0), NULL };
  lytG_dim in[3] = { { "register", f.reg.n }, { "lane", f.lane.n }, { "warp", f.warp.n } };
  lytG_dim out = { "flat", L->outbits };
  uint64_t col[LYT_LL_MAXBITS];
  int32_t k = 0;
  const vecs *d[3] = { &f.reg, &f.lane, &f.warp };
  for (int j = 0; j < 3; j++)
    for (int32_t t = 0; t < d[j]->n; t++) col[k++] = d[j]->v[t];
  f.ll = lytG_make(cx, 3, in, 1, &out, col, 0);
  return f;
}

/* ------------------------------------------------------------------ */
/* the swizzle for given vector and tile bases                         */
/* ------------------------------------------------------------------ */

/* The segment bases: first unit vectors neither side's bank tile uses;
** then, pairing the bases only one side uses, their XORs (conflict-free
** for both); then, where the XORs run short, bases that conflict. */
static vecs segment_of(const vecs *bsrc, const vecs *bdst, int32_t dim, int32_t len) {
  vecs seg = { 0 }, A = { 0 }, B = { 0 };
  for (int32_t b = 0; b < dim; b++) {
    uint64_t u = UINT64_C(1) << b;
    if (!has(bsrc, u) && !has(bdst, u)) push(&seg, u);
  }
  if (seg.n >= len) {
    seg.n = len;
    return seg;
  }
  for (int32_t i = 0; i < bsrc->n; i++)
    if (bsrc->v[i] && !has(bdst, bsrc->v[i]) && !has(&A, bsrc->v[i])) push(&A, bsrc->v[i]);
  for (int32_t i = 0; i < bdst->n; i++)
    if (bdst->v[i] && !has(bsrc, bdst->v[i]) && !has(&B, bdst->v[i])) push(&B, bdst->v[i]);
  if (A.n > B.n) {
    vecs t = A;
    A = B;
    B = t;
  }
  vecs *s[2] = { &A, &B };
  for (int j = 0; j < 2; j++)  /* ascending, as Triton sorts them */
    for (int32_t i = 1; i < s[j]->n; i++)
      for (int32_t k = i; k > 0 && s[j]->v[k - 1] > s[j]->v[k]; k--) {
        uint64_t t = s[j]->v[k];
        s[j]->v[k] = s[j]->v[k - 1];
        s[j]->v[k - 1] = t;
      }
  int32_t bad = len - A.n - seg.n;
  bad = bad < 0 ? 0 : bad > A.n ? A.n : bad;
  for (int32_t i = bad; i < A.n; i++) push(&seg, A.v[i] ^ B.v[i]);
  for (int32_t i = 0; i < bad; i++) push(&seg, A.v[i]);
  for (int32_t i = 0; i < bad; i++) push(&seg, B.v[i]);
  if (seg.n > len) seg.n = len;
  return seg;
}

typedef struct scratch {
  vecs vec, bank, seg, reps;
} scratch;

/* Triton's optimalSwizzling for fixed vector bases and bank tiles; then
** the segment bases both sides hold in registers become rounds (reps),
** but for the first `leave`, which ldmatrix/stmatrix pairs keep to reach
** .x4. */
static scratch swizzle(const flat *s, const flat *d, int32_t dim, int32_t bits, const vecs *vb,
                       const vecs *ts, const vecs *td, int32_t leave) {
  vecs bs = *vb, bd = *vb;
  for (int32_t i = 0; i < ts->n; i++) push(&bs, ts->v[i]);
  for (int32_t i = 0; i < td->n; i++) push(&bd, td->v[i]);
  int64_t per = (INT64_C(1) << vb->n) * bits;
  int32_t lenb = per >= 1024 ? 0 : lytS_ceil_log2(1024 / per);
  if (lenb > dim - vb->n) lenb = dim - vb->n;
  scratch m = { *vb, { 0 }, segment_of(&bs, &bd, dim, dim - lenb - vb->n), { 0 } };
  vecs u = *vb;
  for (int32_t i = 0; i < m.seg.n; i++) push(&u, m.seg.v[i]);
  m.bank = complement(&u, dim);
  vecs seg = m.seg;
  m.seg.n = 0;
  for (int32_t i = 0; i < seg.n; i++) {
    int rep = has(&s->reg, seg.v[i]) && has(&d->reg, seg.v[i]) && leave-- <= 0;
    push(rep ? &m.reps : &m.seg, seg.v[i]);
  }
  return m;
}

/* Triton's model of a side's bank conflicts: the log2 of the ways, the
** dimension its bank tile shares with the segment (bases that move an
** access to another row of the same banks). */
static int32_t log_conflicts(const scratch *m, const vecs *tile, int32_t dim) {
  return intersection(&m->seg, tile, dim).n;
}

/* ------------------------------------------------------------------ */
/* plain ld/st, when no instruction pair reaches 128 bits              */
/* ------------------------------------------------------------------ */

static vecs minus(const vecs *a, const vecs *b) {
  vecs r = { 0 };
  for (int32_t i = 0; i < a->n; i++)
    if (!has(b, a->v[i])) push(&r, a->v[i]);
  return r;
}

static vecs nonzero(const vecs *a) {
  vecs r = { 0 };
  for (int32_t i = 0; i < a->n; i++)
    if (a->v[i]) push(&r, a->v[i]);
  return r;
}

static uint64_t least(const vecs *a) {
  uint64_t m = a->v[0];
  for (int32_t i = 1; i < a->n; i++) m = a->v[i] < m ? a->v[i] : m;
  return m;
}

/* Triton's optimalSwizzlingLdSt: vector bases both sides hold in
** registers; below 32 bits, filled from registers one side holds where
** the other has warps (that side vectorises), then from warps; the bank
** bases in the vectorising side's registers then go first, so its
** accesses widen. */
static scratch ldst_swizzle(const flat *s, const flat *d, int32_t dim, int32_t bits, vecs *ts,
                         vecs *td) {
  vecs vb = intersection(&s->reg, &d->reg, dim);
  int32_t most = lytS_ceil_log2(128 / bits);
  if (vb.n > most) vb.n = most;
  int fills = -1;  /* which side filled bank 0: 1 src, 0 dst, -1 none */
  if ((INT64_C(1) << vb.n) * bits < 32) {
    int32_t per_bank = lytS_ceil_log2(32 / bits);
    vecs ws = nonzero(&s->warp), wd = nonzero(&d->warp);
    vecs rs = minus(&s->reg, &vb), rd = minus(&d->reg, &vb);
    vecs sw = intersection(&rs, &wd, dim), dw = intersection(&rd, &ws, dim);
    if (sw.n == dw.n && sw.n > 0) fills = least(&sw) < least(&dw);
    else fills = sw.n > dw.n;
    const vecs *big = fills ? &sw : &dw;
    for (int32_t i = 0; i < big->n; i++) push(&vb, big->v[i]);
    if (vb.n < per_bank) {
      vecs both = intersection(&ws, &wd, dim);
      for (int32_t i = 0; i < both.n; i++) push(&vb, both.v[i]);
    }
    for (int32_t i = 0; vb.n < per_bank && (i < ws.n || i < wd.n); i++) {
      if (i < ws.n && !has(&vb, ws.v[i])) push(&vb, ws.v[i]);
      if (vb.n < per_bank && i < wd.n && !has(&vb, wd.v[i])) push(&vb, wd.v[i]);
    }
    if (vb.n > per_bank) vb.n = per_bank;
  }
  int64_t w = (INT64_C(1) << vb.n) * bits / 32;
  int32_t lv = w > 1 ? lytS_ceil_log2(w) : 0;
  *ts = s->lane;
  *td = d->lane;
  ts->n = ts->n > lv ? ts->n - lv : 0;
  td->n = td->n > lv ? td->n - lv : 0;
  scratch m = swizzle(s, d, dim, bits, &vb, ts, td, 0);
  if (lv < 2) {
    vecs in_s = { 0 }, in_d = { 0 }, order;
    for (int32_t i = 0; i < m.bank.n; i++) {
      if (has(&s->reg, m.bank.v[i])) push(&in_s, m.bank.v[i]);
      if (has(&d->reg, m.bank.v[i])) push(&in_d, m.bank.v[i]);
    }
    order = fills == 1 ? in_s : fills == 0 ? in_d : in_s.n > in_d.n ? in_s : in_d;
    for (int32_t i = 0; i < m.bank.n; i++)
      if (!has(&order, m.bank.v[i])) push(&order, m.bank.v[i]);
    m.bank = order;
  }
  return m;
}

/* ------------------------------------------------------------------ */
/* instruction pairs                                                   */
/* ------------------------------------------------------------------ */

/* An instruction's tile: the lanes whose bases must be contiguous in
** memory (after its registers), and the lanes that give addresses. */
typedef struct instr {
  int32_t ncontig, contig[3];
  int32_t naddr, addr[3];
} instr;

static const instr LDST = { 0, { 0 }, 3, { 0, 1, 2 } };
static const instr MATRIX = { 2, { 0, 1 }, 3, { 2, 3, 4 } };
static const instr MATRIX_T = { 3, { 2, 3, 4 }, 2, { 0, 1 } };

/* Triton's optimalSwizzlingTile: vector bases that serve both sides' 128-bit
** accesses (nra / nrb registers, then the contiguous lanes), or none. */
static int pair_tile(lytS_ctx *cx, const flat *a, const flat *b, int32_t nra, int32_t nrb,
                     const instr *ia, const instr *ib, int32_t dim, vecs *out) {
  if (nra < nrb) return pair_tile(cx, b, a, nrb, nra, ib, ia, dim, out);
  vecs vb = intersection(&a->reg, &b->reg, dim);
  if (vb.n < nrb) return 0;
  vb.n = nrb;
  for (int32_t i = 0; i < ia->ncontig; i++)
    if (ia->contig[i] >= a->lane.n || !a->lane.v[ia->contig[i]]) return 0;
  for (int32_t i = 0; i < ib->ncontig; i++)
    if (ib->contig[i] >= b->lane.n || !b->lane.v[ib->contig[i]]) return 0;
  /* b's hardware -> a's: where a's copy of each of b's lane bases is */
  const lytG_ll *cvt = lytG_invert_and_compose(cx, b->ll, a->ll);
  int32_t lane = lytG_in_index(cvt, "lane"), oreg = lytG_out_index(cvt, "register"),
          olane = lytG_out_index(cvt, "lane");
  for (int32_t i = 0; i < nra - nrb; i++)
    if (oreg < 0 || !lytG_basis(cvt, lane, ib->contig[i], oreg)) return 0;
  for (int32_t i = 0; i < ia->ncontig; i++) {
    int32_t ib_i = ib->contig[ib->ncontig - ia->ncontig + i];
    if (olane < 0 || lytG_basis(cvt, lane, ib_i, olane) != INT64_C(1) << ia->contig[i]) return 0;
  }
  for (int32_t i = 0; i < ib->ncontig; i++) push(&vb, b->lane.v[ib->contig[i]]);
  *out = vb;
  return 1;
}

/* The bank tile of an instruction: registers to fill it (the first not in
** vb), then its address lanes; 0 if registers run out. */
static int side_tile(const instr *in, const flat *f, const vecs *vb, vecs *out) {
  vecs t = { 0 };
  int32_t need = 3 - in->naddr;
  for (int32_t i = 0; i < f->reg.n && need > 0; i++)
    if (!has(vb, f->reg.v[i])) {
      push(&t, f->reg.v[i]);
      need--;
    }
  if (need > 0) return 0;
  for (int32_t i = 0; i < in->naddr; i++) {
    if (in->addr[i] >= f->lane.n) return 0;
    push(&t, f->lane.v[in->addr[i]]);
  }
  *out = t;
  return 1;
}

/* ------------------------------------------------------------------ */
/* what each side's lowering emits                                     */
/* ------------------------------------------------------------------ */

/* Elements per plain ld/st: the largest 2^k, at most `most`, such that k
** registers sit at offsets 1, 2, ..., 2^(k-1) (with `perm`, any k of
** them, as Triton permutes registers; else the first k, in order) and no
** lane or warp touches those offset bits (largestVectorisation). Another
** register may: XORing it with the vector's registers clears them, a
** renumbering of registers the lowering folds into its value order. */
static int32_t ldst_vector(const vecs *reg_off, const vecs *others, int32_t most, int perm) {
  for (int32_t v = most; v > 1; v /= 2) {
    int32_t k = lytS_ceil_log2(v), ok = 1;
    uint64_t low = (UINT64_C(1) << k) - 1;
    for (int32_t j = 0; j < k && ok; j++)
      ok = perm ? has(reg_off, UINT64_C(1) << j)
                : j < reg_off->n && reg_off->v[j] == UINT64_C(1) << j;
    for (int32_t i = 0; i < others->n && ok; i++) ok = !(others->v[i] & low);
    if (ok) return v;
  }
  return 1;
}

/* The smem offset (vector, bank, segment bits) and round of each of a
** side's register, lane and warp bases. */
static void side_plan(lytS_ctx *cx, const scratch *m, const flat *f, int32_t bits,
                      lytG_smem_side *out) {
  vecs cols = m->vec;
  for (int32_t i = 0; i < m->bank.n; i++) push(&cols, m->bank.v[i]);
  for (int32_t i = 0; i < m->seg.n; i++) push(&cols, m->seg.v[i]);
  int32_t offbits = cols.n;
  for (int32_t i = 0; i < m->reps.n; i++) push(&cols, m->reps.v[i]);
  lytG_dim in = { "smem", cols.n }, o = { "flat", cols.n };
  const lytG_ll *S = lytG_invert(cx, lytG_make(cx, 1, &in, 1, &o, cols.v, 0));
  vecs reg_off = { 0 }, others = { 0 };
  for (int32_t i = 0; i < f->reg.n; i++) {
    uint64_t x = lytG_apply_flat(S, f->reg.v[i]);
    if (x >> offbits) continue;  /* a round's register */
    push(&reg_off, x);
  }
  for (int32_t i = 0; i < f->lane.n; i++) push(&others, lytG_apply_flat(S, f->lane.v[i]));
  for (int32_t i = 0; i < f->warp.n; i++) push(&others, lytG_apply_flat(S, f->warp.v[i]));
  int64_t regs = INT64_C(1) << f->reg.n, tile = INT64_C(1) << reg_off.n;
  if (out->instr == 0) out->elems = ldst_vector(&reg_off, &others, 128 / bits, 1);
  else out->elems = (int32_t)(128 / bits < tile ? 128 / bits : tile);
  out->matrices = out->instr ? out->elems * bits / 32 : 0;
  out->count = regs / out->elems;
  out->bits = out->elems * bits;
}

static const char *const INSTR[2][3] = { { "st.shared", "stmatrix", "stmatrix.trans" },
                                         { "ld.shared", "ldmatrix", "ldmatrix.trans" } };

static int32_t instr_index(const instr *in) { return in == &LDST ? 0 : in == &MATRIX ? 1 : 2; }

/* Every pair of instructions whose tiles fit both layouts gets its swizzle;
** the fewest conflicts win, then the most rounds (the least scratch), then
** the first pair (Triton's order). No pair: plain ld/st (ldst_swizzle). */
void lytG_cvt_smem(lytS_ctx *cx, const lytG_ll *src, const lytG_ll *dst, int32_t bits,
                   int32_t sm, lytG_smem_plan *out) {
  memset(out, 0, sizeof *out);
  flat s = flatten(cx, src), d = flatten(cx, dst);
  int32_t dim = src->outbits;
  /* ld/st always; ldmatrix from sm_75 and stmatrix from sm_90 for elements
  ** of 32 bits or less, their .trans forms for 16 bits */
  const instr *is[3] = { &LDST }, *id[3] = { &LDST };
  int32_t ns = 1, nd = 1;
  if (bits <= 32 && sm >= 90) is[ns++] = &MATRIX;
  if (bits <= 32 && sm >= 75) id[nd++] = &MATRIX;
  if (bits == 16 && sm >= 90) is[ns++] = &MATRIX_T;
  if (bits == 16 && sm >= 75) id[nd++] = &MATRIX_T;
  int32_t total = lytS_ceil_log2(128 / bits), found = 0, cost = 0;
  scratch m = { { 0 }, { 0 }, { 0 }, { 0 } };
  vecs ts = { 0 }, td = { 0 };
  for (int32_t i = 0; i < ns; i++)
    for (int32_t j = 0; j < nd; j++) {
      vecs vb, ps, pd;
      if (!pair_tile(cx, &s, &d, total - is[i]->ncontig, total - id[j]->ncontig, is[i], id[j], dim,
                     &vb) ||
          !side_tile(is[i], &s, &vb, &ps) || !side_tile(id[j], &d, &vb, &pd))
        continue;
      int32_t ms = is[i]->ncontig + is[i]->naddr - 3, md = id[j]->ncontig + id[j]->naddr - 3;
      scratch c = swizzle(&s, &d, dim, bits, &vb, &ps, &pd, ms < md ? ms : md);
      int32_t k = log_conflicts(&c, &pd, dim) + log_conflicts(&c, &ps, dim);
      if (found && (k > cost || (k == cost && c.reps.n <= m.reps.n))) continue;
      found = 1;
      cost = k;
      m = c;
      ts = ps;
      td = pd;
      out->st.instr = instr_index(is[i]);
      out->ld.instr = instr_index(id[j]);
    }
  if (!found) {
    m = ldst_swizzle(&s, &d, dim, bits, &ts, &td);
  }
  out->st.conflicts = (1 << log_conflicts(&m, &ts, dim)) - 1;
  out->ld.conflicts = (1 << log_conflicts(&m, &td, dim)) - 1;
  side_plan(cx, &m, &s, bits, &out->st);
  side_plan(cx, &m, &d, bits, &out->ld);
  out->st.name = INSTR[0][out->st.instr];
  out->ld.name = INSTR[1][out->ld.instr];
  out->reps = m.reps.n;
  out->scratch = INT64_C(1) << (dim - m.reps.n);
  out->nvec = m.vec.n;
  out->nbank = m.bank.n;
  out->nseg = m.seg.n;
  const vecs *parts[4] = { &m.vec, &m.bank, &m.seg, &m.reps };
  for (int p = 0; p < 4; p++)
    for (int32_t k = 0; k < parts[p]->n; k++) out->bases[out->nbases++] = parts[p]->v[k];
}

/* ------------------------------------------------------------------ */
/* local_alloc, local_store, local_load, async copies                  */
/* ------------------------------------------------------------------ */

/* Triton's lowerLdStMatrix on the map registers, lanes, warps -> offset:
** ldmatrix/stmatrix need 32 bits of registers at the first offsets and
** lanes 0 and 1 right after them; their .trans forms (16-bit elements)
** lanes 2, 3 and 4 at offsets 1, 2 and 4, and two registers. No other
** lane or warp may touch those offsets, nor another register the lanes'
** (it may the tile registers': renumbering clears them, as in
** ldst_vector). */
static int matrix_fits(const vecs *reg_off, const vecs *lane_off, const vecs *warp_off,
                       int32_t bits, int trans) {
  vecs others = *warp_off;
  int32_t k;
  if (!trans) {
    int32_t c = 32 / bits;
    k = lytS_ceil_log2(c);
    if (lane_off->n < 2 || lane_off->v[0] != (uint64_t)c || lane_off->v[1] != (uint64_t)(2 * c))
      return 0;
    for (int32_t j = 0; j < k; j++)
      if (!has(reg_off, UINT64_C(1) << j)) return 0;
    for (int32_t i = 2; i < lane_off->n; i++) push(&others, lane_off->v[i]);
    k += 2;
  } else {
    if (reg_off->n < 1 || lane_off->n < 5) return 0;
    for (int32_t j = 0; j < 3; j++)
      if (lane_off->v[2 + j] != UINT64_C(1) << j) return 0;
    for (int32_t i = 0; i < 2; i++) push(&others, lane_off->v[i]);
    k = 3;
  }
  uint64_t low = (UINT64_C(1) << k) - 1, regs = trans ? 0 : (UINT64_C(1) << (k - 2)) - 1;
  for (int32_t i = 0; i < reg_off->n; i++)
    if (reg_off->v[i] & low & ~regs) return 0;
  for (int32_t i = 0; i < others.n; i++)
    if (others.v[i] & low) return 0;
  return 1;
}

void lytG_local_access(lytS_ctx *cx, const lytG_ll *reg, const lytG_ll *smem, int32_t bits,
                       int32_t sm, int32_t kind, int32_t maxvec, lytG_smem_side *out) {
  static const char *const PLAIN[3] = { "st.shared", "ld.shared", "cp.async" };
  static const char *const MAT[2][2] = { { "stmatrix", "stmatrix.trans" },
                                         { "ldmatrix", "ldmatrix.trans" } };
  memset(out, 0, sizeof *out);
  flat f = flatten(cx, reg);
  /* element -> offset: the shared layout inverted, its block dropped */
  const lytG_ll *inv = lytG_invert(cx, smem);
  int32_t o = lytG_out_index(inv, "offset");
  uint64_t mask = o < 0 ? 0 : ((UINT64_C(1) << inv->out[o].log2) - 1) << lytG_out_offset(inv, o);
  int32_t shift = o < 0 ? 0 : lytG_out_offset(inv, o);
  vecs ro = { 0 }, lo = { 0 }, wo = { 0 };
  const vecs *from[3] = { &f.reg, &f.lane, &f.warp };
  vecs *to[3] = { &ro, &lo, &wo };
  for (int j = 0; j < 3; j++)
    for (int32_t i = 0; i < from[j]->n; i++)
      push(to[j], (lytG_apply_flat(inv, from[j]->v[i]) & mask) >> shift);
  int64_t regs = INT64_C(1) << f.reg.n;
  /* stmatrix from sm_90, ldmatrix from sm_75; not for async copies or a
  ** padded buffer (maxvec set) */
  int mat = kind == 2 || maxvec > 0 ? 0 : kind == 0 ? sm >= 90 : sm >= 75;
  for (int t = 0; mat && t < 2; t++)
    if ((t ? bits == 16 : bits <= 32) && matrix_fits(&ro, &lo, &wo, bits, t)) {
      out->instr = 1 + t;
      out->name = MAT[kind][t];
      out->elems = (int32_t)(128 / bits < regs ? 128 / bits : regs);
      out->matrices = out->elems * bits / 32;
      out->count = regs / out->elems;
      out->bits = out->elems * bits;
      out->conflicts = -1;
      return;
    }
  vecs others = lo;
  for (int32_t i = 0; i < wo.n; i++) push(&others, wo.v[i]);
  int32_t most = 128 / bits;
  if (maxvec > 0 && maxvec < most) most = maxvec;
  out->name = PLAIN[kind];
  out->elems = ldst_vector(&ro, &others, most, maxvec <= 0);
  out->count = regs / out->elems;
  out->bits = out->elems * bits;
  out->conflicts = -1;
  if (kind != 2 && maxvec > 0) return;  /* padding moves rows across banks: no model */
  /* Triton's model (bankConflictsMemDesc): the lanes of one phase against
  ** the offset bits above a bank row, both as elements */
  int64_t row = (INT64_C(1) << 10) / bits;  /* elements in 32 banks x 4 bytes */
  vecs seg = { 0 }, tile = f.lane;
  int32_t nsmem = lytG_in_index(smem, "offset");
  int32_t nbits = nsmem < 0 ? 0 : smem->in[nsmem].log2;
  for (int32_t t = 0; t < nbits; t++)
    if ((INT64_C(1) << t) >= row) push(&seg, smem->col[lytG_in_offset(smem, nsmem) + t]);
  int64_t w = (int64_t)out->bits / 32;
  int32_t drop = w > 1 ? lytS_ceil_log2(w) : 0;
  tile.n = tile.n > drop ? tile.n - drop : 0;
  out->conflicts = (1 << intersection(&seg, &tile, smem->outbits).n) - 1;
}
