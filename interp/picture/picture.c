/*
** picture/picture.c: building the picture model (picture/picture.h) of each kind.
**
**   stride   one grid; cell (i, j) is L(i, j) (default shape: the two
**            modes) or L(i + j*rows) for a shape the caller picks, CuTe's
**            colexicographic 1-D coordinate; coloured by offset mod 8 as
**            CuTe's print_latex does, or by bank.
**   TV       a stride layout (thread, value) -> index into an M x N
**            column-major tile; cell (idx % M, idx / M) is "T<t>" over
**            "V<v>", the first (t, v) that lands there, as CuTe draws it.
**   linear   distributed (register, lane, warp, block in-dims): each cell
**            is the first slot holding it, "T<lane>:<reg>" over "W<warp>";
**            shared (offset in-dim): each cell is the first offset that
**            maps there, coloured by bank. The tensor is row-major over
**            the out-dims (the last fastest), as in Triton's views.
**   nested   like a distributed layout; slots from IREE's owner map.
**   Axe      one grid per axis, each cell that axis's value of D(x) + O
**            at the row-major logical index x; replicas become notes.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "interp/axe/axe.h"
#include "interp/linear/linear.h"
#include "interp/nested/nested.h"
#include "interp/picture/picture.h"

#define LYTI_PIC_MAX_SLOTS (1 << 22)  /* (block, warp, lane, register) slots enumerated */

static const char *fmt(lyt_state *L, const char *f, ...) LYT_PRINTF(2, 3);
static const char *fmt(lyt_state *L, const char *f, ...) {
  char tmp[128];
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(tmp, sizeof tmp, f, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof tmp) n = (int)sizeof tmp - 1;
  char *s = lytS_alloc(&L->cx, (size_t)n + 1);
  memcpy(s, tmp, (size_t)n + 1);
  return s;
}

const int lytI_grey8[8] = { 0, 40, 20, 60, 10, 50, 30, 70 };

static const char *cat3(lyt_state *L, const char *a, const char *b, const char *c) {
  lytS_buf buf;
  lytS_buf_init(&buf, &L->cx);
  lytS_buf_printf(&buf, "%s%s%s", a, b, c);
  return buf.p;
}

static int64_t mod(int64_t a, int64_t m) { return ((a % m) + m) % m; }

/* Rounding down: a negative offset's bytes lie in the words below 0. */
int64_t lytI_word_of(int64_t offset, int64_t elem) {
  int64_t byte = offset * elem;
  return (byte - mod(byte, 4)) / 4;
}

int64_t lytI_bank_of(int64_t offset, int64_t elem) { return mod(lytI_word_of(offset, elem), 32); }

/* A grid of empty cells; the total over all grids is capped. */
static lytI_pgrid *add_grid(lyt_state *L, lytI_picture *p, const char *name, int64_t rows,
                            int64_t cols, lyt_loc at) {
  int64_t have = 0;
  for (int32_t g = 0; g < p->ngrids; g++) have += p->grid[g].rows * p->grid[g].cols;
  if (rows > LYTI_PIC_MAX_CELLS || cols > LYTI_PIC_MAX_CELLS)  /* the product may not fit */
    lytI_error(L, at, LYT_ERRLIMIT, "picture: %lld x %lld cells%s are too many to draw (limit %d)",
               (long long)rows, (long long)cols, p->ngrids ? " per grid" : "", LYTI_PIC_MAX_CELLS);
  if (have + rows * cols > LYTI_PIC_MAX_CELLS)
    lytI_error(L, at, LYT_ERRLIMIT, "picture: %lld cells (%lld x %lld%s) are too many to draw "
               "(limit %d)", (long long)(have + rows * cols), (long long)rows, (long long)cols,
               p->ngrids ? " per grid" : "", LYTI_PIC_MAX_CELLS);
  lytI_pgrid *g = &p->grid[p->ngrids++];
  g->name = name;
  g->rows = rows;
  g->cols = cols;
  g->cell = lytS_alloc(&L->cx, sizeof *g->cell * (size_t)(rows * cols));
  for (int64_t i = 0; i < rows * cols; i++) g->cell[i] = (lytI_pcell){ "", NULL, -1, 0 };
  return g;
}

