/*
** runner.c: the language test runner. Runs, through the embedding API,
**   golden  X.lyt beside X.out: the whole output (and diagnostic) must match;
**   diff    lines "expr => expected" computed by a reference; "=> error" must
**           fail; "#! source" lines run first in the file's state (imports);
**   errors  catalogues of "=== name / source / --- / expected diagnostic".
** Prints one line per failure and ends with "N passed, M failed".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

typedef struct text {
  char *p;
  size_t n, cap;
} text;

static void add(text *t, const char *s, size_t n) {
  if (t->n + n + 1 > t->cap) {
    t->cap = (t->n + n + 1) * 2;
    t->p = realloc(t->p, t->cap);
    if (!t->p) { fputs("runner: out of memory\n", stderr); exit(2); }
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  t->p[t->n] = 0;
}

static void capture(void *ud, const char *s, size_t n) { add(ud, s, n); }

static int passed, failed;

static void verdict(int ok, const char *name, const char *got, const char *want) {
  if (ok) { passed++; return; }
  failed++;
  printf("FAIL %s\n--- expected\n%s\n--- got\n%s\n", name, want, got);
}

static lyt_state *open_capturing(text *out) {
  lyt_config c;
  lyt_config_init(&c);
  c.write = capture;
  c.write_ud = out;
  lyt_state *L = lyt_open(&c);
  if (!L) { fputs("runner: lyt_open failed\n", stderr); exit(2); }
  return L;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  text t = { 0 };
  char buf[4096];
  size_t r;
  add(&t, "", 0);
  while ((r = fread(buf, 1, sizeof buf, f)) > 0) add(&t, buf, r);
  fclose(f);
  return t.p;
}

static void golden(const char *path) {
  size_t n = strlen(path);
  char *want_path = malloc(n + 2);
  memcpy(want_path, path, n - 3);
  strcpy(want_path + n - 3, "out");
  char *want = slurp(want_path);
  text out = { 0 };
  add(&out, "", 0);
  lyt_state *L = open_capturing(&out);
  if (lyt_dofile(L, path) != LYT_OK) add(&out, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
  verdict(want && strcmp(out.p, want) == 0, path, out.p, want ? want : "(no .out file)");
  lyt_close(L);
  free(out.p);
  free(want);
  free(want_path);
}

static void diff_case(lyt_state *L, text *out, const char *file, int line, char *expr, char *want) {
  char name[512];
  snprintf(name, sizeof name, "%s:%d: %s", file, line, expr);
  text src = { 0 };
  add(&src, "print ", 6);
  add(&src, expr, strlen(expr));
  out->n = 0;
  add(out, "", 0);
  int s = lyt_dostring(L, src.p, "<case>");
  if (strcmp(want, "error") == 0) {
    verdict(s != LYT_OK, name, out->p, "an error");
  } else {
    if (s != LYT_OK) add(out, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
    size_t w = strlen(want);
    int ok = s == LYT_OK && out->n == w + 1 && strncmp(out->p, want, w) == 0;
    verdict(ok, name, out->p, want);
  }
  free(src.p);
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) e--;
  *e = 0;
  return s;
}

static void diff(const char *path) {
  char *all = slurp(path);
  if (!all) { verdict(0, path, "unreadable", "a file"); return; }
  text out = { 0 };
  lyt_state *L = open_capturing(&out);
  int line = 0;
  for (char *s = all, *nl; s && *s; s = nl) {
    nl = strchr(s, '\n');
    if (nl) *nl++ = 0;
    line++;
    char *t = trim(s), *arrow = strstr(t, " => ");
    if (t[0] == '#' && t[1] == '!') {  /* setup, e.g. #! import "triton.lyt" */
      if (lyt_dostring(L, t + 2, path) != LYT_OK)  /* counted only when it fails */
        verdict(0, path, lyt_diagnostic(L), "a setup line that runs");
      continue;
    }
    if (!*t || *t == '#') continue;
    if (!arrow) { verdict(0, path, t, "a line 'expr => expected'"); continue; }
    *arrow = 0;
    diff_case(L, &out, path, line, trim(t), trim(arrow + 4));
  }
  lyt_close(L);
  free(out.p);
  free(all);
}

/* One catalogue case: source and expected diagnostic, separated by ---. */
static void error_case(const char *file, const char *name, const char *src, const char *want) {
  char label[512];
  snprintf(label, sizeof label, "%s: %s", file, name);
  text out = { 0 };
  add(&out, "", 0);
  lyt_state *L = open_capturing(&out);
  int s = lyt_dostring(L, src, "input");
  if (s != LYT_OK) add(&out, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
  else add(&out, "(no error)\n", 11);
  verdict(s != LYT_OK && strcmp(out.p, want) == 0, label, out.p, want);
  lyt_close(L);
  free(out.p);
}

static void errors(const char *path) {
  char *all = slurp(path);
  if (!all) { verdict(0, path, "unreadable", "a file"); return; }
  char *s = strstr(all, "=== ");
  while (s) {
    char *name = s + 4, *nl = strchr(name, '\n');
    if (!nl) break;
    *nl = 0;
    char *src = nl + 1, *sep = strstr(src, "\n---\n"), *next;
    if (!sep) { verdict(0, name, "no --- separator", "a case"); break; }
    *sep = 0;
    char *want = sep + 5;
    next = strstr(want, "=== ");
    while (next && next != want && next[-1] != '\n') next = strstr(next + 1, "=== ");
    if (next) next[0] = 0;
    error_case(path, name, src, want);
    if (next) next[0] = '=';
    s = next;
  }
  free(all);
}

int main(int argc, char **argv) {
  if (argc < 2) { fputs("usage: runner golden|diff|errors files...\n", stderr); return 2; }
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[1], "golden") == 0) golden(argv[i]);
    else if (strcmp(argv[1], "diff") == 0) diff(argv[i]);
    else errors(argv[i]);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
