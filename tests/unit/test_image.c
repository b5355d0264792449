/*
** test_image.c: every stdlib image (lang/image.h) against its file parsed
** now: the text it holds is the file's, and its tree, every function body
** made, is the parser's node for node (kind, operator, location, value,
** text, counts, the same shape of children). Each mismatch is named.
*/
#include "harness.h"
#include "trees.h"

#ifndef LYT_STDLIB_DIR
#error "LYT_STDLIB_DIR: the folder of the stdlib the images were made from"
#endif

static void check_image(const lytP_image *im) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", LYT_STDLIB_DIR, im->file);
  size_t len = 0;
  char *text = slurp(path, &len);
  lytL_src src = { im->file, text ? text : "", len, 0, 1, NULL };
  check(im->file, text ? "read" : "missing", "read");
  check(im->file, lytP_image_of(&src) == im ? "its image" : "another", "its image");
  lytP_ctx p;
  memset(&p, 0, sizeof p);
  p.cx = &cx, p.src = &src, p.intern = intern;
  p.cur = p.linestart = src.text, p.line = 1;
  lytS_buf_init(&p.diag, &cx);
  check(im->file, lytP_parse(&p) == LYT_OK ? "parsed" : p.errmsg, "parsed");
  lytL_src src2 = src;
  lytP_imaged z = { im, &cx, &arena, intern, NULL };
  const lytP_node *first = lytP_image_load(&src2, &z);
  check(im->file, differ_list(im->file, p.stmts.head, first) ? "differs" : "same tree", "same tree");
}

/* A text one byte off has no image. */
static void check_other_text(void) {
  const lytP_image *im = lytP_images[0];
  char *t = lytS_alloc(&cx, im->len + 1);
  memcpy(t, im->text, im->len + 1);
  t[im->len / 2] ^= 1;
  lytL_src src = { "x", t, im->len, 0, 1, NULL };
  check("one byte off", lytP_image_of(&src) ? "an image" : "none", "none");
}

int main(void) {
  trees_init();
  if (setjmp(jb)) {
    printf("FAIL: %s\n", cx.msg);
    return 1;
  }
  int n = 0;
  for (const lytP_image *const *im = lytP_images; *im; im++, n++) check_image(*im);
  check("images", n >= 4 ? "all" : "too few", "all");
  check_other_text();
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
