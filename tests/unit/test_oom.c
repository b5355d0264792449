/*
** test_oom.c: allocation failure injection, as SQLite tests it. Each
** script named on the command line runs on a fresh state whose allocator
** refuses the n-th allocation, for every n from the first until a run
** that never reaches it; then every allocation kernel emission needs
** (lyt_emit, for each target) is refused the same way. Two modes:
**   - once: only the n-th allocation fails; the state must then run a
**     further statement, so a failure leaves it usable;
**   - from: the n-th and every later one fail; whatever the script was
**     doing ends in an error.
** Every run must end in LYT_OK or LYT_ERRMEM with a message (never
** another code, a crash or a sanitizer report), and give back every
** byte (the allocator counts the blocks it holds).
**   usage: test_oom script.lyt...
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

typedef struct heap {
  long allocs, fail_at, live;
  int once;  /* only the fail_at-th allocation fails */
} heap;

static void *injecting(void *ud, void *p, size_t osize, size_t nsize) {
  heap *h = ud;
  (void)osize;
  if (nsize == 0) {
    if (p) h->live--;
    free(p);
    return NULL;
  }
  long k = h->allocs++;
  if (h->once ? k == h->fail_at : k >= h->fail_at) return NULL;
  void *q = realloc(p, nsize);
  if (q && !p) h->live++;
  return q;
}

static int npass, nfail;

static void check(int cond, const char *script, const char *mode, long n, const char *what) {
  if (cond) { npass++; return; }
  if (nfail++ < 20) printf("FAIL %s, %s allocation %ld: %s\n", script, mode, n, what);
}

/* A status after an injected failure: fine, or out of memory and said so. */
static int fine(lyt_state *L, int st) {
  if (st == LYT_OK) return 1;
  const char *msg = lyt_error(L, NULL, NULL, NULL);
  return st == LYT_ERRMEM && (strstr(msg, "memory") || strstr(msg, "out of"));
}

static void sink(void *ud, const char *s, size_t n) { (void)ud, (void)s, (void)n; }

/* One run; 1 when the n-th allocation was reached (so n+1 is worth a try). */
static int run(const char *script, int once, long n) {
  const char *mode = once ? "once" : "from";
  heap h = { 0, n, 0, once };
  lyt_config c;
  lyt_config_init(&c);
  c.alloc = injecting;
  c.alloc_ud = &h;
  c.write = sink;
  c.no_file_writes = 1;
  lyt_state *L = lyt_open(&c);
  if (L) {
    check(fine(L, lyt_dofile(L, script)), script, mode, n, lyt_diagnostic(L));
    static const char *const targets[] = { "c", "ptx", "amdgcn", "expect" };
    for (int t = 0; t < 4; t++) {
      int st = lyt_emit(L, targets[t], NULL);
      /* a script without kernels has nothing to emit: a run error */
      if (!(st == LYT_ERRRUN && strstr(lyt_error(L, NULL, NULL, NULL), "no kernel")))
        check(fine(L, st), script, mode, n, lyt_diagnostic(L));
    }
    if (once) {
      int st = lyt_dostring(L, "oom_probe = size((4,2):(1,4))\nprint oom_probe", "probe");
      check(st == LYT_OK, script, mode, n, "the state is not usable after the failure");
    }
    lyt_close(L);
  }
  check(h.live == 0, script, mode, n, "blocks were not given back");
  return h.allocs > n;
}

int main(int argc, char **argv) {
  long runs = 0;
  for (int i = 1; i < argc; i++)
    for (int once = 1; once >= 0; once--) {
      long n = 0;
      while (run(argv[i], once, n) && n < 200000) n++;
      check(n > 10, argv[i], once ? "once" : "from", n, "too few allocations to be a test");
      runs += n + 1;
    }
  if (getenv("LYT_TEST_VERBOSE")) printf("%ld runs\n", runs);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