/* The grid's shape: the caller's (its product must be `size`) or dflt. */
static void pick_shape(lyt_state *L, const lytI_popts *o, int64_t size, int64_t drows,
                       int64_t *rows, int64_t *cols, lyt_loc at) {
  if (o->rank == 0) { *rows = drows; *cols = size / drows; return; }
  *rows = o->shape[0];
  *cols = o->rank == 2 ? o->shape[1] : 1;
  if (*rows > size || *cols > size)  /* extents are positive: then the product is not size */
    lytI_error(L, at, LYT_ERRRUN, "picture: the shape (%lld,%lld) has more cells than the "
               "layout's %lld", (long long)*rows, (long long)*cols, (long long)size);
  if (*rows * *cols != size)
    lytI_error(L, at, LYT_ERRRUN, "picture: the shape (%lld,%lld) has %lld cells but the layout "
               "has size %lld", (long long)*rows, (long long)*cols,
               (long long)(*rows * *cols), (long long)size);
}

/* The value as `print` writes it: a picture's title. */
static const char *printed(lyt_state *L, const lyt_value *v) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_print_value(&b, v);
  return b.p;
}

/* ---------------------------------------------------------------------
** stride layouts and TV layouts
** ------------------------------------------------------------------- */

static int64_t eval_at(lyt_state *L, const lyt_value *v, int n, int64_t a, int64_t b, lyt_loc at) {
  lyt_value c[2] = { lytI_int(a), lytI_int(b) };
  lyt_loc locs[2] = { at, at };
  lyt_value x = lytI_call_value(L, *v, n, c, locs, at);
  if (x.kind != LYT_VINT)
    lytI_error(L, at, LYT_ERRRUN, "picture: the layout does not map to integers");
  return x.u.i;
}

/* Colour an offset: by bank ("bank"), else by offset mod 8. */
static void offset_cell(lyt_state *L, const lytI_picture *p, lytI_pcell *c, int64_t off,
                        int bank) {
  c->val = off;
  c->text = fmt(L, "%lld", (long long)off);
  c->key = bank ? lytI_bank_of(off, p->elem) : mod(off, 8);
  if (bank) c->sub = fmt(L, "b%lld", (long long)c->key);
}

static void offset_palette(lyt_state *L, lytI_picture *p, const lytI_popts *o, int *bank,
                           lyt_loc at) {
  *bank = o->color && strcmp(o->color, "bank") == 0;
  if (o->color && !*bank && strcmp(o->color, "offset") != 0)
    lytI_error(L, at, LYT_ERRRUN, "picture: offsets are coloured by \"offset\" or \"bank\", not "
               "\"%s\"", o->color);
  p->palette = *bank ? LYTI_PAL_HUE : LYTI_PAL_GREY8;
  p->nkeys = *bank ? 32 : 8;
  p->keyname = *bank ? "bank" : "offset mod 8";
}

static lytS_layout inner_of(const lyt_value *v) {
  return v->kind == LYT_VLAYOUT ? *v->u.lay : v->u.comp->inner;
}

static void stride_pic(lyt_state *L, lytI_picture *p, const lyt_value *v, const lytI_popts *o,
                       lyt_loc at) {
  lytS_layout l = inner_of(v);
  int32_t rank = lytS_lrank(l);
  int64_t size = lytS_lsize(&L->cx, l);
  int64_t size0 = rank >= 1 ? lytS_lsize(&L->cx, lytS_lmode(&L->cx, l, 0)) : 1;
  int64_t rows, cols;
  pick_shape(L, o, size, rank == 1 ? size : size0, &rows, &cols, at);
  int bank;
  offset_palette(L, p, o, &bank, at);
  lytI_pgrid *g = add_grid(L, p, NULL, rows, cols, at);
  int two = o->rank == 0 && rank == 2;  /* L(i, j) itself, as print_layout */
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t off = two ? eval_at(L, v, 2, i, j, at) : eval_at(L, v, 1, i + j * rows, 0, at);
      offset_cell(L, p, &g->cell[i * cols + j], off, bank);
    }
}

