/*
** image.c: the nodes of a syntax tree made at build time (lang/image.h).
*/
#include <string.h>

#include "lang/image.h"

const lytP_image *lytP_image_of(const lytL_src *src) {
  for (const lytP_image *const *im = lytP_images; *im; im++)
    if ((*im)->len == src->len && memcmp((*im)->text, src->text, src->len) == 0) return *im;
  return NULL;
}

/* Nodes first..first+n of the image into v[0..n). A function whose body
** is left for later keeps its index in ival (0 in every parsed
** N_FNDEF) and a NULL body. */
static void make(const lytP_imaged *z, const lytL_src *src, lytP_node *v, int32_t first,
                 int32_t n) {
  const lytP_image *im = z->im;
#define AT(i) ((i) == LYTP_NONE ? NULL : &v[(i) - first])
  for (int32_t k = 0; k < n; k++) {
    const lytP_inode *d = &im->node[first + k];
    const char *s = NULL;
    if (d->str != LYTP_NONE && d->name) {
      s = im->strs + im->names[d->str];
      if (!(s = z->intern(z->ud, s, strlen(s)))) lytS_fail(z->cx, LYT_ERRMEM, "out of memory");
    } else if (d->str != LYTP_NONE) {
      s = im->strs + d->str;
    }
    v[k] = (lytP_node){
      .kind = d->kind, .op = d->op, .loc = { src, d->line, d->col }, .ival = d->ival, .str = s,
      .len = d->len, .n = d->n, .list = AT(d->list), .next = AT(d->next), .fn = NULL };
    if (d->lazy) {
      v[k].ival = first + k + 1;
    } else {
      v[k].a = AT(d->a), v[k].b = AT(d->b), v[k].c = AT(d->c);
    }
  }
#undef AT
}

static lytP_node *nodes(const lytP_imaged *z, int32_t n) {
  lytP_node *v = lytA_alloc(z->arena, sizeof *v * (size_t)(n ? n : 1));
  if (!v) lytS_fail_alloc(z->cx, z->arena);
  return v;
}

const lytP_node *lytP_image_load(lytL_src *src, lytP_imaged *z) {
  src->image = z;
  lytP_node *v = nodes(z, z->im->nskel);
  make(z, src, v, 0, z->im->nskel);
  return z->im->root == LYTP_NONE ? NULL : &v[z->im->root];
}

const lytP_node *lytP_body(const lytP_node *fn) {
  if (fn->a) return fn;
  const lytP_imaged *z = fn->loc.src->image;
  const lytP_inode *d = &z->im->node[fn->ival - 1];
  lytP_node *v = nodes(z, d->c - d->a);
  make(z, fn->loc.src, v, d->a, d->c - d->a);
  lytP_node *f = (lytP_node *)fn;  /* nodes live in their state's arena */
  f->a = v;
  f->ival = 0;
  return fn;
}
