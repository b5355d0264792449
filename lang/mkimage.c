/*
** mkimage.c: the build's tool that parses stdlib files and writes their
** syntax trees as C arrays (lang/image.h), one lytP_image a file.
**
**   mkimage stdlib/cute.lyt stdlib/triton.lyt ... > build/gen/image.c
**
** It links the front end alone (lexer, parser, builders, arenas). A file
** that does not parse fails the build with the parser's diagnostics.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/image.h"

/* Pointers to small ids, by open addressing: nodes to their index,
** interned names to theirs. */
typedef struct idmap {
  const void **key;
  int32_t *id;
  size_t cap, n;
} idmap;

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) { fprintf(stderr, "mkimage: out of memory\n"); exit(1); }
  return p;
}

static size_t slot(const idmap *m, const void *k) {
  size_t h = (size_t)((uintptr_t)k >> 3) * 0x9E3779B97F4A7C15ull;
  for (h &= m->cap - 1; m->key[h] && m->key[h] != k; h = (h + 1) & (m->cap - 1)) {}
  return h;
}

static void put(idmap *m, const void *k, int32_t id) {
  if (2 * (m->n + 1) > m->cap) {
    idmap g = { xcalloc(m->cap ? 2 * m->cap : 1024, sizeof *g.key), NULL,
                m->cap ? 2 * m->cap : 1024, 0 };
    g.id = xcalloc(g.cap, sizeof *g.id);
    for (size_t i = 0; i < m->cap; i++)
      if (m->key[i]) put(&g, m->key[i], m->id[i]);
    free(m->key), free(m->id);
    *m = g;
  }
  size_t h = slot(m, k);
  if (!m->key[h]) m->n++;
  m->key[h] = k, m->id[h] = id;
}

static int32_t get(const idmap *m, const void *k) {
  if (!k) return LYTP_NONE;
  size_t h = m->cap ? slot(m, k) : 0;
  return m->cap && m->key[h] ? m->id[h] : LYTP_NONE;
}

/* Names: one copy each, as the interpreter's table makes them, found by
** their text (a table of string pointers hashed by content). */
static const char **bytext;
static size_t captext, nnames;

static size_t text_slot(const char *s, size_t n) {
  size_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  for (h &= captext - 1; bytext[h]; h = (h + 1) & (captext - 1))
    if (strlen(bytext[h]) == n && memcmp(bytext[h], s, n) == 0) break;
  return h;
}

static const char *intern(void *ud, const char *s, size_t n) {
  (void)ud;
  if (2 * (nnames + 1) > captext) {
    const char **was = bytext;
    size_t cap = captext;
    captext = captext ? 2 * captext : 1024;
    bytext = xcalloc(captext, sizeof *bytext);
    for (size_t i = 0; i < cap; i++)
      if (was[i]) bytext[text_slot(was[i], strlen(was[i]))] = was[i];
    free(was);
  }
  size_t h = text_slot(s, n);
  if (bytext[h]) return bytext[h];
  char *c = xcalloc(n + 1, 1);
  memcpy(c, s, n);
  nnames++;
  return bytext[h] = c;
}

/* Is s an interned name (not a decoded text with the same bytes)? */
static int is_name(const char *s) { return captext && bytext[text_slot(s, strlen(s))] == s; }

/* The tree's nodes in the order of a walk (a node before its children,
** lists in order), each numbered once: first the top-level statements
** with everything but the bodies of the functions they define, then each
** such body, a range of its own (lang/image.h). */
static const lytP_node **order;
static size_t norder, caporder;
static idmap node_ids;
static idmap body_end;  /* a lazy function's node: the end of its body's range */

static void add(const lytP_node *n) {
  if (norder == caporder) {
    caporder = caporder ? 2 * caporder : 4096;
    const lytP_node **g = xcalloc(caporder, sizeof *g);
    if (norder) memcpy(g, order, norder * sizeof *g);
    free(order);
    order = g;
  }
  put(&node_ids, n, (int32_t)norder);
  order[norder++] = n;
}