/* What CuTe's print_latex names a TV layout in its comment: the one its
** callers pass, (thread, value) -> (m, n), the TV layout composed with
** the tile's identity. Where that composition is not admissible (C++
** could not make it either) or the layout is swizzled, the TV layout as
** written; running out of memory or past a limit still fails. */
static const char *tv_title(lyt_state *L, const lyt_value *v, int64_t m, int64_t n) {
  lytS_ctx *cx = &L->cx;
  if (v->kind != LYT_VLAYOUT) return printed(L, v);
  jmp_buf jb, *outer = cx->jb;
  if (setjmp(jb)) {
    cx->jb = outer;
    if (cx->code != LYT_ERRRUN) longjmp(*outer, 1);
    return printed(L, v);
  }
  cx->jb = &jb;
  lytS_layout id = lytS_make_identity(cx, lytS_pair(cx, lytS_int(cx, m), lytS_int(cx, n)));
  const char *t = lytS_layout_str(cx, lytS_compose(cx, id, *v->u.lay));
  cx->jb = outer;
  return t;
}

/* A grid of TV layout v, (thread, value) -> index of an m x n
** column-major tile: the cell of index x is (x % m, x / m), or
** (x / m, x % m) for a tile drawn transposed (CuTe's B); it shows the
** first (thread, value) that lands there, as CuTe draws it. */
static lytI_pgrid *tv_grid(lyt_state *L, lytI_picture *p, const char *name, const lyt_value *v,
                           int64_t m, int64_t n, int transposed, lyt_loc at) {
  lytS_layout l = inner_of(v);
  if (lytS_lrank(l) != 2)
    lytI_error(L, at, LYT_ERRRUN, "picture: a TV layout has rank 2 (thread, value), got rank %d",
               (int)lytS_lrank(l));
  int64_t nt = lytS_lsize(&L->cx, lytS_lmode(&L->cx, l, 0));
  int64_t nv = lytS_lsize(&L->cx, lytS_lmode(&L->cx, l, 1));
  lytI_pgrid *g = transposed ? add_grid(L, p, name, n, m, at) : add_grid(L, p, name, m, n, at);
  p->palette = LYTI_PAL_HUE;
  if (nt > p->nkeys) p->nkeys = nt;
  p->keyname = "thread";
  g->order = lytS_alloc(&L->cx, sizeof *g->order * (size_t)(m * n));
  for (int64_t t = 0; t < nt; t++)
    for (int64_t k = 0; k < nv; k++) {
      int64_t idx = eval_at(L, v, 2, t, k, at);
      if (idx < 0 || idx >= m * n)
        lytI_error(L, at, LYT_ERRRUN, "picture: %s%sT%lld V%lld maps to %lld, outside the %lld x "
                   "%lld tile", name ? name : "", name ? ": " : "", (long long)t, (long long)k,
                   (long long)idx, (long long)m, (long long)n);
      /* transposed, cell (k, n) of a row-major K x N grid is index n + m k itself */
      lytI_pcell *c = &g->cell[transposed ? idx : (idx % m) * n + idx / m];
      if (c->key >= 0) continue;  /* the first (thread, value) stays, as in CuTe */
      *c = (lytI_pcell){ fmt(L, "T%lld", (long long)t), fmt(L, "V%lld", (long long)k), t, t };
      g->order[g->norder++] = c - g->cell;
    }
  return g;
}

