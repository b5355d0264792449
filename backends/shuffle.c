/*
** backends/shuffle.c: a layout conversion within warps as rounds of warp
** shuffles (shfl.sync.idx on NVIDIA, ds_bpermute on AMD).
**
** Both layouts are linear, so the source of every destination register is
** too: the thread t that wants register r of the destination finds its
** element in register r' of lane l' of its own warp, (r', l') a linear
** function of (r, t). A shuffle round hands every thread one value from
** one lane, and every lane sends one value: round j gives thread t its
** register j ^ E(t). With E = 0, two threads whose elements sit in one
** lane but in different registers of it would ask that lane for two
** values in one round. Where the source holds copies of its elements in
** other lanes, such a receiver reads a copy instead; otherwise E adds to a
** receiver's lane bits that would collide register bits whose sources lie
** in other lanes, one at a time, while the sending lanes of a round stay
** distinct (a GF(2) elimination over the lane vectors). What each lane then sends and whom
** each thread reads are affine functions of the thread's bits, found by
** fitting them to the round's table and checked on every thread; a sender
** whose register depends on its lane picks it with predicated moves.
*/
#include <string.h>

#include "backends/kernel.h"

/* Row-reduced GF(2) vectors, each row with its own pivot (lowest set bit)
** and the combination of the given columns that makes it. */
typedef struct rows {
  int32_t n;
  uint64_t v[64], how[64];
} rows;

/* v reduced by the rows; *how gets the columns used. */
static uint64_t reduce(const rows *R, uint64_t v, uint64_t *how) {
  uint64_t h = 0;
  for (int32_t i = 0; i < R->n; i++)
    if (v & (R->v[i] & -R->v[i])) v ^= R->v[i], h ^= R->how[i];
  if (how) *how = h;
  return v;
}

/* Adds v (made by the columns `how`) if it is independent of the rows. */
static int add_row(rows *R, uint64_t v, uint64_t how) {
  uint64_t h;
  v = reduce(R, v, &h);
  if (!v || R->n == 64) return 0;
  R->v[R->n] = v, R->how[R->n++] = how ^ h;
  return 1;
}

int64_t lytK_affine_at(const lytK_affine *f, int32_t tbits, int64_t t) {
  int64_t y = f->c;
  for (int32_t b = 0; b < tbits; b++)
    if (t >> b & 1) y ^= f->n[b];
  return y;
}

/* The affine function through the points (t, y[t]) with y[t] >= 0 (the
** others are free): 0 when the points lie on none. */
static int fit(int32_t tbits, const int64_t *y, lytK_affine *f) {
  int64_t T = INT64_C(1) << tbits, t0 = -1;
  rows R = { 0 };
  memset(f, 0, sizeof *f);
  for (int64_t t = 0; t < T; t++) {
    if (y[t] < 0) continue;
    if (t0 < 0) t0 = t;
    else add_row(&R, (uint64_t)(t ^ t0), (uint64_t)(y[t] ^ y[t0]));  /* checked below */
  }
  if (t0 < 0) return 1;  /* nobody reads: anything goes */
  for (int32_t b = 0; b < tbits; b++) {
    uint64_t h;
    reduce(&R, UINT64_C(1) << b, &h);
    f->n[b] = (int64_t)h;  /* bits outside the points' span contribute 0 */
  }
  f->c = y[t0] ^ lytK_affine_at(f, tbits, t0);  /* f->c is still 0 */
  for (int64_t t = 0; t < T; t++)
    if (y[t] >= 0 && lytK_affine_at(f, tbits, t) != y[t]) return 0;
  return 1;
}

/* The (register | lane << regbits) of `from` holding coordinate x, or -1. */
static int64_t source(const rows *R, uint64_t x) {
  uint64_t how;
  return reduce(R, x, &how) ? -1 : (int64_t)how;
}

