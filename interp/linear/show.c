/*
** linear/show.c: `show L` for a linear layout, Triton 3.6's pictures.
**
** The text is exactly that of Triton's Python LinearLayout methods
** get_distributed_view(False) and get_shared_view(False) (checked byte
** for byte against triton 3.6.0, tests/gen/triton/gen_views.py). Which
** one is chosen by the in-dims:
**
**   distributed: in-dims among register, lane, warp, block. The tensor is
**     drawn row-major (the last out-dim fastest) as nested [ ] rows; each
**     cell lists the slots holding that element, in the order block,
**     warp, lane, register (register fastest), joined by "|". A slot is
**     "B<b>:" (only when there are several blocks) then "T<t>:<r>", with
**     t = lane + warp * lanes, preceded by as many spaces as the digits
**     of b, t and r fall short of the digits of the block count, the
**     thread count (warps * lanes) and the register count. Cells are
**     separated by ", "; an element no slot holds is an empty cell.
**   shared: in-dims offset and block. For each block b and offset o below
**     tensor size / blocks, in that order, the n-th such pair is drawn in
**     the n-th cell of the tensor's grid as "(c0:c1:...)", the
**     coordinates it maps to, each left-padded with spaces to the digits
**     of its dim's size. Cells are separated by ",". (So the picture is
**     the memory, laid out in the tensor's shape.)
**
** The grid: cell i (row-major) opens one "[" per trailing zero
** coordinate of i, a line starts with (rank - opened) spaces, and after
** the cell one "]" per trailing zero coordinate of i+1 (all at the end);
** a line ends when the last coordinate of i+1 is zero.
**
** The other form (Triton's `True` argument, the hardware's point of view)
** is lytI_linear_view(.., hw = 1):
**   distributed: "Block<b>:" (several blocks only), then per warp
**     "Warp<w>:" and one line per register, the lanes' coordinates
**     "(c0,c1)" padded as above, separated by ", ";
**   shared: per block "Block: <b>:", then "Offset: <o> -> (c0,c1)".
**
** Triton aborts when one of the four (or two) in-dims is missing; lyt
** treats a missing dim as size 1, which draws what Triton draws once the
** dim is added with no bases. Any other in-dim is an error, and so is a
** picture of more than LYT_SHOW_MAX_CELLS elements or slots.
*/
#include <string.h>

#include "interp/linear/values.h"

#define LYT_SHOW_MAX_CELLS (1 << 16)  /* the limit of the CuTe table (picture/show.c) */

enum { D_REG, D_LANE, D_WARP, D_BLOCK, D_OFFSET, D_N };
static const char *const dim_names[D_N] = { "register", "lane", "warp", "block", "offset" };

typedef struct view {
  const lytG_ll *ll;
  int shared;
  int32_t bit[D_N];     /* first flat input bit of each dim (absent: unused) */
  int64_t size[D_N];    /* each dim's size, 1 when absent */
  int64_t total;        /* tensor size: product of the out sizes */
} view;

static int ndigits(int64_t x) {
  int d = 1;
  while (x >= 10) { x /= 10; d++; }
  return d;
}

static void spaces(lytS_buf *b, int n) {
  for (; n > 0; n--) lytS_buf_add(b, " ", 1);
}

/* The flat input bits of value x of a dim; as in Triton's apply, bits of x
** at or above the dim's size are ignored (the shared picture enumerates
** tensor-size offsets whatever the offset dim's size). */
static uint64_t flat_in(const view *v, int dim, int64_t x) {
  return (uint64_t)(x & (v->size[dim] - 1)) << v->bit[dim];
}

/* Coordinates of the flat output word w, padded to their dims' sizes. */
static void coords(lytS_buf *b, const view *v, uint64_t w, const char *sep) {
  const lytG_ll *ll = v->ll;
  lytS_buf_add(b, "(", 1);
  for (int32_t k = 0; k < ll->nout; k++) {
    int64_t c = (int64_t)lytG_field(ll, w, k);
    if (k > 0) lytS_buf_puts(b, sep);
    spaces(b, ndigits(lytG_out_size(ll, k)) - ndigits(c));
    lytS_buf_int(b, c);
  }
  lytS_buf_add(b, ")", 1);
}

/* The row-major cell index of the flat output word w. */
static int64_t cell_of(const view *v, uint64_t w) {
  const lytG_ll *ll = v->ll;
  int64_t lin = 0;
  for (int32_t k = 0; k < ll->nout; k++)
    lin = lin * lytG_out_size(ll, k) + (int64_t)lytG_field(ll, w, k);
  return lin;
}