static void tv_pic(lyt_state *L, lytI_picture *p, const lyt_value *v, const lytI_popts *o,
                   lyt_loc at) {
  lytI_pgrid *g = tv_grid(L, p, NULL, v, o->tv_m, o->tv_n, 0, at);
  g->tv_title = cat3(L, "Layout TV: ", tv_title(L, v, o->tv_m, o->tv_n), "");
}

/* ---------------------------------------------------------------------
** CuTe's TiledMMA and TiledCopy: records of import "cute" that carry
** their TV layouts, drawn as CuTe's print_latex draws them
** ------------------------------------------------------------------- */

static const lyt_value *field(const lyt_value *r, const char *name) {
  for (int32_t i = 0; i < r->u.rec.n; i++)
    if (strcmp(r->u.rec.name[i], name) == 0) return &r->u.rec.e[i];
  return NULL;
}

/* The record's tile field `name`: a tuple of n positive integers, into t. */
static void tile_of(lyt_state *L, const lyt_value *r, const char *name, int64_t *t, int32_t n,
                    lyt_loc at) {
  const lyt_value *v = field(r, name);
  int ok = v && v->kind == LYT_VTUP && v->u.tup.n == n;
  for (int32_t i = 0; ok && i < n; i++) {
    const lyt_value *x = &v->u.tup.e[i];
    ok = x->kind == LYT_VINT && x->u.i > 0;
    if (ok) t[i] = x->u.i;
  }
  if (!ok)
    lytI_error(L, at, LYT_ERRRUN, "picture: the record's %s must be a tuple (%s) of positive "
               "integers%s", name, n == 3 ? "M,N,K" : "M,N", v ? "" : "; it has none");
}

static const char *atom_name(lyt_state *L, const lyt_value *r) {
  const lyt_value *a = field(r, "atom"), *n = a && a->kind == LYT_VRECORD ? field(a, "name") : NULL;
  return n && n->kind == LYT_VSTR ? n->u.str.s : fmt(L, "?");
}

/* A TV panel of a figure at (row0, col0): the record's layout `key`, its
** comment "<label>: " and CuTe's ArithTuple tensor of the layout composed
** with the tile's identity. */
static void panel(lyt_state *L, lytI_picture *p, const lyt_value *r, const char *key,
                  const char *name, const char *label, int64_t m, int64_t n, int transposed,
                  int64_t row0, int64_t col0, lyt_loc at) {
  const lyt_value *v = field(r, key);
  if (!v || v->kind != LYT_VLAYOUT)
    lytI_error(L, at, LYT_ERRRUN, "picture: the record's %s must be a layout (thread, value) -> "
               "index of the tile%s", key, v ? "" : "; it has none");
  lytI_pgrid *g = tv_grid(L, p, name, v, m, n, transposed, at);
  g->tv_title = cat3(L, label, ": ArithTuple(0,0) o ", tv_title(L, v, m, n));
  g->row0 = row0;
  g->col0 = col0;
}

static void figure_pic(lyt_state *L, lytI_picture *p, const lyt_value *r, lyt_loc at) {
  int64_t t[3];
  if (field(r, "layout_c_tv")) {
    tile_of(L, r, "tile_size_mnk", t, 3, at);
    p->figure = LYTI_FIG_MMA;
    p->title = fmt(L, "TiledMMA %.60s, tile %lld x %lld x %lld", atom_name(L, r), (long long)t[0],
                   (long long)t[1], (long long)t[2]);
    panel(L, p, r, "layout_c_tv", "C (M x N)", "LayoutC", t[0], t[1], 0, 0, 0, at);
    panel(L, p, r, "layout_a_tv", "A (M x K)", "LayoutA", t[0], t[2], 0, 0, -t[2] - 1, at);
    panel(L, p, r, "layout_b_tv", "B (K x N)", "LayoutB", t[1], t[2], 1, -t[2] - 1, 0, at);
  } else if (field(r, "layout_s_tv")) {
    tile_of(L, r, "tiler", t, 2, at);
    p->figure = LYTI_FIG_COPY;
    p->title = fmt(L, "TiledCopy %.60s, tile %lld x %lld", atom_name(L, r), (long long)t[0],
                   (long long)t[1]);
    panel(L, p, r, "layout_s_tv", "source", "Layout S TV", t[0], t[1], 0, 0, 0, at);
    panel(L, p, r, "layout_d_tv", "destination", "Layout D TV", t[0], t[1], 0, 0, t[1] + 3, at);
  } else {
    lytI_error(L, at, LYT_ERRRUN, "picture: a record is drawn when it is CuTe's TiledMMA or "
               "TiledCopy (make_tiled_mma, make_tiled_copy of import \"cute\"); this one has no "
               "layout_c_tv or layout_s_tv");
  }
}

