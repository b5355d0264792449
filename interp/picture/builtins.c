/*
** picture/builtins.c: layouts drawn: text pictures, SVG files and TikZ.
**
** Every builtin builds the one picture model of picture/picture.c (cells from
** evaluating the layout) and hands it to a renderer, so picture(),
** picture_cells(), banks(), svg() and latex() of one layout always show
** the same cells. picture(L) with no options is what `show L` writes.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backends/kernel.h"
#include "interp/linear/linear.h"
#include "interp/picture/picture.h"

#define P(...) { __VA_ARGS__, NULL }

/* Parameter slots shared by the builtins that take drawing options. */
typedef struct slots { int shape, tv, elem, color; } slots;

static void get_shape(lytI_call *c, int i, lytI_popts *o) {
  if (i < 0 || lytI_isnil(c, i)) return;
  o->rank = lytI_getints(c, i, o->shape, 1, 2);
  for (int32_t k = 0; k < o->rank; k++)
    if (o->shape[k] <= 0)
      lytI_argerr(c, i, "%s: a shape's extents must be positive, got %lld", c->self->name,
                  (long long)o->shape[k]);
}

static void get_tv(lytI_call *c, int i, lytI_popts *o) {
  if (i < 0 || lytI_isnil(c, i)) return;
  int64_t mn[2];
  lytI_getints(c, i, mn, 2, 2);
  if (mn[0] <= 0 || mn[1] <= 0)
    lytI_argerr(c, i, "%s: tv=(M,N) needs a positive tile, got (%lld,%lld)", c->self->name,
                (long long)mn[0], (long long)mn[1]);
  o->tv_m = mn[0];
  o->tv_n = mn[1];
}

/* An element type's size: "f16", "i8", ... or a byte count 1, 2, 4, 8. */
static void get_elem(lytI_call *c, int i, lytI_popts *o) {
  if (i < 0 || lytI_isnil(c, i)) return;
  const lyt_value *v = &c->argv[i];
  if (v->kind == LYT_VINT && (v->u.i == 1 || v->u.i == 2 || v->u.i == 4 || v->u.i == 8)) {
    o->elem = v->u.i;
    return;
  }
  if (v->kind == LYT_VSTR && (o->elem = lytK_type_bytes(v->u.str.s)) != 0) return;
  lytI_argerr(c, i, "%s: elem is an element type (\"i8\", \"f16\", \"bf16\", \"f32\", \"f64\", "
              "...) or a byte count 1, 2, 4 or 8", c->self->name);
}

static void get_color(lytI_call *c, int i, lytI_popts *o) {
  if (i < 0 || lytI_isnil(c, i)) return;
  if (c->argv[i].kind != LYT_VSTR)
    lytI_argerr(c, i, "%s: color is a string such as \"thread\" or \"bank\", got %s",
                c->self->name, lytI_kindname(c->argv[i].kind));
  o->color = c->argv[i].u.str.s;
}

/* The options at the given slots (-1: the builtin has none), and the picture. */
static void build(lytI_call *c, lytI_picture *p, slots s, lytI_popts *o) {
  memset(o, 0, sizeof *o);
  get_shape(c, s.shape, o);
  get_tv(c, s.tv, o);
  get_elem(c, s.elem, o);
  get_color(c, s.color, o);
  if (o->tv_m > 0 && o->rank > 0)
    lytI_argerr(c, s.tv, "%s: give shape= or tv=, not both", c->self->name);
  lytI_picture_build(c->L, p, &c->argv[0], o, c->loc);
}

static int no_options(lytI_call *c) {
  for (int i = 1; i < c->argc; i++)
    if (!lytI_isnil(c, i)) return 0;
  return 1;
}

/* The text without its last newline, so that `print picture(L)` writes
** exactly what `show L` does. */
static lyt_value text_value(const lytS_buf *b) {
  lyt_value v = { .kind = LYT_VSTR };
  size_t n = b->n;
  if (n > 0 && b->p[n - 1] == '\n') b->p[--n] = 0;
  v.u.str.s = b->p;
  v.u.str.len = (int64_t)n;
  return v;
}

static void check_bytes(lytI_call *c, const lytS_buf *b) {
  if (b->n > LYTI_PIC_MAX_BYTES)
    lytI_error(c->L, c->loc, LYT_ERRLIMIT, "%s: %zu bytes of output are too many (limit %d MiB)",
               c->self->name, b->n, LYTI_PIC_MAX_BYTES >> 20);
}

/* picture(L, shape=nil, tv=nil, elem=nil, color=nil) */
static lyt_value b_picture(lytI_call *c) {
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  if (no_options(c)) {
    lytI_picture_default(c->L, &b, &c->argv[0], c->loc);
    return text_value(&b);
  }
  lytI_picture p;
  lytI_popts o;
  build(c, &p, (slots){ 1, 2, 3, 4 }, &o);
  lytI_picture_text(&b, &p);
  return text_value(&b);
}

static lyt_value rows_value(lytI_call *c, const lytI_pgrid *g) {
  lyt_value t = lytI_tuple(c, (int32_t)g->rows);
  for (int64_t i = 0; i < g->rows; i++) {
    lyt_value r = lytI_tuple(c, (int32_t)g->cols);
    for (int64_t j = 0; j < g->cols; j++) r.u.tup.e[j] = lytI_str(c, g->cell[i * g->cols + j].text);
    t.u.tup.e[i] = r;
  }
  return t;
}

