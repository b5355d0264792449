/*
** test_limits.c: every resource limit of a state ends the statement with
** LYT_ERRLIMIT (or LYT_ERRFILE for a file) and a message, never with a
** crash or a hang, and the state stays usable: evaluation steps, call
** depth, memory per statement, file size, parser nesting.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

static int npass, nfail;

static void expect(const char *name, lyt_state *L, int status, int want, const char *part) {
  const char *msg = lyt_error(L, NULL, NULL, NULL);
  if (status == want && strstr(msg, part) && lyt_dostring(L, "x = 1 + 1", "after") == LYT_OK) {
    npass++;
    return;
  }
  nfail++;
  printf("FAIL %s: status %d (want %d), message \"%s\"\n", name, status, want, msg);
}

static lyt_state *open_with(int64_t steps, int depth, size_t mem) {
  lyt_config c;
  lyt_config_init(&c);
  if (steps) c.max_steps = steps;
  if (depth) c.max_depth = depth;
  if (mem) c.mem_limit = mem;
  lyt_state *L = lyt_open(&c);
  if (!L) { printf("cannot open a state\n"); exit(1); }
  return L;
}

/* Bytes a state holds, by a host allocator that counts them. */
static void *counting(void *ud, void *p, size_t osize, size_t nsize) {
  size_t *held = ud;
  if (p) *held -= osize;
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  void *q = realloc(p, nsize);
  *held += q ? nsize : p ? osize : 0;
  return q;
}

static const char expo[] = "fn f(n) = if n == 0 then 0 else f(n - 1) + f(n - 1)\nprint f(40)\n";

int main(void) {
  lyt_state *L = open_with(10000, 0, 0);
  expect("steps", L, lyt_dostring(L, expo, "steps"), LYT_ERRLIMIT, "evaluation step limit reached");
  lyt_close(L);

  L = open_with(0, 10, 0);
  expect("depth", L, lyt_dostring(L, "fn g(n) = g(n + 1)\nprint g(0)\n", "depth"), LYT_ERRLIMIT,
         "call depth limit reached (10 nested calls)");
  lyt_close(L);

  L = open_with(0, 0, 4u << 20);
  expect("memory", L, lyt_dostring(L, expo, "memory"), LYT_ERRLIMIT, "memory limit reached");
  lyt_close(L);

  /* a file one byte over 16 MiB */
  char path[] = "/tmp/lyt_limit_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) { printf("cannot make a temporary file\n"); return 1; }
  for (size_t i = 0; i < (16u << 20) / 16; i++) fputs("x = 1          \n", f);  /* 16 bytes */
  fputs("\n", f);
  fclose(f);
  L = open_with(0, 0, 0);
  expect("file size", L, lyt_dofile(L, path), LYT_ERRFILE, "file too large (limit 16 MiB)");
  lyt_close(L);
  /* refused without taking its size in memory, however often it is asked for */
  size_t held = 0, first = 0;
  lyt_config c;
  lyt_config_init(&c);
  c.alloc = counting, c.alloc_ud = &held;
  L = lyt_open(&c);
  if (!L) { printf("cannot open a state\n"); return 1; }
  for (int i = 0; i < 3; i++) {
    expect("file size again", L, lyt_dofile(L, path), LYT_ERRFILE, "file too large (limit 16 MiB)");
    if (i == 0) first = held;
  }
  if (held == first && held < (16u << 20)) npass++;
  else nfail++, printf("FAIL a file too large takes memory: %zu bytes held after one refusal, %zu after three\n", first, held);
  lyt_close(L);
  remove(path);

  L = open_with(0, 0, 0);
  char deep[2000];
  memset(deep, '(', 700);
  strcpy(deep + 700, "1");
  memset(deep + 701, ')', 700);
  deep[1401] = 0;
  expect("nesting", L, lyt_dostring(L, deep, "nesting"), LYT_ERRSYNTAX, "nested too deeply");
  lyt_close(L);

  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