/* ---------------------------------------------------------------------
** distributed: slots (block, warp, lane, register) -> cells
** ------------------------------------------------------------------- */

typedef struct slots {
  int64_t n[4];     /* register, lane, warp, block counts */
  /* the row-major cell of a slot, given as {r, lane, warp, block} */
  int64_t (*cell)(lyt_state *L, const void *ud, const int64_t *s);
  const void *ud;
} slots;

static int64_t color_key(const int64_t *s, const int64_t *n, int by) {
  if (by == 1) return s[2] + s[3] * n[2];                  /* warp */
  if (by == 2) return s[0];                                /* register */
  return s[1] + n[1] * (s[2] + n[2] * s[3]);               /* thread */
}

static int thread_colour(lyt_state *L, const lytI_popts *o, lyt_loc at) {
  if (!o->color || strcmp(o->color, "thread") == 0) return 0;
  if (strcmp(o->color, "warp") == 0) return 1;
  if (strcmp(o->color, "register") == 0) return 2;
  lytI_error(L, at, LYT_ERRRUN, "picture: a distributed layout is coloured by \"thread\", "
             "\"warp\" or \"register\", not \"%s\"", o->color);
}

static void slot_cell(lyt_state *L, lytI_pcell *c, const slots *sl, const int64_t *s, int by) {
  c->val = color_key(s, sl->n, 0);  /* the thread index */
  c->text = fmt(L, "T%lld:%lld", (long long)s[1], (long long)s[0]);
  if (sl->n[3] > 1) c->sub = fmt(L, "B%lld W%lld", (long long)s[3], (long long)s[2]);
  else if (sl->n[2] > 1) c->sub = fmt(L, "W%lld", (long long)s[2]);
  c->key = color_key(s, sl->n, by);
}

static void dist_notes(lyt_state *L, lytI_picture *p, const lytI_pgrid *g, const int32_t *copies) {
  int64_t most = 0, none = 0;
  for (int64_t i = 0; i < g->rows * g->cols; i++) {
    if (copies[i] > most) most = copies[i];
    none += copies[i] == 0;
  }
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  if (most > 1)
    lytS_buf_printf(&b, "each element is held by up to %lld slots; a cell shows the first "
                    "(block, warp, lane, register)\n", (long long)most);
  if (none > 0) lytS_buf_printf(&b, "%lld elements are held by no slot (empty cells)\n",
                                (long long)none);
  p->notes = b.p;
}