/* picture_cells(...): the labels, as rows of strings; an Axe layout's
** grids as a record {axis: rows}. */
static lyt_value b_picture_cells(lytI_call *c) {
  lytI_picture p;
  lytI_popts o;
  build(c, &p, (slots){ 1, 2, 3, 4 }, &o);
  if (p.ngrids == 1 && !p.grid[0].name) return rows_value(c, &p.grid[0]);
  const char *names[LYTI_PIC_MAXGRIDS];
  for (int32_t g = 0; g < p.ngrids; g++) names[g] = p.grid[g].name;
  lyt_value r = lytI_record(c, p.ngrids, names);
  for (int32_t g = 0; g < p.ngrids; g++) r.u.rec.e[g] = rows_value(c, &p.grid[g]);
  return r;
}

/* banks(L, elem="f16", shape=nil) */
static lyt_value b_banks(lytI_call *c) {
  int kind = c->argv[0].kind;
  int shared_linear = kind == LYT_VLINEAR;
  if (kind != LYT_VLAYOUT && kind != LYT_VCOMPOSED && !shared_linear)
    lytI_argerr(c, 0, "banks: needs a shared-memory layout (a stride or swizzled layout, or a "
                "linear layout from offset), got %s %s", lytI_article(kind), lytI_kindname(kind));
  if (shared_linear && lytG_in_index(c->argv[0].u.ll, "offset") < 0)
    lytI_argerr(c, 0, "banks: a linear layout's in-dims must be offset (and block), not %s",
                lytG_in_names(lytI_cx(c), c->argv[0].u.ll));
  lytI_picture p;
  lytI_popts o;
  memset(&o, 0, sizeof o);
  get_elem(c, 1, &o);
  get_shape(c, 2, &o);
  o.color = "bank";
  lytI_picture_build(c->L, &p, &c->argv[0], &o, c->loc);
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  lytI_picture_banks(&b, &p);
  return text_value(&b);
}

static const char *why(int e) {
  if (e == ENOENT) return "no such directory";
  if (e == EACCES || e == EPERM) return "permission denied";
  if (e == EISDIR) return "is a directory";
  if (e == ENOSPC) return "no space left";
  return "cannot open for writing";
}

/* Argument i, a string (the caller checked it before building the picture). */
static void write_file(lytI_call *c, int i, const lytS_buf *b) {
  const char *path = c->argv[i].u.str.s;
  if (c->L->cfg.no_file_writes)
    lytI_argerr(c, i, "%s: the host does not allow writing files (no_file_writes)", c->self->name);
  errno = 0;
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(b->p, 1, b->n, f) == b->n;
  int e = errno;
  if (f && fclose(f) != 0) { ok = 0; e = errno; }
  if (!ok)
    lytI_error(c->L, c->argloc[i], LYT_ERRFILE, "%s: cannot write '%s' (%s)", c->self->name,
               path, why(e));
}

/* svg(L, path, shape=nil, color=nil, elem=nil, tv=nil) */
static lyt_value b_svg(lytI_call *c) {
  lytI_picture p;
  lytI_popts o;
  if (c->argv[1].kind != LYT_VSTR)
    lytI_argerr(c, 1, "svg: the path must be a string, got %s", lytI_kindname(c->argv[1].kind));
  build(c, &p, (slots){ 2, 5, 4, 3 }, &o);
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  lytI_picture_svg(&b, &p);
  check_bytes(c, &b);
  write_file(c, 1, &b);
  return lytI_nil();
}

/* latex(L, shape=nil, tv=nil, color=nil, elem=nil) */
static lyt_value b_latex(lytI_call *c) {
  lytI_picture p;
  lytI_popts o;
  build(c, &p, (slots){ 1, 2, 4, 3 }, &o);
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  lytI_picture_latex(&b, &p);
  check_bytes(c, &b);
  return text_value(&b);
}

const lytI_builtin lytI_picture_lib[] = {
  { "picture", b_picture, 1, 0, P("L", "shape", "tv", "elem", "color"), "picture(L[, shape, tv, elem, color]): the text picture (no options: what show writes)",
    "picture((4,8):(8,1))" },
  { "picture_cells", b_picture_cells, 1, 0, P("L", "shape", "tv", "elem", "color"), "picture_cells(L[, shape, tv, elem, color]): the cell labels as rows of strings ({axis: rows} for Axe)",
    "picture_cells((2,3):(3,1))" },
  { "banks", b_banks, 1, 0, P("L", "elem", "shape"), "banks(L[, elem=\"f16\", shape]): each element's shared-memory offset and bank (32 x 4 bytes)",
    "banks(to_linear(swizzled_shared(2, 1, 4, (1,0)), (8,16)), elem=\"f16\")" },
  { "svg", b_svg, 2, 0, P("L", "path", "shape", "color", "elem", "tv"), "svg(L, path[, shape, color, elem, tv]): write the picture as an SVG file",
    "svg((4,8):(8,1), \"layout.svg\")" },
  { "latex", b_latex, 1, 0, P("L", "shape", "tv", "color", "elem"), "latex(L[, shape, tv, color, elem]): CuTe print_latex-style TikZ text",
    "latex((2,3):(3,1))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};
