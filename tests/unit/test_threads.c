/*
** test_threads.c: no global mutable state. Four threads each open their
** own state and run a script (the stride algebra, GF(2) layouts from the
** stdlib, an Axe layout, a kernel emitted as PTX, and an error) 25 times;
** every run's output and error must equal what one state produced alone
** beforehand. Then, on a thread whose stack is twice the default
** max_stack (512 KiB; more under ASan), scripts nested far deeper than
** that stack end in an error, and the state goes on. Last, one thread
** interrupts another's long statement. `make SAN=thread` builds this
** under ThreadSanitizer (CI runs it there).
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lyt.h"

static const char script[] =
  "import \"triton.lyt\"\n"
  "print composition((6,2):(8,2), (4,3):(3,1)), complement((2,2):(1,6), 24)\n"
  "B = to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))\n"
  "print B, invert(to_linear(blocked((1,1), (8,4), (1,1), (1,0)), (8,4)))\n"
  "print forward(axe((8,2,4,2):(4@lane,1@warp,1@lane,1@reg), replica=2:4@warp), (2,9), (8,16))\n"
  "C = to_linear(blocked((4,1), (4,8), (1,4), (0,1)), (64,64))\n"
  "print emit(kernel(\"t\", \"f32\", (64,64):(64,1), (64,64):(1,64), (64,64), load=B, store=C), \"ptx\")\n"
  "print composition((6,2):(1,7), (3,2):(2,3))\n";

typedef struct out { char *p; size_t n, cap; } out;

static void write_out(void *ud, const char *s, size_t n) {
  out *o = ud;
  if (o->n + n + 1 > o->cap) {
    o->cap = (o->n + n + 1) * 2;
    o->p = realloc(o->p, o->cap);
    if (!o->p) abort();
  }
  memcpy(o->p + o->n, s, n);
  o->n += n;
  o->p[o->n] = 0;
}

/* The script's output followed by its error, in one string (caller frees). */
static char *run_once(void) {
  out o = { NULL, 0, 0 };
  lyt_config c;
  lyt_config_init(&c);
  c.write = write_out;
  c.write_ud = &o;
  lyt_state *L = lyt_open(&c);
  if (!L) abort();
  if (lyt_dostring(L, script, "t") != LYT_OK) write_out(&o, lyt_diagnostic(L), strlen(lyt_diagnostic(L)));
  lyt_close(L);
  return o.p;
}

static const char *expected;

static void *worker(void *arg) {
  int *bad = arg;
  for (int i = 0; i < 25; i++) {
    char *got = run_once();
    *bad += strcmp(got, expected) != 0;
    free(got);
  }
  return NULL;
}

/* Deep nesting on a small stack: a chain of 30000 additions, 20000
** nested tuples bound one by one; each must fail with LYT_ERRLIMIT, and
** the state must run the next statement. */
static void *small_stack(void *arg) {
  int *result = arg;
  lyt_state *L = lyt_open(NULL);
  if (!L) abort();
  size_t n = 30000 * 2 + 16;
  char *chain = malloc(n);
  if (!chain) abort();
  strcpy(chain, "x = 1");
  for (int i = 0; i < 30000; i++) strcat(chain + 4 + 2 * i, "+1");
  int ok = lyt_dostring(L, chain, "chain") == LYT_ERRLIMIT &&
           strstr(lyt_error(L, NULL, NULL, NULL), "nesting too deep") != NULL;
  free(chain);
  int tuples = lyt_dostring(L, "t = 1", "t");
  for (int i = 0; i < 20000 && tuples == LYT_OK; i++) tuples = lyt_dostring(L, "t = (t,)", "t");
  ok = ok && tuples == LYT_ERRLIMIT && lyt_dostring(L, "y = 2 + 3", "after") == LYT_OK;
  lyt_close(L);
  *result = ok;
  return NULL;
}

/* lyt_interrupt from another thread: a statement that would run for
** hours stops with a located "interrupted", and the state goes on. A
** request made before the statement starts is dropped, so the main
** thread asks until the worker is done. */
typedef struct spin { lyt_state *L; int status; atomic_int done; } spin;

static void *spinner(void *arg) {
  spin *s = arg;
  s->status = lyt_dostring(s->L, "fn spin(n) = if n == 0 then 0 else spin(n - 1) + spin(n - 1)\n"
                                 "x = spin(60)\n", "spin");
  atomic_store(&s->done, 1);
  return NULL;
}

static int interrupted_from_another_thread(void) {
  lyt_config c;
  lyt_config_init(&c);
  c.max_steps = INT64_MAX;
  spin s = { lyt_open(&c), 0, 0 };
  pthread_t t;
  if (!s.L || pthread_create(&t, NULL, spinner, &s) != 0) return 0;
  while (!atomic_load(&s.done)) {
    lyt_interrupt(s.L);
    nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
  }
  pthread_join(t, NULL);
  int line = 0;
  int ok = s.status == LYT_ERRLIMIT && strcmp(lyt_error(s.L, NULL, &line, NULL), "interrupted") == 0 &&
           line >= 1 && lyt_dostring(s.L, "y = 2 + 3", "after") == LYT_OK;
  lyt_close(s.L);
  return ok;
}

int main(void) {
  char *first = run_once();
  expected = first;
  pthread_t t[4];
  int bad[4] = { 0 }, pass = 0, fail = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, &bad[i]);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < 4; i++) {
    if (bad[i]) { fail++; printf("FAIL thread %d: %d runs differ\n", i, bad[i]); }
    else pass++;
  }
  if (!strstr(first, ".entry t(") || !strstr(first, "error: composition")) {
    fail++;
    printf("FAIL the script did not run as expected:\n%s\n", first);
  } else {
    pass++;
  }
  free(first);
  pthread_attr_t attr;
  pthread_t small;
  int deep = 0;
  pthread_attr_init(&attr);
  lyt_config d;  /* twice the default nesting budget: 512 KiB (more under ASan) */
  lyt_config_init(&d);
  pthread_attr_setstacksize(&attr, 2 * d.max_stack);
  if (pthread_create(&small, &attr, small_stack, &deep) == 0 && pthread_join(small, NULL) == 0 && deep) {
    pass++;
  } else {
    fail++;
    printf("FAIL deep nesting on a 512 KiB thread did not end in LYT_ERRLIMIT with the state usable\n");
  }
  pthread_attr_destroy(&attr);
  if (interrupted_from_another_thread()) {
    pass++;
  } else {
    fail++;
    printf("FAIL lyt_interrupt from another thread did not stop the statement cleanly\n");
  }
  printf("%d passed, %d failed\n", pass, fail);
  return fail != 0;
}
