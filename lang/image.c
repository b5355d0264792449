/*
** image.c: the nodes of a syntax tree made at build time (lang/image.h).
*/
#include <string.h>

#include "lang/image.h"

static const lytP_image *find(const lytL_src *src) {
  for (const lytP_image *const *im = lytP_images; *im; im++)
    if ((*im)->len == src->len && memcmp((*im)->text, src->text, src->len) == 0) return *im;
  return NULL;
}

static lytP_node *at(lytP_node *v, int32_t i) { return i == LYTP_NONE ? NULL : &v[i]; }

int lytP_image_load(lytS_ctx *cx, const lytL_src *src, lytP_intern_fn intern, void *ud,
                    const lytP_node **first) {
  const lytP_image *im = find(src);
  if (!im) return 0;
  const char **names = lytS_alloc(cx, sizeof *names * (size_t)(im->nnames + 1));
  for (int32_t i = 0; i < im->nnames; i++) {
    const char *s = im->strs + im->names[i];
    if (!(names[i] = intern(ud, s, strlen(s)))) lytS_fail(cx, LYT_ERRMEM, "out of memory");
  }
  lytP_node *v = lytS_alloc(cx, sizeof *v * (size_t)(im->nnode + 1));
  for (int32_t i = 0; i < im->nnode; i++) {
    const lytP_inode *d = &im->node[i];
    v[i] = (lytP_node){
      .kind = d->kind, .op = d->op, .loc = { src, d->line, d->col }, .ival = d->ival,
      .str = d->str == LYTP_NONE ? NULL : d->name ? names[d->str] : im->strs + d->str,
      .len = d->len, .n = d->n, .a = at(v, d->a), .b = at(v, d->b), .c = at(v, d->c),
      .list = at(v, d->list), .next = at(v, d->next), .fn = NULL };
  }
  *first = at(v, im->root);
  return 1;
}