static void dist_pic(lyt_state *L, lytI_picture *p, const slots *sl, int64_t total,
                     int64_t drows, const lytI_popts *o, lyt_loc at) {
  int64_t rows, cols, nslot = sl->n[0] * sl->n[1] * sl->n[2] * sl->n[3];
  pick_shape(L, o, total, drows, &rows, &cols, at);
  if (nslot > LYTI_PIC_MAX_SLOTS)
    lytI_error(L, at, LYT_ERRLIMIT, "picture: %lld (block, warp, lane, register) slots are too "
               "many to draw (limit %d)", (long long)nslot, LYTI_PIC_MAX_SLOTS);
  int by = thread_colour(L, o, at);
  p->palette = LYTI_PAL_HUE;
  p->nkeys = by == 1 ? sl->n[2] * sl->n[3] : by == 2 ? sl->n[0] : sl->n[1] * sl->n[2] * sl->n[3];
  p->keyname = by == 1 ? "warp" : by == 2 ? "register" : "thread";
  lytI_pgrid *g = add_grid(L, p, NULL, rows, cols, at);
  int32_t *copies = lytS_alloc(&L->cx, sizeof *copies * (size_t)total);
  memset(copies, 0, sizeof *copies * (size_t)total);
  int64_t s[4];
  for (int64_t k = 0; k < nslot; k++) {
    int64_t r = k;
    for (int d = 0; d < 4; d++) { s[d] = r % sl->n[d]; r /= sl->n[d]; }
    int64_t c = sl->cell(L, sl->ud, s);
    if (c < 0 || c >= total) continue;
    if (copies[c]++ == 0) slot_cell(L, &g->cell[c], sl, s, by);
  }
  dist_notes(L, p, g, copies);
}

/* ---------------------------------------------------------------------
** linear layouts
** ------------------------------------------------------------------- */

/* partition: the buffer of a partitioned shared layout (Triton's
** partitioned_shared), each with offsets of its own. */
static const char *const hw_dims[6] = { "register", "lane", "warp", "block", "offset", "partition" };

typedef struct linview {
  const lytG_ll *ll;
  int32_t idx[6];   /* in-dim index of each of hw_dims, -1 when absent */
} linview;

static int64_t row_major(const lytG_ll *ll, uint64_t w) {
  int64_t lin = 0;
  for (int32_t k = 0; k < ll->nout; k++)
    lin = lin * lytG_out_size(ll, k) + (int64_t)lytG_field(ll, w, k);
  return lin;
}

static uint64_t in_bits(const linview *lv, int d, int64_t x) {
  if (lv->idx[d] < 0) return 0;
  return (uint64_t)x << lytG_in_offset(lv->ll, lv->idx[d]);
}

static int64_t lin_cell(lyt_state *L, const void *ud, const int64_t *s) {
  (void)L;
  const linview *lv = ud;
  uint64_t x = 0;
  for (int d = 0; d < 4; d++) x |= in_bits(lv, d, s[d]);
  return row_major(lv->ll, lytG_apply_flat(lv->ll, x));
}

static void classify(lyt_state *L, linview *lv, const lytG_ll *ll, lyt_loc at) {
  lv->ll = ll;
  for (int d = 0; d < 6; d++) lv->idx[d] = lytG_in_index(ll, hw_dims[d]);
  int known = 0;
  for (int d = 0; d < 6; d++) known += lv->idx[d] >= 0;
  int mixed = lv->idx[4] >= 0 ? lv->idx[0] >= 0 || lv->idx[1] >= 0 || lv->idx[2] >= 0 : lv->idx[5] >= 0;
  if (known != ll->nin || ll->nin == 0 || mixed || ll->nout == 0)
    lytI_error(L, at, LYT_ERRRUN, "picture: a linear layout is drawn from the in-dims register, "
               "lane, warp, block (distributed) or offset, block, partition (shared) to at least "
               "one out-dim, not %s -> %s", lytG_in_names(&L->cx, ll), lytG_out_names(&L->cx, ll));
  if (ll->outbits > 16)
    lytI_error(L, at, LYT_ERRLIMIT, "picture: a tensor of 2^%d elements is too large to draw "
               "(limit %d cells)", (int)ll->outbits, LYTI_PIC_MAX_CELLS);
}

static int64_t dim_size(const linview *lv, int d) {
  return lv->idx[d] < 0 ? 1 : lytG_in_size(lv->ll, lv->idx[d]);
}

