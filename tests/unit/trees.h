/*
** trees.h: what the tests of syntax trees share (test_image.c,
** test_parse.c): names interned by text, as a state does, a file read
** whole into the harness's arena, and two trees compared node by node
** (kind, operator, location, value, text, counts, the same shape of
** children), a function's body made from its image when it has one.
** Included after harness.h by one file per test program.
*/
#ifndef LYT_TEST_TREES_H
#define LYT_TEST_TREES_H

#include <stdint.h>
#include <stdlib.h>

#include "lang/image.h"

#define NAME_SLOTS (1 << 16)
static const char *names[NAME_SLOTS];

static const char *intern(void *ud, const char *s, size_t n) {
  (void)ud;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  for (uint32_t k = 0; k < NAME_SLOTS; k++) {
    const char **e = &names[(h + k) & (NAME_SLOTS - 1)];
    if (*e && strlen(*e) == n && memcmp(*e, s, n) == 0) return *e;
    if (*e) continue;
    char *c = lytS_alloc(&cx, n + 1);
    memcpy(c, s, n);
    c[n] = 0;
    return *e = c;
  }
  return NULL;
}

/* The harness's arena and context; main then sets the jump for errors. */
static void trees_init(void) {
  lytA_init(&arena, NULL, NULL, 0);
  cx.arena = &arena;
  cx.jb = &jb;
  (void)errtext;  /* the harness's; these checks compare their own texts */
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

/* Whether tree a differs from tree b, the first difference named. */
static int differ(const char *file, const lytP_node *a, const lytP_node *b) {
  if (!a || !b) return a != b;
  if (b->kind == N_FNDEF || b->kind == N_FUNC) b = lytP_body(b);
  int same = a->kind == b->kind && a->op == b->op && a->loc.line == b->loc.line &&
             a->loc.col == b->loc.col && a->ival == b->ival && a->len == b->len && a->n == b->n &&
             (a->str ? b->str && memcmp(a->str, b->str, (size_t)a->len) == 0 &&
                       strcmp(a->str, b->str) == 0 : !b->str);
  if (!same) {
    printf("FAIL %s:%d:%d: the trees differ at this node\n", file, (int)a->loc.line,
           (int)a->loc.col);
    return 1;
  }
  return differ(file, a->a, b->a) || differ(file, a->b, b->b) || differ(file, a->c, b->c) ||
         differ_list(file, a->list, b->list);
}

#endif
