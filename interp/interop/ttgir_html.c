/*
** interop/ttgir_html.c: explain's record as one HTML page that needs
** nothing else (no script, no stylesheet or font from the network).
**
** The encodings come first, each drawn at the type it is laid out at:
** which thread and register hold each element of a distributed layout,
** each element's bank for a shared one. Then every op in line order; a
** conversion shows its source and destination pictures side by side under
** its mechanism. The pictures are picture/svg.c's, inline.
*/
#include <string.h>

#include "interp/interop/interop.h"
#include "interp/linear/linear.h"
#include "interp/picture/picture.h"

/* Pictures larger than this are described, not drawn: a page of many
** 128x128 grids is already several megabytes. */
#define HTML_MAX_CELLS 16384

static const lyt_value *fld(const lyt_value *r, const char *name) {
  for (int32_t i = 0; r && r->kind == LYT_VRECORD && i < r->u.rec.n; i++)
    if (strcmp(r->u.rec.name[i], name) == 0) return &r->u.rec.e[i];
  return NULL;
}

static const char *sfld(const lyt_value *r, const char *name) {
  const lyt_value *v = fld(r, name);
  return v && v->kind == LYT_VSTR ? v->u.str.s : NULL;
}

static long long ifld(const lyt_value *r, const char *name) {
  const lyt_value *v = fld(r, name);
  return v && v->kind == LYT_VINT ? (long long)v->u.i : 0;
}

static void esc(lytS_buf *b, const char *s) {
  for (; s && *s; s++) {
    if (*s == '<') lytS_buf_puts(b, "&lt;");
    else if (*s == '>') lytS_buf_puts(b, "&gt;");
    else if (*s == '&') lytS_buf_puts(b, "&amp;");
    else if (*s == '"') lytS_buf_puts(b, "&quot;");
    else lytS_buf_add(b, s, 1);
  }
}

/* pre, then text escaped, then post. */
static void wrap(lytS_buf *b, const char *pre, const char *text, const char *post) {
  lytS_buf_puts(b, pre);
  esc(b, text);
  lytS_buf_puts(b, post);
}

/* Bytes per element of a type's element ("f16" in tensor<64x64xf16, ...>). */
static int64_t elem_bytes(const char *type) {
  const char *c = type ? strchr(type, ',') : NULL;
  if (!c) return 2;
  const char *x = c;
  while (x > type && x[-1] != 'x' && x[-1] != '<') x--;
  int64_t bits = 0;
  for (const char *p = x; p < c; p++)
    if (*p >= '0' && *p <= '9') bits = bits * 10 + (*p - '0');
    else if (bits) break;
  return bits >= 8 ? bits / 8 : 1;
}

static int64_t cells(const lytG_ll *ll) {
  int64_t n = 1;
  for (int32_t k = 0; k < ll->nout; k++) n *= lytG_out_size(ll, k);
  return n;
}

/* The picture of a linear layout, inline; shared layouts (an "offset"
** in-dim) coloured by bank. */
static void picture(lyt_state *L, lytS_buf *b, const lyt_value *v, const char *type, lyt_loc at) {
  if (!v || v->kind != LYT_VLINEAR) return;
  const lytG_ll *ll = v->u.ll;
  if (ll->nout > 2 || cells(ll) > HTML_MAX_CELLS) {
    lytS_buf_printf(b, "<p class=\"note\">not drawn: %lld elements in %d dims (this page draws at "
                    "most %d, in 1 or 2 dims)</p>\n", (long long)cells(ll), (int)ll->nout,
                    HTML_MAX_CELLS);
    return;
  }
  lytI_popts o;
  memset(&o, 0, sizeof o);
  int shared = lytG_in_index(ll, "offset") >= 0;
  o.elem = elem_bytes(type);
  o.color = shared ? "bank" : NULL;
  lytI_picture p;
  lytI_picture_build(L, &p, v, &o, at);
  lytS_buf svg;
  lytS_buf_init(&svg, b->cx);
  lytI_picture_svg(&svg, &p);
  const char *s = strstr(svg.p, "<svg");  /* inline: no XML declaration */
  lytS_buf_puts(b, s ? s : svg.p);
}

