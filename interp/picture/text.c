/*
** picture/text.c: a picture as text, and the default text of each kind.
**
** Every grid is drawn as CuTe's print_layout draws a layout (picture/show.c):
** a header of column numbers, a rule of +---+ between rows, the row
** number left of each row; the column width follows the widest label.
** Grids of one column each (an Axe layout over a 1-D shape) are merged
** into one table, one column per grid headed by its name, so that a
** long 1-D layout reads down the page.
**
** The default text (show L, picture(L)) keeps the existing pictures:
** CuTe's print_layout for stride layouts of rank 1 or 2, Triton's
** get_distributed_view / get_shared_view for linear layouts; Axe and
** nested layouts get the grids of picture/picture.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/linear/values.h"
#include "interp/picture/picture.h"

enum { F_LABEL, F_TEXT, F_BANK };  /* what a table cell shows */

typedef struct tab {
  const lytI_picture *p;
  const lytI_pgrid *g;  /* one grid, or NULL: the grids side by side, one column each */
  int field;            /* F_* */
  int64_t rows, cols;
} tab;

static const lytI_pcell *cell_at(const tab *t, int64_t i, int64_t j) {
  return t->g ? &t->g->cell[i * t->g->cols + j] : &t->p->grid[j].cell[i];
}

/* The cell's text into out (at most n bytes). */
static void cell_str(const tab *t, const lytI_pcell *c, char *out, size_t n) {
  if (c->key < 0) { out[0] = 0; return; }
  if (t->field == F_BANK)
    snprintf(out, n, "%lld", (long long)lytI_bank_of(c->val, t->p->elem));
  else if (t->field == F_LABEL && c->sub)
    snprintf(out, n, "%s %s", c->text, c->sub);
  else
    snprintf(out, n, "%s", c->text);
}

static void head_str(const tab *t, int64_t j, char *out, size_t n) {
  if (t->g) snprintf(out, n, "%lld", (long long)j);
  else snprintf(out, n, "%s", t->p->grid[j].name);
}

static int digits(int64_t x) {
  int d = 1;
  while (x >= 10) { x /= 10; d++; }
  return d;
}

static int width(const tab *t) {
  char s[160];
  size_t w = 1;
  for (int64_t j = 0; j < t->cols; j++) {
    head_str(t, j, s, sizeof s);
    if (strlen(s) > w) w = strlen(s);
    for (int64_t i = 0; i < t->rows; i++) {
      cell_str(t, cell_at(t, i, j), s, sizeof s);
      if (strlen(s) > w) w = strlen(s);
    }
  }
  return (int)w + 2;
}

static void rule(lytS_buf *b, int64_t cols, int w, int indent) {
  lytS_buf_printf(b, "%*s", indent, "");
  for (int64_t j = 0; j < cols; j++) {
    lytS_buf_add(b, "+", 1);
    for (int k = 0; k < w; k++) lytS_buf_add(b, "-", 1);
  }
  lytS_buf_puts(b, "+\n");
}

/* print_layout's table; rows past 99 widen the row-number column. */
static void table(lytS_buf *b, const tab *t) {
  int w = width(t), rw = digits(t->rows - 1) < 2 ? 2 : digits(t->rows - 1);
  char s[160];
  lytS_buf_printf(b, "%*s", rw + 2, "");
  for (int64_t j = 0; j < t->cols; j++) {
    head_str(t, j, s, sizeof s);
    lytS_buf_printf(b, "  %*s ", w - 2, s);
  }
  lytS_buf_puts(b, "\n");
  for (int64_t i = 0; i < t->rows; i++) {
    rule(b, t->cols, w, rw + 2);
    lytS_buf_printf(b, "%*lld  ", rw, (long long)i);
    for (int64_t j = 0; j < t->cols; j++) {
      cell_str(t, cell_at(t, i, j), s, sizeof s);
      lytS_buf_printf(b, "| %*s ", w - 2, s);
    }
    lytS_buf_puts(b, "|\n");
  }
  rule(b, t->cols, w, rw + 2);
}