static void number(const lytP_node *n) {
  for (; n && get(&node_ids, n) == LYTP_NONE; n = n->next) {
    add(n);
    number(n->a), number(n->b), number(n->c), number(n->list);
  }
}

static int lazy(const lytP_node *s) { return s->kind == N_FNDEF; }

/* The number of nodes a load makes first (lang/image.h). */
static int32_t number_tree(const lytP_node *first) {
  for (const lytP_node *s = first; s; s = s->next) {
    add(s);
    if (!lazy(s)) {
      number(s->a), number(s->b), number(s->c), number(s->list);
      continue;
    }
    if (s->ival || s->b || s->c || s->a->next) {
      fprintf(stderr, "mkimage: a function definition the image cannot hold\n");
      exit(1);
    }
    number(s->list);
  }
  int32_t nskel = (int32_t)norder;
  for (const lytP_node *s = first; s; s = s->next)
    if (lazy(s)) {
      number(s->a);
      put(&body_end, s, (int32_t)norder);
    }
  return nskel;
}

/* Where a node's pointer may lead: into the range it is made with. */
static void check_child(const lytP_node *from, const lytP_node *to, int32_t lo, int32_t hi) {
  int32_t i = get(&node_ids, to);
  if (to && (i < lo || i >= hi)) {
    fprintf(stderr, "mkimage: line %d: a node shared across ranges\n", (int)from->loc.line);
    exit(1);
  }
}

static void check_range(int32_t lo, int32_t hi) {
  for (int32_t i = lo; i < hi; i++) {
    const lytP_node *n = order[i];
    check_child(n, n->list, lo, hi), check_child(n, n->next, lo, hi);
    if (get(&body_end, n) != LYTP_NONE) continue;
    check_child(n, n->a, lo, hi), check_child(n, n->b, lo, hi), check_child(n, n->c, lo, hi);
  }
}

/* C string literal text for n bytes, split over lines. */
static void quote(const char *s, size_t n) {
  printf("\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '\\' || ch == '"') printf("\\%c", ch);
    else if (ch == '\n') printf("\\n\"\n\"");
    else if (ch >= 32 && ch < 127 && ch != '?') putchar(ch);
    else printf("\\%03o", ch);
  }
  printf("\"");
}

typedef struct text { char *p; size_t n, cap; } text;

/* Decoded strings of the file, back to back with their NULs; names first
** (their offsets listed), then texts. */
static int32_t add_bytes(text *t, const char *s, size_t n) {
  if (t->n + n + 1 > t->cap) {
    t->cap = 2 * (t->n + n + 1);
    char *g = xcalloc(t->cap, 1);
    if (t->n) memcpy(g, t->p, t->n);
    free(t->p);
    t->p = g;
  }
  memcpy(t->p + t->n, s, n);
  t->p[t->n + n] = 0;
  t->n += n + 1;
  return (int32_t)(t->n - n - 1);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "mkimage: cannot read %s\n", path);
    exit(1);
  }
  char *p = xcalloc((size_t)n + 1, 1);
  *len = fread(p, 1, (size_t)n, f);
  fclose(f);
  return p;
}