static void encoding(lyt_state *L, lytS_buf *b, const lyt_value *e, lyt_loc at) {
  const char *name = sfld(e, "name");
  lytS_buf_printf(b, "<section id=\"enc-%s\"><h3>", name + 1);
  esc(b, name);
  lytS_buf_printf(b, " <small>line %lld</small></h3>\n<p><code>", ifld(e, "line"));
  esc(b, sfld(e, "text"));
  lytS_buf_puts(b, "</code></p>\n");
  if (sfld(e, "linear")) {
    wrap(b, "<p>laid out at <code>", sfld(e, "type"), "</code>:</p>\n<pre>");
    esc(b, sfld(e, "linear"));
    lytS_buf_puts(b, "</pre>\n");
    picture(L, b, fld(e, "layout"), sfld(e, "type"), at);
  } else if (sfld(e, "note")) {
    wrap(b, "<p class=\"note\">", sfld(e, "note"), "</p>\n");
  }
  lytS_buf_puts(b, "</section>\n");
}

/* The dims of a type's text: "128x64" of "tensor<128x64xf16, #mma>". */
static size_t dims(const char *t, const char **start) {
  const char *s = t ? strchr(t, '<') : NULL, *c = s ? strchr(s, ',') : NULL;
  if (!c) return 0;
  const char *x = c;
  while (x > s && *x != 'x') x--;
  *start = s + 1;
  return (size_t)(x - s - 1);
}

/* The encoding section that already draws alias [enc] at [type]'s shape. */
static const lyt_value *drawn(const lyt_value *r, const char *enc, const char *type) {
  const lyt_value *l = fld(r, "encodings");
  const char *a, *b;
  size_t na = dims(type, &a);
  for (int32_t i = 0; enc && na && i < l->u.tup.n; i++) {
    const lyt_value *e = &l->u.tup.e[i];
    if (sfld(e, "name") && strcmp(sfld(e, "name"), enc) == 0 && fld(e, "layout") &&
        fld(e, "layout")->kind == LYT_VLINEAR && dims(sfld(e, "type"), &b) == na &&
        memcmp(a, b, na) == 0)
      return e;
  }
  return NULL;
}

/* One side's access to shared memory, in a <tag>: its PTX, how much it
** moves, and Triton's conflict model where it has one. */
static void access_line(lytS_buf *b, const char *tag, const char *label, const lyt_value *sd) {
  lytS_buf_printf(b, "<%s>%s: <code>", tag, label);
  esc(b, sfld(sd, "ptx"));
  lytS_buf_printf(b, "</code>, %lld elements, %lld per thread", ifld(sd, "elements"),
                  ifld(sd, "per_thread"));
  if (fld(sd, "conflicts")->kind == LYT_VINT)
    lytS_buf_printf(b, "; %lld extra wavefront(s) per access (Triton's model)",
                    ifld(sd, "conflicts"));
  lytS_buf_printf(b, "</%s>\n", tag);
}

static void conversion(lyt_state *L, lytS_buf *b, const lyt_value *r, const lyt_value *e, lyt_loc at) {
  const char *m = sfld(e, "mechanism");
  lytS_buf_printf(b, "<section id=\"line-%lld\" class=\"op\"><h3>line %lld: ttg.convert_layout "
                  "<span class=\"mech %s\">%s</span></h3>\n<p>", ifld(e, "line"), ifld(e, "line"), m, m);
  esc(b, sfld(e, "why"));
  lytS_buf_puts(b, "</p>\n<div class=\"pair\">\n");
  const char *side[2][2] = { { "from", "from_layout" }, { "to", "to_layout" } };
  for (int k = 0; k < 2; k++) {
    lytS_buf_printf(b, "<figure><figcaption>%s <code>", side[k][0]);
    esc(b, sfld(e, side[k][0]));
    lytS_buf_puts(b, "</code></figcaption>\n");
    const lyt_value *d = drawn(r, sfld(e, side[k][0]), sfld(e, "type"));
    if (d)  /* drawn once, under its encoding */
      lytS_buf_printf(b, "<p><a href=\"#enc-%s\">drawn under %s</a></p>\n", sfld(d, "name") + 1,
                      sfld(d, "name"));
    else
      picture(L, b, fld(e, side[k][1]), sfld(e, "type"), at);
    lytS_buf_puts(b, "</figure>\n");
  }
  wrap(b, "</div>\n<p>on <code>", sfld(e, "type"), "</code></p>\n");
  if (sfld(e, "minimal")) {
    wrap(b, "<p>the conversion (destination hardware index to source):</p><pre>", sfld(e, "minimal"), "</pre>\n");
  }
  const lyt_value *sh = fld(e, "shared");
  if (sh && sh->kind == LYT_VRECORD) {
    lytS_buf_printf(b, "<p>scratch: %lld round(s) of %lld elements, offset and round to element:</p>"
                    "<pre>", ifld(sh, "rounds"), ifld(sh, "scratch"));
    esc(b, sfld(sh, "scratch_linear"));
    lytS_buf_puts(b, "</pre>\n<ul>\n");
    static const char *const sides[] = { "store", "load" };
    for (int k = 0; k < 2; k++) access_line(b, "li", sides[k], fld(sh, sides[k]));
    lytS_buf_puts(b, "</ul>\n");
  }
  lytS_buf_puts(b, "</section>\n");
}

