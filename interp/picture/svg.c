/*
** picture/svg.c: a picture as an SVG document.
**
** The grids stand side by side under the title, each cell a rectangle
** in its key's colour with its label (and second line) centred; row
** numbers to the left, column numbers above, then a legend of colours
** and the notes. Sizes are in user units at a 12-unit font: the cell
** width follows the longest label, so a 128 x 128 tensor is a large but
** legible image, and the viewBox lets any viewer scale it. Text is
** XML-escaped (titles hold `<` and `&`, as in Sw<3,3,3>).
*/
#include <stdio.h>
#include <string.h>

#include "interp/picture/picture.h"

#define FONT 12       /* label font size */
#define CHAR_W 7.3    /* width of a monospace character at FONT */
#define PAD 16        /* outer margin */
#define GAP 28        /* between grids */
#define LEGEND_MAX 32 /* swatches drawn; more keys are summarised */

typedef struct geom {
  double cw, ch;        /* cell size */
  double rowlab;        /* width of the row-number column */
  double top;           /* y of the first row of cells */
  double x[LYTI_PIC_MAXGRIDS];  /* left edge of each grid's cells */
  double y[LYTI_PIC_MAXGRIDS];  /* top edge of each grid's cells */
  double bottom;        /* below the lowest grid */
  double w, h;          /* the document */
  int64_t per_line;     /* legend keys on one line */
  int64_t legend_lines;
} geom;

/* ---------------------------------------------------------------------
** colours
** ------------------------------------------------------------------- */


static double absd(double x) { return x < 0 ? -x : x; }

/* HSL (h in degrees) to 0xRRGGBB, without libm. */
static uint32_t hsl(double h, double s, double l) {
  double c = (1 - absd(2 * l - 1)) * s, hp = h / 60;
  double hm = hp - 2 * (double)(int)(hp / 2);
  double x = c * (1 - absd(hm - 1)), r = 0, g = 0, b = 0;
  int sector = (int)hp;
  if (sector == 0) { r = c; g = x; }
  else if (sector == 1) { r = x; g = c; }
  else if (sector == 2) { g = c; b = x; }
  else if (sector == 3) { g = x; b = c; }
  else if (sector == 4) { r = x; b = c; }
  else { r = c; b = x; }
  double m = l - c / 2;
  uint32_t R = (uint32_t)((r + m) * 255 + 0.5), G = (uint32_t)((g + m) * 255 + 0.5);
  uint32_t B = (uint32_t)((b + m) * 255 + 0.5);
  return R << 16 | G << 8 | B;
}

/* Neighbouring keys (threads 0, 1, 2...) get hues far apart: the golden
** angle, with two lightnesses alternating. */
uint32_t lytI_picture_rgb(const lytI_picture *p, int64_t k) {
  if (k < 0) return 0xffffff;
  if (p->palette == LYTI_PAL_GREY8) {
    uint32_t v = (uint32_t)(255 * (100 - lytI_grey8[k % 8]) / 100);
    return v << 16 | v << 8 | v;
  }
  double h = (double)((k * 137508 / 1000) % 360);
  return hsl(h, 0.62, k % 2 ? 0.70 : 0.82);
}

static int dark(uint32_t rgb) {
  uint32_t r = rgb >> 16, g = rgb >> 8 & 255, b = rgb & 255;
  return r * 299 + g * 587 + b * 114 < 128 * 1000;
}

/* ---------------------------------------------------------------------
** text
** ------------------------------------------------------------------- */

static void esc(lytS_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '<') lytS_buf_puts(b, "&lt;");
    else if (*s == '>') lytS_buf_puts(b, "&gt;");
    else if (*s == '&') lytS_buf_puts(b, "&amp;");
    else if (*s == '"') lytS_buf_puts(b, "&quot;");
    else if (*s == '\'') lytS_buf_puts(b, "&apos;");
    else lytS_buf_add(b, s, 1);
  }
}

static void text(lytS_buf *b, double x, double y, const char *cls, const char *s) {
  lytS_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
  esc(b, s);
  lytS_buf_puts(b, "</text>\n");
}

