/*
** picture/picture.h: a layout as a picture, the model behind picture(), svg(),
** latex(), banks() and `show` of Axe and nested layouts.
**
** A picture is one or more grids (an Axe layout: one per axis, side by
** side) over the layout's logical tensor. Each cell carries a label, an
** optional second line and a colour key. Every cell is computed by
** evaluating the layout through its own core (the stride evaluator, the
** GF(2) apply, the Axe forward map, the nested owner map), never by a
** second implementation, so a picture cannot disagree with evaluation.
** The renderers (picture/text.c, picture/svg.c, picture/latex.c) only
** read the model.
*/
#ifndef LYT_PICTURE_H
#define LYT_PICTURE_H

#include "interp/eval/state.h"
#include "interp/stride/values.h"

#define LYTI_PIC_MAX_CELLS (1 << 16)       /* all grids together; bigger is not for reading */
#define LYTI_PIC_MAX_BYTES (64 << 20)      /* an SVG or TikZ text larger is refused */
#define LYTI_PIC_MAXGRIDS 16               /* one per Axe axis (LYTX_MAXAXES) */

/* How keys become colours: CuTe's 8 greys (print_latex) or spread hues. */
enum { LYTI_PAL_GREY8, LYTI_PAL_HUE };
/* CuTe's print_latex greys: key k is black!NN with NN = lytI_grey8[k % 8]. */
extern const int lytI_grey8[8];

typedef struct lytI_pcell {
  const char *text;     /* the label; "" for an element no slot holds */
  const char *sub;      /* a second line (warp, value, bank), or NULL */
  int64_t key;          /* colour key, >= 0; -1: not coloured (empty) */
  int64_t val;          /* the number behind the label: offset, thread, axis value */
} lytI_pcell;

typedef struct lytI_pgrid {
  const char *name;     /* caption (an Axe axis, a TV panel), or NULL for a lone grid */
  int64_t rows, cols;
  lytI_pcell *cell;     /* rows*cols, row-major */
  /* A TV grid: its filled cells (row-major) in the order CuTe's
  ** print_latex visits them, thread by thread, value by value, so the
  ** TikZ text can follow it; NULL for other grids. */
  int64_t *order;
  int64_t norder;
  const char *tv_title; /* the layout its TikZ comment names (see tv_title in picture/picture.c) */
  int64_t row0, col0;   /* where a figure puts its cell (0,0), in cells (TikZ's coordinates) */
} lytI_pgrid;

/* How the grids stand: side by side, or as CuTe's print_latex draws a
** TiledMMA (C, with A left of it and B, transposed, above it) or a
** TiledCopy (source, then destination three columns to its right). */
enum { LYTI_FIG_ROW, LYTI_FIG_MMA, LYTI_FIG_COPY };

typedef struct lytI_picture {
  const char *title;    /* the layout as `print` writes it */
  int32_t ngrids;
  lytI_pgrid grid[LYTI_PIC_MAXGRIDS];
  int palette;          /* LYTI_PAL_* */
  int64_t nkeys;        /* keys lie in [0, nkeys) (one bound over all grids of an Axe layout) */
  const char *keyname;  /* what a colour tells: "thread", "bank", "offset mod 8", ... */
  const char *notes;    /* lines written under the picture; "" if none */
  int64_t elem;         /* bytes per element, for the bank of an offset */
  int figure;           /* LYTI_FIG_* */
} lytI_picture;

/* What the caller asked for; zero fields take the kind's defaults. */
typedef struct lytI_popts {
  int32_t rank;         /* 0: default shape; 1 or 2: shape[] */
  int64_t shape[2];
  int64_t tv_m, tv_n;   /* > 0: a (thread, value) layout over an M x N tile */
  int64_t elem;         /* bytes per element; 0: 2 (f16) */
  const char *color;    /* "thread", "warp", "register", "bank", "offset", "value"; NULL: default */
} lytI_popts;

/* picture/picture.c */
void lytI_picture_build(lyt_state *L, lytI_picture *p, const lyt_value *v, const lytI_popts *o,
                        lyt_loc at);
int64_t lytI_word_of(int64_t offset, int64_t elem);   /* the 4-byte word of an element */
int64_t lytI_bank_of(int64_t offset, int64_t elem);   /* 32 banks of 4 bytes */

/* picture/text.c: the grids as CuTe print_layout tables; banks: the
** offset and bank tables of a shared-memory picture. */
void lytI_picture_text(lytS_buf *b, const lytI_picture *p);
void lytI_picture_banks(lytS_buf *b, const lytI_picture *p);
/* The text `show` writes and picture(L) returns with no options. */
void lytI_picture_default(lyt_state *L, lytS_buf *b, const lyt_value *v, lyt_loc at);

/* show.c: `show` of a stride layout (CuTe's print_layout table) and of an
** Axe or nested layout (the default picture); the table of a layout of
** rank 1 or 2, appended to b. */
void lytI_show_table(lyt_state *L, const lyt_value *v, lyt_loc at);
void lytI_show_picture(lyt_state *L, const lyt_value *v, lyt_loc at);
void lytI_show_figure(lyt_state *L, const lyt_value *v, lyt_loc at);
void lytI_layout_table(lyt_state *L, lytS_buf *b, const lyt_value *v, lyt_loc at);

extern const lytI_builtin lytI_picture_lib[];

/* picture/svg.c / picture/latex.c */
void lytI_picture_svg(lytS_buf *b, const lytI_picture *p);
void lytI_picture_latex(lytS_buf *b, const lytI_picture *p);
/* The colour of key k of n as 0xRRGGBB. */
uint32_t lytI_picture_rgb(const lytI_picture *p, int64_t k);

#endif