static void access(lytS_buf *b, const lyt_value *e, const char *list) {
  lytS_buf_printf(b, "<section id=\"line-%lld\" class=\"op\"><h3>line %lld: ", ifld(e, "line"),
                  ifld(e, "line"));
  if (strcmp(list, "unknown") == 0) {
    wrap(b, "unknown ", sfld(e, "what"), " <code>");
    esc(b, sfld(e, "name"));
    wrap(b, "</code></h3>\n<p class=\"note\">", sfld(e, "note"), "</p></section>\n");
    return;
  }
  esc(b, sfld(e, "op"));
  lytS_buf_puts(b, "</h3>\n");
  const char *parts[2] = { "tensor", "memdesc" };
  for (int k = 0; k < 2; k++)
    if (sfld(e, parts[k])) {
      lytS_buf_printf(b, "<p>%s <code>", parts[k]);
      esc(b, sfld(e, parts[k]));
      lytS_buf_puts(b, "</code></p>\n");
    }
  const lyt_value *ac = fld(e, "access");
  if (ac && ac->kind == LYT_VRECORD) access_line(b, "p", "access", ac);
  if (sfld(e, "ptx")) {
    lytS_buf_printf(b, "<p>vector: %lld elements (<code>%s</code>), %lld per thread%s</p>\n<p class=\"note\">",
                    ifld(e, "vector"), sfld(e, "ptx"), ifld(e, "accesses"),
                    fld(e, "exact")->u.i ? "" : ", at least");
    esc(b, sfld(e, "why"));
    lytS_buf_puts(b, "</p>\n");
  }
  lytS_buf_puts(b, "</section>\n");
}

struct op_ud { lyt_state *L; lytS_buf *b; const lyt_value *r; lyt_loc at; };

static void op_item(void *ud, const char *list, const lyt_value *e) {
  struct op_ud *u = ud;
  if (strcmp(list, "conversions") == 0) conversion(u->L, u->b, u->r, e, u->at);
  else access(u->b, e, list);
}

void lytI_explain_html(lyt_state *L, lytS_buf *b, const lyt_value *r, lyt_loc at) {
  const lyt_value *m = fld(r, "module");
  lytS_buf_puts(b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>lyt --explain ");
  esc(b, sfld(m, "file"));
  lytS_buf_puts(b, "</title>\n<style>body{font-family:sans-serif;margin:24px;color:#222}"
                   "code,pre{font-family:monospace;font-size:12px}pre{white-space:pre-wrap;"
                   "background:#f6f6f6;padding:6px}section{border-top:1px solid #ccc;padding:6px 0}"
                   ".pair{display:flex;gap:24px;align-items:flex-start;overflow-x:auto}"
                   "figure{margin:0}.note{color:#666}.mech{padding:1px 6px;border-radius:3px;"
                   "color:#fff}.none{background:#2a7}.registers{background:#27a}"
                   ".shuffle{background:#a72}.shared{background:#a22}.unknown,.ctas{background:#555}"
                   "</style></head><body>\n<h1>");
  esc(b, sfld(m, "file"));
  char w[24], t[24], c[24];
  lytS_buf_printf(b, "</h1>\n<p>%s warps of %s threads, %s CTA(s), target ",
                  lytI_explain_count(m, "num_warps", w, sizeof w),
                  lytI_explain_count(m, "threads_per_warp", t, sizeof t),
                  lytI_explain_count(m, "num_ctas", c, sizeof c));
  esc(b, sfld(m, "target") ? sfld(m, "target") : "?");
  lytS_buf_puts(b, "</p>\n<h2>Encodings</h2>\n");
  const lyt_value *l = fld(r, "encodings");
  for (int32_t i = 0; i < l->u.tup.n; i++) encoding(L, b, &l->u.tup.e[i], at);
  lytS_buf_puts(b, "<h2>Operations</h2>\n");
  struct op_ud u = { L, b, r, at };
  lytI_explain_each(r, op_item, &u);
  lytS_buf_puts(b, "</body></html>\n");
  if (b->n > LYTI_PIC_MAX_BYTES)
    lytI_error(L, at, LYT_ERRLIMIT, "explain: %zu bytes of HTML are too many (limit %d MiB)", b->n,
               LYTI_PIC_MAX_BYTES >> 20);
}
