/*
** picture/latex.c: a picture as TikZ, in the shape of CuTe's print_latex.
**
** For a stride layout the text is CuTe's: a "% Layout:" comment, a
** standalone document whose tikzpicture turns x down and y right (so
** (m,n) is row m, column n), one \node[fill=black!NN] per cell with the
** 8-grey map indexed by offset mod 8, the grid, then the row labels at
** (m,-1) and the column labels at (-1,n). A TV picture is CuTe's
** print_latex_tv: a "% Layout TV:" comment, each cell as
** \shortstack{T<t> \\ V<v>} in CuTe's 8 TV colours by thread mod 8, the
** cells in (thread, value) order, and none where no thread lands. Other kinds
** follow the same frame; an Axe layout's grids stand side by side,
** each named above its first column.
*/
#include <string.h>

#include "interp/picture/picture.h"


/* TeX's specials in a label or name (axis names hold `_`). */
static void tex(lytS_buf *b, const char *s) {
  for (; *s; s++) {
    if (strchr("_&%$#{}", *s)) { lytS_buf_add(b, "\\", 1); lytS_buf_add(b, s, 1); }
    else if (*s == '~' || *s == '^' || *s == '\\') lytS_buf_printf(b, "\\char%d{}", *s);
    else lytS_buf_add(b, s, 1);
  }
}

/* CuTe's TikzColor_TV: pastels, by thread mod 8. */
static const uint32_t tv8[8] = { 0xafafff, 0xafffaf, 0xffffaf, 0xffafaf,
                                 0xd2d2ff, 0xd2ffd2, 0xffffd2, 0xffd2d2 };

static void fill(lytS_buf *b, const lytI_picture *p, const lytI_pgrid *g, int64_t key) {
  if (p->palette == LYTI_PAL_GREY8) { lytS_buf_printf(b, "black!%02d", lytI_grey8[key % 8]); return; }
  uint32_t c = g->order ? tv8[key % 8] : lytI_picture_rgb(p, key);
  lytS_buf_printf(b, "{rgb,255:red,%u;green,%u;blue,%u}", (unsigned)(c >> 16),
                  (unsigned)(c >> 8 & 255), (unsigned)(c & 255));
}

static void node(lytS_buf *b, const lytI_picture *p, const lytI_pgrid *g, int64_t at) {
  const lytI_pcell *c = &g->cell[at];
  if (c->key < 0) return;
  lytS_buf_puts(b, "\\node[fill=");
  fill(b, p, g, c->key);
  lytS_buf_printf(b, "] at (%lld,%lld) {", (long long)(at / g->cols + g->row0),
                  (long long)(at % g->cols + g->col0));
  if (c->sub) {
    lytS_buf_puts(b, "\\shortstack{");
    tex(b, c->text);
    lytS_buf_puts(b, " \\\\ ");
    tex(b, c->sub);
    lytS_buf_puts(b, "}");
  } else {
    tex(b, c->text);
  }
  lytS_buf_puts(b, "};\n");
}

static void cells(lytS_buf *b, const lytI_picture *p, const lytI_pgrid *g) {
  if (g->order)
    for (int64_t k = 0; k < g->norder; k++) node(b, p, g, g->order[k]);
  else
    for (int64_t at = 0; at < g->rows * g->cols; at++) node(b, p, g, at);
}

static void label(lytS_buf *b, int64_t row, int64_t col, int64_t n) {
  lytS_buf_printf(b, "\\node at (%lld,%lld) {\\Large{\\texttt{%lld}}};\n", (long long)row,
                  (long long)col, (long long)n);
}

/* Row numbers in column `col`, column numbers above the grid, in the
** order CuTe writes them. */
static void labels(lytS_buf *b, const lytI_pgrid *g, int64_t col, int rows_first) {
  for (int pass = 0; pass < 2; pass++)
    if (pass == !rows_first)
      for (int64_t i = 0; i < g->rows; i++) label(b, g->row0 + i, col, i);
    else
      for (int64_t j = 0; j < g->cols; j++) label(b, g->row0 - 1, g->col0 + j, j);
}

/* A figure's grid is drawn from corner to corner; the grids of other
** pictures are shifted, as CuTe's print_latex of one layout draws it. */
static void frame(lytS_buf *b, const lytI_picture *p, const lytI_pgrid *g) {
  if (p->figure == LYTI_FIG_ROW)
    lytS_buf_printf(b, "\\draw[color=black,thick,shift={(-0.5,%.1f)}] (0,0) grid (%lld,%lld);\n\n",
                    (double)g->col0 - 0.5, (long long)g->rows, (long long)g->cols);
  else
    lytS_buf_printf(b, "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (%lld,%lld) grid (%lld,%lld);\n\n",
                    (long long)g->row0, (long long)g->col0, (long long)(g->row0 + g->rows),
                    (long long)(g->col0 + g->cols));
}

void lytI_picture_latex(lytS_buf *b, const lytI_picture *p) {
  int tv = 0;
  for (int32_t k = 0; k < p->ngrids; k++)
    if (p->grid[k].tv_title) lytS_buf_printf(b, "%% %s\n", p->grid[k].tv_title), tv = 1;
  if (!tv) lytS_buf_printf(b, "%% Layout: %s\n", p->title);
  lytS_buf_puts(b, "\\documentclass[convert]{standalone}\n"
                   "\\usepackage{tikz}\n\n"
                   "\\begin{document}\n"
                   "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
                   "every node/.style={minimum size=1cm, outer sep=0pt}]\n\n");
  for (int32_t k = 0; k < p->ngrids; k++) {
    const lytI_pgrid *g = &p->grid[k];
    if (g->name && p->figure == LYTI_FIG_ROW) {
      lytS_buf_printf(b, "\\node[anchor=west] at (-2,%lld) {\\texttt{", (long long)g->col0);
      tex(b, g->name);
      lytS_buf_puts(b, "}};\n");
    }
    cells(b, p, g);
    frame(b, p, g);
    /* CuTe labels no C; B's columns come first; D's rows stand at its right */
    if (p->figure == LYTI_FIG_MMA && k == 0) continue;
    int right = p->figure == LYTI_FIG_COPY && k == 1;
    labels(b, g, right ? g->col0 + g->cols : g->col0 - 1, !(p->figure == LYTI_FIG_MMA && k == 2));
  }
  if (*p->notes) {
    lytS_buf_puts(b, "% ");
    for (const char *s = p->notes; *s; s++) {
      lytS_buf_add(b, s, 1);
      if (*s == '\n' && s[1]) lytS_buf_puts(b, "% ");
    }
  }
  lytS_buf_puts(b, "\\end{tikzpicture}\n\\end{document}\n");
}