static void classify(lyt_state *L, view *v, const lytG_ll *ll, lyt_loc at) {
  memset(v, 0, sizeof *v);
  v->ll = ll;
  int seen[D_N] = { 0 };
  int bad = ll->nin == 0;
  for (int32_t i = 0; i < ll->nin; i++) {
    int d = 0;
    while (d < D_N && strcmp(ll->in[i].name, dim_names[d]) != 0) d++;
    if (d == D_N) { bad = 1; break; }
    seen[d] = 1;
    v->bit[d] = lytG_in_offset(ll, i);
  }
  v->shared = seen[D_OFFSET];
  if (v->shared && (seen[D_REG] || seen[D_LANE] || seen[D_WARP])) bad = 1;
  if (bad)
    lytI_error(L, at, LYT_ERRRUN,
               "show: a linear layout is drawn from the in-dims register, lane, warp, block "
               "(distributed) or offset, block (shared), as Triton's views, not %s%s",
               lytG_in_names(&L->cx, ll), lytG_in_index(ll, "partition") >= 0
               ? " (picture() draws a partitioned shared layout)" : "");
  if (ll->nout == 0)
    lytI_error(L, at, LYT_ERRRUN, "show: the linear layout has no out-dims to draw");
  int32_t slotbits = 0;
  for (int d = 0; d < D_N; d++) {
    int32_t i = seen[d] ? lytG_in_index(ll, dim_names[d]) : -1;
    v->size[d] = 1;
    if (i >= 0) {
      v->size[d] = lytG_in_size(ll, i);
      slotbits += ll->in[i].log2;
    }
  }
  /* distributed: one slot per (block, warp, lane, register); shared: one per cell */
  if (ll->outbits > 16)
    lytI_error(L, at, LYT_ERRLIMIT,
               "show: a tensor of 2^%d elements (out-dims %s) is too large to draw (limit %d)",
               (int)ll->outbits, lytG_out_names(&L->cx, ll), LYT_SHOW_MAX_CELLS);
  if (!v->shared && slotbits > 16)
    lytI_error(L, at, LYT_ERRLIMIT,
               "show: 2^%d (block, warp, lane, register) slots (in-dims %s) are too many to "
               "draw (limit %d)", (int)slotbits, lytG_in_names(&L->cx, ll), LYT_SHOW_MAX_CELLS);
  v->total = (int64_t)1 << ll->outbits;
}

/* How many of i's row-major coordinates are zero, from the last one up
** (i = total wraps to all zeros, as Triton's delinearization does). */
static int trailing_zeros(const int64_t *sz, int32_t rank, int64_t i) {
  int n = 0;
  for (int32_t j = rank - 1; j >= 0 && i % sz[j] == 0; j--) {
    i /= sz[j];
    n++;
  }
  return n;
}

/* The grid of cells; cell(i) appends cell i's text. */
static void grid(lytS_buf *b, const view *v, const char *sep,
                 void (*cell)(lytS_buf *, const view *, int64_t, const void *), const void *ud) {
  const lytG_ll *ll = v->ll;
  int32_t rank = ll->nout;
  int64_t sz[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < rank; k++) sz[k] = lytG_out_size(ll, k);
  int newline = 1;
  for (int64_t i = 0; i < v->total; i++) {
    int open = trailing_zeros(sz, rank, i);
    for (int k = 0; k < open; k++) lytS_buf_add(b, "[", 1);
    if (newline) { spaces(b, rank - open); newline = 0; }
    cell(b, v, i, ud);
    int close = trailing_zeros(sz, rank, i + 1);
    for (int k = 0; k < close; k++) lytS_buf_add(b, "]", 1);
    if ((i + 1) % sz[rank - 1] == 0) { lytS_buf_add(b, "\n", 1); newline = 1; }
    else lytS_buf_puts(b, sep);
  }
}

/* ---------------------------------------------------------------------
** distributed
** ------------------------------------------------------------------- */

typedef struct dist {
  int64_t *first;  /* first[c] .. first[c+1]: this cell's slots in `slot` */
  int64_t *slot;   /* slot numbers, in enumeration order within a cell */
} dist;

static uint64_t slot_out(const view *v, int64_t s) {
  int64_t r = s % v->size[D_REG], t = s / v->size[D_REG] % v->size[D_LANE];
  int64_t w = s / (v->size[D_REG] * v->size[D_LANE]) % v->size[D_WARP];
  int64_t bl = s / (v->size[D_REG] * v->size[D_LANE] * v->size[D_WARP]);
  uint64_t x = flat_in(v, D_REG, r) | flat_in(v, D_LANE, t) | flat_in(v, D_WARP, w) |
               flat_in(v, D_BLOCK, bl);
  return lytG_apply_flat(v->ll, x);
}

static void dist_cell(lytS_buf *b, const view *v, int64_t c, const void *ud) {
  const dist *d = ud;
  int64_t nreg = v->size[D_REG], nlane = v->size[D_LANE], nwarp = v->size[D_WARP];
  int64_t nblock = v->size[D_BLOCK];
  for (int64_t k = d->first[c]; k < d->first[c + 1]; k++) {
    int64_t s = d->slot[k];
    int64_t r = s % nreg, t = s / nreg % (nlane * nwarp), bl = s / (nreg * nlane * nwarp);
    if (k > d->first[c]) lytS_buf_add(b, "|", 1);
    spaces(b, (ndigits(nblock) - ndigits(bl)) + (ndigits(nwarp * nlane) - ndigits(t)) +
                  (ndigits(nreg) - ndigits(r)));
    if (nblock > 1) lytS_buf_printf(b, "B%lld:", (long long)bl);
    lytS_buf_printf(b, "T%lld:%lld", (long long)t, (long long)r);
  }
}