static int one_column_each(const lytI_picture *p) {
  if (p->ngrids < 2) return 0;
  for (int32_t g = 0; g < p->ngrids; g++)
    if (p->grid[g].cols != 1 || p->grid[g].rows != p->grid[0].rows) return 0;
  return 1;
}

void lytI_picture_text(lytS_buf *b, const lytI_picture *p) {
  lytS_buf_printf(b, "%s\n", p->title);
  if (one_column_each(p)) {
    tab t = { p, NULL, F_LABEL, p->grid[0].rows, p->ngrids };
    table(b, &t);
  } else {
    for (int32_t g = 0; g < p->ngrids; g++) {
      const lytI_pgrid *gr = &p->grid[g];
      tab t = { p, gr, F_LABEL, gr->rows, gr->cols };
      if (gr->name) lytS_buf_printf(b, "%s:\n", gr->name);
      table(b, &t);
    }
  }
  lytS_buf_puts(b, p->notes);
}

/* ---------------------------------------------------------------------
** banks
** ------------------------------------------------------------------- */

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* A warp reading row i in one go: the busiest bank serves this many
** distinct 4-byte words (1: no conflict; words shared are broadcast). */
static int64_t row_ways(lytS_ctx *cx, const lytI_picture *p, const lytI_pgrid *g, int64_t i) {
  int64_t *w = lytS_alloc(cx, sizeof *w * (size_t)g->cols), n = 0, per[32] = { 0 }, most = 0;
  for (int64_t j = 0; j < g->cols; j++)
    if (g->cell[i * g->cols + j].key >= 0) w[n++] = lytI_word_of(g->cell[i * g->cols + j].val, p->elem);
  qsort(w, (size_t)n, sizeof *w, cmp64);
  for (int64_t k = 0; k < n; k++) {
    if (k > 0 && w[k] == w[k - 1]) continue;
    int64_t bank = lytI_bank_of(w[k], 4);  /* word w is a 4-byte element at offset w */
    if (++per[bank] > most) most = per[bank];
  }
  return most;
}

void lytI_picture_banks(lytS_buf *b, const lytI_picture *p) {
  const lytI_pgrid *g = &p->grid[0];
  tab t = { p, g, F_TEXT, g->rows, g->cols };
  lytS_buf_printf(b, "%s\noffset of each element (%lld-byte elements):\n", p->title,
                  (long long)p->elem);
  table(b, &t);
  lytS_buf_puts(b, "bank of each element (32 banks of 4 bytes):\n");
  t.field = F_BANK;
  table(b, &t);
  lytS_buf_puts(b, "ways per row (distinct words in the busiest bank when a row is read):");
  for (int64_t i = 0; i < g->rows; i++)
    lytS_buf_printf(b, " %lld", (long long)row_ways(b->cx, p, g, i));
  lytS_buf_puts(b, "\n");
  lytS_buf_puts(b, p->notes);
}

/* ---------------------------------------------------------------------
** the default text of each kind
** ------------------------------------------------------------------- */

void lytI_picture_default(lyt_state *L, lytS_buf *b, const lyt_value *v, lyt_loc at) {
  if (v->kind == LYT_VLINEAR) { lytI_linear_view(L, b, v->u.ll, 0, at); return; }
  if (v->kind == LYT_VLAYOUT || v->kind == LYT_VCOMPOSED) {
    lytS_layout l = v->kind == LYT_VLAYOUT ? *v->u.lay : v->u.comp->inner;
    int32_t rank = lytS_lrank(l);
    if (rank == 1 || rank == 2) { lytI_layout_table(L, b, v, at); return; }
  }
  lytI_popts o;
  memset(&o, 0, sizeof o);
  lytI_picture p;
  lytI_picture_build(L, &p, v, &o, at);
  lytI_picture_text(b, &p);
}
