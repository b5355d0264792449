/*
** runner.c: the language test runner. Runs, through the embedding API,
**   golden  X.lyt beside X.out: the whole output (and diagnostic) must match,
**           with templates and without;
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

/* templates: whether lines may share their statement's code
** (interp/eval/template.c); without, every line is parsed. */
static lyt_state *open_capturing(text *out, int templates) {
  lyt_config c;
  lyt_config_init(&c);
  if (!templates) c.template_memory = 0;
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

/* X.lyt's output and diagnostic, with templates and without. */
static void golden(const char *path) {
  size_t n = strlen(path);
  char *want_path = malloc(n + 2);
  memcpy(want_path, path, n - 3);
  strcpy(want_path + n - 3, "out");
  char *want = slurp(want_path);
  for (int plain = 0; plain < 2; plain++) {
    text out = { 0 };
    add(&out, "", 0);
    lyt_state *L = open_capturing(&out, !plain);
    if (lyt_dofile(L, path) != LYT_OK) add(&out, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
    char name[512];
    snprintf(name, sizeof name, "%s%s", path, plain ? " (without templates)" : "");
    verdict(want && strcmp(out.p, want) == 0, name, out.p, want ? want : "(no .out file)");
    lyt_close(L);
    free(out.p);
  }
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

/* The cases that do not fail, run again as one script, a line each after
** the setup lines: what each prints must be the same. There, lines that
** differ only in their numbers share one statement's code (lyt's
** templates, interp/eval/template.c), which the reference checks too. */
static void diff_script(const char *path, const char *script, const char *want) {
  text out = { 0 };
  add(&out, "", 0);
  lyt_state *L = open_capturing(&out, 1);
  if (lyt_dostring(L, script, path) != LYT_OK) add(&out, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
  size_t i = 0;
  while (out.p[i] && out.p[i] == want[i]) i++;
  size_t at = i;  /* the first line that differs */
  while (at > 0 && out.p[at - 1] != '\n') at--;
  char name[512];
  snprintf(name, sizeof name, "%s, its cases as one script", path);
  verdict(out.p[i] == want[i], name, out.p + at, want + at);
  lyt_close(L);
  free(out.p);
}

static void diff(const char *path) {
  char *all = slurp(path);
  if (!all) { verdict(0, path, "unreadable", "a file"); return; }
  text out = { 0 }, script = { 0 }, want = { 0 };
  add(&script, "", 0);
  add(&want, "", 0);
  lyt_state *L = open_capturing(&out, 1);
  int line = 0;
  for (char *s = all, *nl; s && *s; s = nl) {
    nl = strchr(s, '\n');
    if (nl) *nl++ = 0;
    line++;
    char *t = trim(s), *arrow = strstr(t, " => ");
    if (t[0] == '#' && t[1] == '!') {  /* setup, e.g. #! import "triton.lyt" */
      if (lyt_dostring(L, t + 2, path) != LYT_OK)  /* counted only when it fails */
        verdict(0, path, lyt_diagnostic(L), "a setup line that runs");
      add(&script, t + 2, strlen(t + 2));
      add(&script, "\n", 1);
      continue;
    }
    if (!*t || *t == '#') continue;
    if (!arrow) { verdict(0, path, t, "a line 'expr => expected'"); continue; }
    *arrow = 0;
    char *expr = trim(t), *expected = trim(arrow + 4);
    diff_case(L, &out, path, line, expr, expected);
    if (strcmp(expected, "error") != 0) {
      add(&script, "print ", 6);
      add(&script, expr, strlen(expr));
      add(&script, "\n", 1);
      add(&want, expected, strlen(expected));
      add(&want, "\n", 1);
    }
  }
  lyt_close(L);
  diff_script(path, script.p, want.p);
  free(out.p);
  free(script.p);
  free(want.p);
  free(all);
}

/* One catalogue case: source and expected diagnostic, separated by ---. */
static void error_case(const char *file, const char *name, const char *src, const char *want) {
  char label[512];
  snprintf(label, sizeof label, "%s: %s", file, name);
  text out = { 0 };
  add(&out, "", 0);
  lyt_state *L = open_capturing(&out, 1);
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