static void distributed(lyt_state *L, lytS_buf *b, const view *v, int hw) {
  int64_t nreg = v->size[D_REG], nlane = v->size[D_LANE], nwarp = v->size[D_WARP];
  int64_t nblock = v->size[D_BLOCK], nslot = nreg * nlane * nwarp * nblock;
  if (hw) {
    for (int64_t bl = 0; bl < nblock; bl++) {
      if (nblock > 1) lytS_buf_printf(b, "Block%lld:\n", (long long)bl);
      for (int64_t w = 0; w < nwarp; w++) {
        lytS_buf_printf(b, "Warp%lld:\n", (long long)w);
        for (int64_t r = 0; r < nreg; r++) {
          for (int64_t t = 0; t < nlane; t++) {
            coords(b, v, slot_out(v, ((bl * nwarp + w) * nlane + t) * nreg + r), ",");
            if (t < nlane - 1) lytS_buf_puts(b, ", ");
          }
          lytS_buf_add(b, "\n", 1);
        }
      }
    }
    return;
  }
  /* counting sort of the slots by cell, stable in enumeration order */
  dist d;
  int64_t *cell = lytS_alloc(&L->cx, sizeof *cell * (size_t)nslot);
  d.first = lytS_alloc(&L->cx, sizeof *d.first * (size_t)(v->total + 1));
  d.slot = lytS_alloc(&L->cx, sizeof *d.slot * (size_t)nslot);
  memset(d.first, 0, sizeof *d.first * (size_t)(v->total + 1));
  for (int64_t s = 0; s < nslot; s++) {
    cell[s] = cell_of(v, slot_out(v, s));
    d.first[cell[s] + 1]++;
  }
  for (int64_t c = 0; c < v->total; c++) d.first[c + 1] += d.first[c];
  int64_t *fill = lytS_alloc(&L->cx, sizeof *fill * (size_t)(v->total + 1));
  memcpy(fill, d.first, sizeof *fill * (size_t)(v->total + 1));
  for (int64_t s = 0; s < nslot; s++) d.slot[fill[cell[s]]++] = s;
  grid(b, v, ", ", dist_cell, &d);
}

/* ---------------------------------------------------------------------
** shared
** ------------------------------------------------------------------- */

static uint64_t shared_out(const view *v, int64_t n) {
  int64_t per = v->total / v->size[D_BLOCK];
  return lytG_apply_flat(v->ll, flat_in(v, D_BLOCK, n / per) | flat_in(v, D_OFFSET, n % per));
}

static void shared_cell(lytS_buf *b, const view *v, int64_t c, const void *ud) {
  (void)ud;
  /* Triton enumerates blocks * (total / blocks) pairs; cells past them stay empty */
  int64_t per = v->total / v->size[D_BLOCK];
  if (c < per * v->size[D_BLOCK]) coords(b, v, shared_out(v, c), ":");
}

static void shared(lytS_buf *b, const view *v, int hw) {
  if (!hw) { grid(b, v, ",", shared_cell, NULL); return; }
  int64_t nblock = v->size[D_BLOCK], per = v->total / nblock;
  for (int64_t bl = 0; bl < nblock; bl++) {
    lytS_buf_printf(b, "Block: %lld:\n", (long long)bl);
    for (int64_t o = 0; o < per; o++) {
      lytS_buf_printf(b, "Offset: %lld -> ", (long long)o);
      coords(b, v, shared_out(v, bl * per + o), ",");
      lytS_buf_add(b, "\n", 1);
    }
  }
}

void lytI_linear_view(lyt_state *L, lytS_buf *b, const lytG_ll *ll, int hw, lyt_loc at) {
  view v;
  classify(L, &v, ll, at);
  if (v.shared) {
    /* a block count above the tensor size would make a block-wise listing endless */
    if (hw && v.size[D_BLOCK] > LYT_SHOW_MAX_CELLS)
      lytI_error(L, at, LYT_ERRLIMIT, "show: too many blocks to draw (limit %d)", LYT_SHOW_MAX_CELLS);
    shared(b, &v, hw);
  } else {
    distributed(L, b, &v, hw);
  }
}

void lytI_show_linear(lyt_state *L, const lyt_value *v, lyt_loc at) {
  if (v->kind != LYT_VLINEAR)
    lytI_error(L, at, LYT_ERRRUN, "show: needs a linear layout, got %s", lytI_kindname(v->kind));
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_linear_view(L, &b, v->u.ll, 0, at);
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b.p, b.n);
}
