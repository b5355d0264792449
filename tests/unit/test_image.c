/*
** test_image.c: every stdlib image (lang/image.h) against its file parsed
** now: the text it holds is the file's, and its tree, every function body
** made, is the parser's node for node (kind, operator, location, value,
** text, counts, the same shape of children). Each mismatch is named.
*/
#include <stdlib.h>

#include "harness.h"
#include "lang/image.h"

#ifndef LYT_STDLIB_DIR
#error "LYT_STDLIB_DIR: the folder of the stdlib the images were made from"
#endif

/* Names interned by text, as a state does: a linear table is enough here. */
static const char *names[8192];
static int nnames;

static const char *intern(void *ud, const char *s, size_t n) {
  (void)ud;
  for (int i = 0; i < nnames; i++)
    if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) return names[i];
  if (nnames == (int)(sizeof names / sizeof *names)) return NULL;
  char *c = lytS_alloc(&cx, n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return names[nnames++] = c;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = lytS_alloc(&cx, (size_t)n + 1);
  *len = fread(p, 1, (size_t)n, f);
  p[*len] = 0;
  fclose(f);
  return p;
}

static int differ(const char *file, const lytP_node *a, const lytP_node *b);

static int differ_list(const char *file, const lytP_node *a, const lytP_node *b) {
  for (; a && b; a = a->next, b = b->next)
    if (differ(file, a, b)) return 1;
  return a != b;
}

/* a from the parser, b from the image; bodies are made as they are met */
static int differ(const char *file, const lytP_node *a, const lytP_node *b) {
  if (!a || !b) return a != b;
  if (b->kind == N_FNDEF || b->kind == N_FUNC) b = lytP_body(b);
  int same = a->kind == b->kind && a->op == b->op && a->loc.line == b->loc.line &&
             a->loc.col == b->loc.col && a->ival == b->ival && a->len == b->len && a->n == b->n &&
             (a->str ? b->str && memcmp(a->str, b->str, (size_t)a->len) == 0 &&
                       strcmp(a->str, b->str) == 0 : !b->str);
  if (!same) {
    printf("FAIL %s:%d:%d: the image's node differs from the parser's\n", file, (int)a->loc.line,
           (int)a->loc.col);
    return 1;
  }
  return differ(file, a->a, b->a) || differ(file, a->b, b->b) || differ(file, a->c, b->c) ||
         differ_list(file, a->list, b->list);
}

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
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  if (setjmp(jb)) {
    printf("FAIL: %s\n", cx.msg);
    return 1;
  }
  (void)errtext;  /* the harness's; these checks compare their own texts */
  int n = 0;
  for (const lytP_image *const *im = lytP_images; *im; im++, n++) check_image(*im);
  check("images", n >= 4 ? "all" : "too few", "all");
  check_other_text();
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