static int ndig(int64_t x) {
  int d = 1;
  while (x >= 10) { x /= 10; d++; }
  return d;
}

/* ---------------------------------------------------------------------
** geometry
** ------------------------------------------------------------------- */

static int nlines(const char *s) {
  int n = s && *s ? 1 : 0;
  for (; s && *s; s++) n += *s == '\n' && s[1];
  return n;
}

static void measure(const lytI_picture *p, geom *g) {
  size_t len = 1;
  int sub = 0;
  int64_t rows = 1;
  for (int32_t k = 0; k < p->ngrids; k++) {
    const lytI_pgrid *gr = &p->grid[k];
    if (gr->rows > rows) rows = gr->rows;
    for (int64_t i = 0; i < gr->rows * gr->cols; i++) {
      const lytI_pcell *c = &gr->cell[i];
      if (strlen(c->text) > len) len = strlen(c->text);
      if (c->sub && strlen(c->sub) > len) len = strlen(c->sub);
      sub |= c->sub != NULL;
    }
  }
  g->cw = (double)len * CHAR_W + 12;
  if (g->cw < 30) g->cw = 30;
  g->ch = sub ? 36 : 24;
  g->rowlab = ndig(rows) * CHAR_W + 10;
  int named = p->grid[0].name != NULL;
  g->top = PAD + 26 + (named ? 20 : 0) + 16;
  double x = PAD + g->rowlab;
  for (int32_t k = 0; k < p->ngrids; k++) {
    g->x[k] = x;
    g->y[k] = g->top;
    x += (double)p->grid[k].cols * g->cw + GAP + g->rowlab;
  }
  if (p->figure == LYTI_FIG_MMA) {  /* A left of C, B above C */
    const lytI_pgrid *a = &p->grid[1], *bg = &p->grid[2];
    g->x[1] = PAD + g->rowlab;
    g->x[0] = g->x[2] = g->x[1] + (double)a->cols * g->cw + GAP + g->rowlab;
    g->y[0] = g->y[1] = g->top + (double)bg->rows * g->ch + GAP + 20;
    x = g->x[0] + (double)p->grid[0].cols * g->cw + GAP + g->rowlab;
  }
  g->bottom = 0;
  for (int32_t k = 0; k < p->ngrids; k++)
    if (g->y[k] + (double)p->grid[k].rows * g->ch > g->bottom)
      g->bottom = g->y[k] + (double)p->grid[k].rows * g->ch;
  double tw = PAD * 2 + (double)strlen(p->title) * 8.5;
  g->w = x - GAP - g->rowlab + PAD;
  if (g->w < tw) g->w = tw;
  if (g->w < 420) g->w = 420;
  int64_t shown = p->nkeys < LEGEND_MAX ? p->nkeys : LEGEND_MAX;
  g->per_line = (int64_t)((g->w - 2 * PAD) / 56);
  if (g->per_line < 1) g->per_line = 1;
  g->legend_lines = (shown + g->per_line - 1) / g->per_line;
  g->h = g->bottom + 30 + 20 + (double)g->legend_lines * 22 +
         nlines(p->notes) * 18 + PAD;
}

/* ---------------------------------------------------------------------
** drawing
** ------------------------------------------------------------------- */

static void cell(lytS_buf *b, const lytI_picture *p, const geom *g, double x, double y,
                 const lytI_pcell *c) {
  uint32_t rgb = lytI_picture_rgb(p, c->key);
  lytS_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\" "
                  "class=\"%s\"/>\n", x, y, g->cw, g->ch, (unsigned)rgb, c->key < 0 ? "e" : "c");
  if (c->key < 0) return;
  const char *cls = dark(rgb) ? "t w" : "t";
  if (!c->sub) { text(b, x + g->cw / 2, y + g->ch / 2, cls, c->text); return; }
  text(b, x + g->cw / 2, y + g->ch * 0.32, cls, c->text);
  text(b, x + g->cw / 2, y + g->ch * 0.72, dark(rgb) ? "s w" : "s", c->sub);
}