static void shared_pic(lyt_state *L, lytI_picture *p, const linview *lv, int64_t total,
                       int64_t drows, const lytI_popts *o, lyt_loc at) {
  int64_t rows, cols, noff = dim_size(lv, 4);
  pick_shape(L, o, total, drows, &rows, &cols, at);
  int bank;
  lytI_popts oo = *o;
  if (!oo.color) oo.color = "bank";  /* shared memory: the banks are the point */
  offset_palette(L, p, &oo, &bank, at);
  lytI_pgrid *g = add_grid(L, p, NULL, rows, cols, at);
  int64_t nparts = dim_size(lv, 5);
  for (int64_t q = 0; q < nparts; q++)
    for (int64_t off = 0; off < noff && off < LYTI_PIC_MAX_SLOTS; off++) {
      int64_t c = row_major(lv->ll, lytG_apply_flat(lv->ll, in_bits(lv, 4, off) | in_bits(lv, 5, q)));
      if (g->cell[c].key >= 0) continue;
      offset_cell(L, p, &g->cell[c], off, bank);
      if (nparts > 1) g->cell[c].text = fmt(L, "%lld:%lld", (long long)q, (long long)off);
    }
  if (nparts > 1)
    p->notes = dim_size(lv, 3) > 1 ? "each cell is partition:offset, in its partition's buffer; block 0 "
                                     "is drawn, the other blocks are alike\n"
                                   : "each cell is partition:offset, in its partition's buffer\n";
  else if (dim_size(lv, 3) > 1) p->notes = "block 0 is drawn; the other blocks are alike\n";
}

static void linear_pic(lyt_state *L, lytI_picture *p, const lytG_ll *ll, const lytI_popts *o,
                       lyt_loc at) {
  linview lv;
  classify(L, &lv, ll, at);
  int64_t total = (int64_t)1 << ll->outbits;
  int64_t last = lytG_out_size(ll, ll->nout - 1);
  if (lv.idx[4] >= 0) { shared_pic(L, p, &lv, total, total / last, o, at); return; }
  slots sl = { { dim_size(&lv, 0), dim_size(&lv, 1), dim_size(&lv, 2), dim_size(&lv, 3) },
               lin_cell, &lv };
  dist_pic(L, p, &sl, total, total / last, o, at);
}

/* ---------------------------------------------------------------------
** nested layouts: IREE's owner map gives each slot's coordinate
** ------------------------------------------------------------------- */

static int64_t nested_cell(lyt_state *L, const void *ud, const int64_t *s) {
  const lytN_layout *N = ud;
  int64_t crd[LYTN_MAXRANK], lin = 0;
  lytN_coord(&L->cx, N, s[2], s[1], s[0], crd);
  for (int32_t d = 0; d < N->rank; d++) lin = lin * lytN_dim(N, d) + crd[d];
  return lin;
}

static void nested_pic(lyt_state *L, lytI_picture *p, const lytN_layout *N, const lytI_popts *o,
                       lyt_loc at) {
  int64_t total = 1;
  for (int32_t d = 0; d < N->rank; d++) total *= lytN_dim(N, d);
  if (total > LYTI_PIC_MAX_CELLS)
    lytI_error(L, at, LYT_ERRLIMIT, "picture: a vector of %lld elements is too large to draw "
               "(limit %d cells)", (long long)total, LYTI_PIC_MAX_CELLS);
  slots sl = { { lytN_registers(N), N->subgroup_size, N->subgroups, 1 }, nested_cell, N };
  dist_pic(L, p, &sl, total, total / lytN_dim(N, N->rank - 1), o, at);
}

/* ---------------------------------------------------------------------
** Axe layouts: one grid per axis
** ------------------------------------------------------------------- */