lytK_shuffle *lytK_plan_shuffle(lytS_ctx *cx, const lytK_dist *from, const lytK_dist *to) {
  int32_t lb = from->lanebits, tb = lb + from->warpbits, fr = from->regbits;
  if (to->lanebits != lb || to->warpbits != from->warpbits || tb > LYTK_TIDBITS || fr + lb > 62)
    return NULL;
  rows S = { 0 };
  for (int32_t i = 0; i < fr; i++) add_row(&S, lytK_col(from, 0, i), UINT64_C(1) << i);
  for (int32_t b = 0; b < lb; b++) add_row(&S, lytK_col(from, 1, b), UINT64_C(1) << (fr + b));
  /* the source of each destination register bit and thread bit; a warp
  ** bit's source is in the same warp once both warps' offsets cancel */
  int64_t rcol[LYT_LL_MAXBITS], tcol[LYTK_TIDBITS];
  for (int32_t i = 0; i < to->regbits; i++)
    if ((rcol[i] = source(&S, lytK_col(to, 0, i))) < 0) return NULL;
  for (int32_t b = 0; b < tb; b++)
    if ((tcol[b] = source(&S, lytK_col(to, 1, b) ^ (b >= lb ? lytK_col(from, 1, b) : 0))) < 0)
      return NULL;
  lytK_shuffle *P = lytS_alloc(cx, sizeof *P);
  memset(P, 0, sizeof *P);
  P->tbits = tb;
  for (int32_t i = 0; i < to->regbits; i++) P->dup |= rcol[i] ? 0 : INT64_C(1) << i;
  rows U = { 0 };  /* the sending lanes' vectors so far */
  uint64_t spare = 0;  /* lanes of `from` that hold copies: free to read instead */
  for (int32_t b = 0; b < lb; b++) spare |= lytK_col(from, 1, b) ? 0 : UINT64_C(1) << b;
  for (int32_t b = 0; b < lb; b++) {
    uint64_t lane = (uint64_t)tcol[b] >> fr;
    if (!tcol[b] || add_row(&U, lane, 0)) continue;  /* a copy, or a new lane */
    int32_t f = 0;
    while (f < lb && !((spare >> f & 1) && add_row(&U, lane ^ (UINT64_C(1) << f), 0))) f++;
    if (f < lb) {  /* the same element from a lane that holds a copy of it */
      tcol[b] ^= INT64_C(1) << (fr + f);
      continue;
    }
    for (int32_t i = 0; i < to->regbits; i++) {
      uint64_t li = (uint64_t)rcol[i] >> fr;
      if (li && add_row(&U, lane ^ li, 0)) { P->e.n[b] = INT64_C(1) << i; break; }
    }
  }
  int64_t T = INT64_C(1) << tb, L = INT64_C(1) << lb, RB = lytK_regs(to);
  int64_t *send = lytS_alloc(cx, sizeof *send * (size_t)T), *lane = lytS_alloc(cx, sizeof *lane * (size_t)T);
  P->dst = lytS_alloc(cx, sizeof *P->dst * (size_t)RB);
  P->send = lytS_alloc(cx, sizeof *P->send * (size_t)RB);
  P->lane = lytS_alloc(cx, sizeof *P->lane * (size_t)RB);
  for (int64_t j = 0; j < RB; j++) {
    if (j & P->dup) continue;
    for (int64_t t = 0; t < T; t++) send[t] = -1;
    for (int64_t t = 0; t < T; t++) {
      int64_t r = j ^ lytK_affine_at(&P->e, tb, t), how = 0;
      for (int32_t i = 0; i < to->regbits; i++) how ^= (r >> i & 1) ? rcol[i] : 0;
      for (int32_t b = 0; b < tb; b++) how ^= (t >> b & 1) ? tcol[b] : 0;
      int64_t rs = how & ((INT64_C(1) << fr) - 1), ls = how >> fr, s = (t & ~(L - 1)) | ls;
      if (send[s] >= 0 && send[s] != rs) return NULL;  /* one lane, two values */
      send[s] = rs, lane[t] = ls;
    }
    int32_t k = P->rounds;
    if (!fit(tb, send, &P->send[k]) || !fit(tb, lane, &P->lane[k])) return NULL;
    P->dst[P->rounds++] = (int32_t)j;
  }
  return P;
}

int32_t *lytK_plan_registers(lytS_ctx *cx, const lytK_dist *from, const lytK_dist *to) {
  int32_t tb = from->lanebits + from->warpbits;
  if (to->lanebits != from->lanebits || to->warpbits != from->warpbits) return NULL;
  for (int32_t b = 0; b < tb; b++)
    if (lytK_col(from, 1, b) != lytK_col(to, 1, b)) return NULL;
  rows S = { 0 };
  for (int32_t i = 0; i < from->regbits; i++) add_row(&S, lytK_col(from, 0, i), UINT64_C(1) << i);
  int64_t R = lytK_regs(to);
  int32_t *map = lytS_alloc(cx, sizeof *map * (size_t)R);
  for (int64_t r = 0; r < R; r++) {
    uint64_t x = 0;
    for (int32_t i = 0; i < to->regbits; i++) x ^= (r >> i & 1) ? lytK_col(to, 0, i) : 0;
    int64_t s = source(&S, x);
    if (s < 0) return NULL;
    map[r] = (int32_t)s;
  }
  return map;
}