static void grid(lytS_buf *b, const lytI_picture *p, const geom *g, int32_t k) {
  const lytI_pgrid *gr = &p->grid[k];
  double x0 = g->x[k], y0 = g->y[k];
  char num[32];
  if (gr->name) text(b, x0, y0 - 22, "n", gr->name);
  for (int64_t j = 0; j < gr->cols; j++) {
    snprintf(num, sizeof num, "%lld", (long long)j);
    text(b, x0 + ((double)j + 0.5) * g->cw, y0 - 5, "i", num);
  }
  for (int64_t i = 0; i < gr->rows; i++) {
    snprintf(num, sizeof num, "%lld", (long long)i);
    text(b, x0 - 5, y0 + ((double)i + 0.5) * g->ch, "r", num);
    for (int64_t j = 0; j < gr->cols; j++)
      cell(b, p, g, x0 + (double)j * g->cw, y0 + (double)i * g->ch, &gr->cell[i * gr->cols + j]);
  }
}

static void legend(lytS_buf *b, const lytI_picture *p, const geom *g, double y) {
  lytS_buf buf;
  lytS_buf_init(&buf, b->cx);
  lytS_buf_printf(&buf, "colour: %s", p->keyname);
  if (p->nkeys > LEGEND_MAX)
    lytS_buf_printf(&buf, " (%lld keys; the first %d shown)", (long long)p->nkeys, LEGEND_MAX);
  text(b, PAD, y, "l", buf.p);
  int64_t shown = p->nkeys < LEGEND_MAX ? p->nkeys : LEGEND_MAX;
  char num[32];
  for (int64_t k = 0; k < shown; k++) {
    double x = PAD + (double)(k % g->per_line) * 56, yy = y + 10 + (double)(k / g->per_line) * 22;
    lytS_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"16\" fill=\"#%06x\" "
                    "class=\"g\"/>\n", x, yy, (unsigned)lytI_picture_rgb(p, k));
    snprintf(num, sizeof num, "%lld", (long long)k);
    text(b, x + 20, yy + 12, "k", num);
  }
}

static void notes(lytS_buf *b, const lytI_picture *p, double y) {
  const char *s = p->notes;
  char line[512];
  while (*s) {
    size_t n = strcspn(s, "\n");
    size_t m = n < sizeof line - 1 ? n : sizeof line - 1;
    memcpy(line, s, m);
    line[m] = 0;
    text(b, PAD, y, "l", line);
    y += 18;
    s += n + (s[n] == '\n');
  }
}

void lytI_picture_svg(lytS_buf *b, const lytI_picture *p) {
  geom g;
  measure(p, &g);
  lytS_buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans Mono, monospace\">\n",
                  g.w, g.h, g.w, g.h);
  lytS_buf_puts(b, "<style>.c,.g{stroke:#333;stroke-width:0.6}.e{stroke:#bbb;stroke-width:0.6}"
                   ".t{font-size:12px;text-anchor:middle;dominant-baseline:central}"
                   ".s{font-size:10px;text-anchor:middle;dominant-baseline:central}"
                   ".w{fill:#fff}.i{font-size:10px;fill:#555;text-anchor:middle}"
                   ".r{font-size:10px;fill:#555;text-anchor:end;dominant-baseline:central}"
                   ".h{font-size:14px;font-weight:bold}.n{font-size:13px;font-weight:bold}"
                   ".l{font-size:12px}.k{font-size:11px}</style>\n");
  lytS_buf_printf(b, "<title>");
  esc(b, p->title);
  lytS_buf_puts(b, "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
  text(b, PAD, PAD + 12, "h", p->title);
  for (int32_t k = 0; k < p->ngrids; k++) grid(b, p, &g, k);
  double y = g.bottom + 30;
  legend(b, p, &g, y);
  notes(b, p, y + 20 + (double)g.legend_lines * 22 + 14);
  lytS_buf_puts(b, "</svg>\n");
}
