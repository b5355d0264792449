/*
** picture/show.c: `show L`, CuTe's print_layout table for a rank-2 layout.
**
** Sizes come from the stride core (a composed layout from its inner
** layout, as in CuTe); cells from evaluating the layout value itself, so
** show can never disagree with evaluation. A rank-1 layout is shown
** as one column, as if appended with 1:0 (CuTe's print_latex pads the
** same way; print_layout itself refuses). Axe and nested layouts are
** drawn by picture/picture.c; linear layouts by linear/show.c.
*/
#include <string.h>

#include "interp/picture/picture.h"

#define LYT_SHOW_MAX_CELLS (1 << 16)  /* a bigger table is not for reading */


static int digits(int64_t x) {
  int d = x < 0 ? 2 : 1;
  if (x < 0) x = -(x / 10);
  while (x >= 10) { x /= 10; d++; }
  return d;
}

static void rule(lytS_buf *b, int64_t cols, int w) {
  lytS_buf_puts(b, "    ");
  for (int64_t j = 0; j < cols; j++) {
    lytS_buf_add(b, "+", 1);
    for (int k = 0; k < w; k++) lytS_buf_add(b, "-", 1);
  }
  lytS_buf_puts(b, "+\n");
}

static void write(lyt_state *L, const lytS_buf *b) {
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b->p, b->n);
}

/* `show` of an Axe or nested layout: per-axis grids, owner grids (picture/picture.c). */
void lytI_show_picture(lyt_state *L, const lyt_value *v, lyt_loc at) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_picture_default(L, &b, v, at);
  write(L, &b);
}

/* `show` of a record: CuTe's TiledMMA or TiledCopy (import "cute"), as
** its picture; other records are data, not layouts. */
void lytI_show_figure(lyt_state *L, const lyt_value *v, lyt_loc at) {
  for (int32_t i = 0; i < v->u.rec.n; i++)
    if (!strcmp(v->u.rec.name[i], "layout_c_tv") || !strcmp(v->u.rec.name[i], "layout_s_tv")) {
      lytI_show_picture(L, v, at);
      return;
    }
  lytI_error(L, at, LYT_ERRRUN, "show needs a layout, or a TiledMMA or TiledCopy of import "
             "\"cute\"; got a record with neither layout_c_tv nor layout_s_tv");
}

/* `show` of a stride layout: CuTe's print_layout table. */
void lytI_show_table(lyt_state *L, const lyt_value *v, lyt_loc at) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_layout_table(L, &b, v, at);
  write(L, &b);
}

void lytI_layout_table(lyt_state *L, lytS_buf *out, const lyt_value *v, lyt_loc at) {
  lytS_layout l = v->kind == LYT_VLAYOUT ? *v->u.lay : v->u.comp->inner;
  int32_t rank = lytS_lrank(l);
  if (rank != 1 && rank != 2)
    lytI_error(L, at, LYT_ERRRUN,
               "show needs a layout of rank 1 or 2, got rank %lld (group modes first)",
               (long long)rank);
  L->errloc = at;
  int64_t rows = rank == 2 ? lytS_lsize(&L->cx, lytS_lmode(&L->cx, l, 0)) : lytS_lsize(&L->cx, l);
  int64_t cols = rank == 2 ? lytS_lsize(&L->cx, lytS_lmode(&L->cx, l, 1)) : 1;
  if (rows > LYT_SHOW_MAX_CELLS || cols > LYT_SHOW_MAX_CELLS || rows * cols > LYT_SHOW_MAX_CELLS)
    lytI_error(L, at, LYT_ERRLIMIT, "show: %lld x %lld is too large to draw (limit %d cells)",
               (long long)rows, (long long)cols, LYT_SHOW_MAX_CELLS);
  int w = digits(lytS_cosize(&L->cx, l)) + 2;
  lytI_print_value(out, v);
  lytS_buf_puts(out, "\n    ");
  for (int64_t j = 0; j < cols; j++) lytS_buf_printf(out, "  %*lld ", w - 2, (long long)j);
  lytS_buf_puts(out, "\n");
  for (int64_t i = 0; i < rows; i++) {
    rule(out, cols, w);
    lytS_buf_printf(out, "%2lld  ", (long long)i);
    for (int64_t j = 0; j < cols; j++) {
      lyt_value c[2] = { lytI_int(i), lytI_int(j) };
      lyt_loc locs[2] = { at, at };
      lyt_value x = lytI_call_value(L, *v, (int)rank, c, locs, at);
      if (x.kind != LYT_VINT) lytI_error(L, at, LYT_ERRRUN, "show: the layout does not map to integers");
      lytS_buf_printf(out, "| %*lld ", w - 2, (long long)x.u.i);
    }
    lytS_buf_puts(out, "|\n");
  }
  rule(out, cols, w);
}
