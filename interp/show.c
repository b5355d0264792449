/*
** show.c: `show L`, CuTe's print_layout table for a rank-2 layout.
**
** The table is built only from the layout builtins (size, rank, cosize
** and evaluation), so every kind of layout those accept can be shown,
** and show can never disagree with evaluation. A rank-1 layout is shown
** as one column, as if appended with 1:0 (CuTe's print_latex pads the
** same way; print_layout itself refuses).
*/
#include <string.h>

#include "state.h"

#define LYT_SHOW_MAX_CELLS (1 << 16)  /* a bigger table is not for reading */

static lyt_value call(lyt_state *L, const char *fn, int argc, lyt_value *argv, lyt_loc at) {
  lyt_loc locs[3] = { at, at, at };
  lyt_value *f = lytI_getglobal(L, lytI_intern(L, fn, strlen(fn)));
  return lytI_call_value(L, *f, argc, argv, locs, at);
}

static int64_t int_of(lyt_state *L, const char *fn, int argc, lyt_value *argv, lyt_loc at) {
  lyt_value v = call(L, fn, argc, argv, at);
  if (v.kind != LYT_VINT) lytI_error(L, at, LYT_ERRRUN, "show: %s() is not an integer", fn);
  return v.u.i;
}

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

void lytI_show(lyt_state *L, const lyt_value *v, lyt_loc at) {
  if (v->kind == LYT_VLINEAR) { lytI_show_linear(L, v, at); return; }  /* Triton's views */
  if (v->kind != LYT_VLAYOUT && v->kind != LYT_VCOMPOSED)
    lytI_error(L, at, LYT_ERRRUN, "show needs a layout, got %s", lytI_kindname(v->kind));
  lyt_value a[3] = { *v, lytI_int(0), lytI_int(1) };
  int64_t rank = int_of(L, "rank", 1, a, at);
  if (rank != 1 && rank != 2)
    lytI_error(L, at, LYT_ERRRUN,
               "show needs a layout of rank 1 or 2, got rank %lld (group modes first)",
               (long long)rank);
  int64_t rows = rank == 2 ? int_of(L, "size", 2, a, at) : int_of(L, "size", 1, a, at);
  a[1] = lytI_int(1);
  int64_t cols = rank == 2 ? int_of(L, "size", 2, a, at) : 1;
  if (rows > LYT_SHOW_MAX_CELLS || cols > LYT_SHOW_MAX_CELLS || rows * cols > LYT_SHOW_MAX_CELLS)
    lytI_error(L, at, LYT_ERRLIMIT, "show: %lld x %lld is too large to draw (limit %d cells)",
               (long long)rows, (long long)cols, LYT_SHOW_MAX_CELLS);
  int w = digits(int_of(L, "cosize", 1, a, at)) + 2;
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_print_value(&b, v);
  lytS_buf_puts(&b, "\n    ");
  for (int64_t j = 0; j < cols; j++) lytS_buf_printf(&b, "  %*lld ", w - 2, (long long)j);
  lytS_buf_puts(&b, "\n");
  for (int64_t i = 0; i < rows; i++) {
    rule(&b, cols, w);
    lytS_buf_printf(&b, "%2lld  ", (long long)i);
    for (int64_t j = 0; j < cols; j++) {
      lyt_value c[2] = { lytI_int(i), lytI_int(j) };
      lyt_loc locs[2] = { at, at };
      lyt_value x = lytI_call_value(L, *v, (int)rank, c, locs, at);
      if (x.kind != LYT_VINT) lytI_error(L, at, LYT_ERRRUN, "show: the layout does not map to integers");
      lytS_buf_printf(&b, "| %*lld ", w - 2, (long long)x.u.i);
    }
    lytS_buf_puts(&b, "|\n");
  }
  rule(&b, cols, w);
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b.p, b.n);
}