static void image(const char *path, int k) {
  static lytA_arena arena;
  static lytS_ctx cx;
  static jmp_buf jb;
  lytA_init(&arena, NULL, NULL, 0);
  memset(&cx, 0, sizeof cx);
  cx.arena = &arena, cx.jb = &jb;
  if (setjmp(jb)) { fprintf(stderr, "mkimage: %s: %s\n", path, cx.msg); exit(1); }
  lytL_src src = { path, NULL, 0, 0, 1, NULL };
  src.text = slurp(path, &src.len);
  lytP_ctx p;
  memset(&p, 0, sizeof p);
  p.cx = &cx, p.src = &src, p.intern = intern;
  p.cur = p.linestart = src.text, p.line = 1;
  lytS_buf_init(&p.diag, &cx);
  if (lytP_parse(&p) != LYT_OK) { fprintf(stderr, "%s", p.diag.p); exit(1); }
  free(node_ids.key), free(node_ids.id), free(body_end.key), free(body_end.id);
  memset(&node_ids, 0, sizeof node_ids);
  memset(&body_end, 0, sizeof body_end);
  norder = 0;
  int32_t nskel = number_tree(p.stmts.head);
  check_range(0, nskel);
  for (size_t i = 0; i < (size_t)nskel; i++)
    if (get(&body_end, order[i]) != LYTP_NONE)
      check_range(get(&node_ids, order[i]->a), get(&body_end, order[i]));
  /* the names this file uses, renumbered from 0, then its texts */
  idmap used = { NULL, NULL, 0, 0 };
  text strs = { NULL, 0, 0 };
  int32_t *noff = xcalloc(norder, sizeof *noff), nused = 0;
  for (size_t i = 0; i < norder; i++) {
    const char *s = order[i]->str;
    if (s && is_name(s) && get(&used, s) == LYTP_NONE) {
      noff[nused] = add_bytes(&strs, s, strlen(s));
      put(&used, s, nused++);
    }
  }
  int32_t *soff = xcalloc(norder, sizeof *soff);
  for (size_t i = 0; i < norder; i++) {
    const lytP_node *n = order[i];
    if (!n->str || get(&used, n->str) != LYTP_NONE) continue;
    /* a decoded text may hold NULs: len counts its bytes where set */
    size_t len = strlen(n->str) > (size_t)n->len ? strlen(n->str) : (size_t)n->len;
    soff[i] = add_bytes(&strs, n->str, len);
  }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  printf("\n/* %s */\nstatic const lytP_inode node%d[] = {\n", base, k);
  for (size_t i = 0; i < norder; i++) {
    const lytP_node *n = order[i];
    int32_t nm = n->str ? get(&used, n->str) : LYTP_NONE;
    int32_t end = get(&body_end, n);
    printf("  {%d,%d,%d,%d,%d,%d,%lldll,%d,%d,%d,%d,%d,%d,%d,%d},\n", n->kind, n->op,
           nm != LYTP_NONE, end != LYTP_NONE, (int)n->loc.line, (int)n->loc.col,
           (long long)n->ival, !n->str ? LYTP_NONE : nm != LYTP_NONE ? nm : soff[i],
           (int)n->len, (int)n->n, get(&node_ids, n->a), get(&node_ids, n->b),
           end != LYTP_NONE ? end : get(&node_ids, n->c), get(&node_ids, n->list),
           get(&node_ids, n->next));
  }
  printf("  {0,0,0,0,0,0,0ll,-1,0,0,-1,-1,-1,-1,-1}\n};\n");
  printf("static const int32_t names%d[] = {", k);
  for (int32_t i = 0; i < nused; i++) printf("%s%d,", i % 16 ? "" : "\n  ", (int)noff[i]);
  printf("\n  -1\n};\nstatic const char strs%d[] =\n", k);
  quote(strs.p ? strs.p : "", strs.n);
  printf(";\nstatic const char text%d[] =\n", k);
  quote(src.text, src.len);
  printf(";\nstatic const lytP_image image%d = { \"%s\", text%d, %zu, node%d, %d, %d, "
         "strs%d, names%d };\n", k, base, k, src.len, k, (int)nskel,
         get(&node_ids, p.stmts.head), k, k);
  free(noff), free(soff), free(strs.p), free(used.key), free(used.id), free((char *)src.text);
  lytA_free(&arena);
}

int main(int argc, char **argv) {
  printf("/* Made by lang/mkimage.c from the stdlib when lyt was built: do not edit. */\n"
         "#include \"lang/image.h\"\n");
  for (int k = 1; k < argc; k++) image(argv[k], k);
  printf("\nconst lytP_image *const lytP_images[] = {");
  for (int k = 1; k < argc; k++) printf(" &image%d,", k);
  printf(" NULL };\n");
  return 0;
}