static void axe_notes(lyt_state *L, lytI_picture *p, const lytX_layout *x) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  for (int32_t i = 0; i < x->nr; i++)
    lytS_buf_printf(&b, "replica: %s += %lld (%lld copies)\n", x->r[i].axis,
                    (long long)x->r[i].stride, (long long)x->r[i].extent);
  for (int32_t i = 0; i < x->no; i++)
    if (x->off[i] != 0)
      lytS_buf_printf(&b, "offset: %s + %lld (included above)\n", x->oaxis[i],
                      (long long)x->off[i]);
  p->notes = b.p;
}

static void axe_pic(lyt_state *L, lytI_picture *p, const lytX_layout *x, const lytI_popts *o,
                    lyt_loc at) {
  if (o->color)
    lytI_error(L, at, LYT_ERRRUN, "picture: an Axe layout is coloured by each axis's value; "
               "leave color out");
  const char *axes[LYTX_MAXAXES];
  int32_t na = lytX_axes(x, axes);
  int64_t size = lytX_size(&L->cx, x), rows, cols, val[LYTX_MAXAXES];
  pick_shape(L, o, size, size, &rows, &cols, at);
  p->palette = LYTI_PAL_HUE;
  p->keyname = "the axis's value";
  for (int32_t a = 0; a < na; a++) add_grid(L, p, axes[a], rows, cols, at);
  for (int64_t i = 0; i < size; i++) {
    lytX_base(&L->cx, x, i, val);  /* D(i) + O: replica 0 of forward(A, i) */
    for (int32_t a = 0; a < na; a++) {
      lytI_pcell *c = &p->grid[a].cell[i];
      *c = (lytI_pcell){ fmt(L, "%lld", (long long)val[a]), NULL, val[a] < 0 ? 0 : val[a], val[a] };
      if (c->key + 1 > p->nkeys) p->nkeys = c->key + 1;
    }
  }
  axe_notes(L, p, x);
}

/* ---------------------------------------------------------------------
** dispatch
** ------------------------------------------------------------------- */

void lytI_picture_build(lyt_state *L, lytI_picture *p, const lyt_value *v, const lytI_popts *o,
                        lyt_loc at) {
  memset(p, 0, sizeof *p);
  p->notes = "";
  p->elem = o->elem > 0 ? o->elem : 2;
  if (v->kind != LYT_VRECORD) p->title = printed(L, v);
  L->errloc = at;
  int stride = v->kind == LYT_VLAYOUT || v->kind == LYT_VCOMPOSED;
  if (v->kind == LYT_VRECORD && (o->tv_m > 0 || o->rank > 0 || o->color))
    lytI_error(L, at, LYT_ERRRUN, "picture: a TiledMMA or TiledCopy is drawn as CuTe draws it; "
               "it takes no shape=, tv= or color=");
  if (o->tv_m > 0 && !stride)
    lytI_error(L, at, LYT_ERRRUN, "picture: tv= draws a stride layout (thread, value) -> index, "
               "not %s %s", lytI_article(v->kind), lytI_kindname(v->kind));
  if (v->kind == LYT_VRECORD) figure_pic(L, p, v, at);
  else if (o->tv_m > 0) tv_pic(L, p, v, o, at);
  else if (stride) stride_pic(L, p, v, o, at);
  else if (v->kind == LYT_VLINEAR) linear_pic(L, p, v->u.ll, o, at);
  else if (v->kind == LYT_VNESTED) nested_pic(L, p, v->u.nested, o, at);
  else if (v->kind == LYT_VAXE) axe_pic(L, p, v->u.axe, o, at);
  else
    lytI_error(L, at, LYT_ERRRUN, "picture: needs a layout (stride, linear, Axe or nested) or a "
               "TiledMMA or TiledCopy, got %s %s", lytI_article(v->kind), lytI_kindname(v->kind));
  if (p->figure == LYTI_FIG_ROW)  /* side by side, two columns apart */
    for (int32_t k = 0, off = 0; k < p->ngrids; off += (int32_t)p->grid[k++].cols + 2)
      p->grid[k].col0 = off;
}
