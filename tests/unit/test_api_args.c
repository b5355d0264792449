/*
** test_api_args.c: the C API checks its arguments. A NULL state, NULL
** pointers where text or a description is needed, and NULL outputs each
** give an error code (and, with a state, a message naming the call), never
** a crash; a state stays usable after every one of them.
*/
#include <stdio.h>
#include <string.h>

#include "lyt.h"

static int npass, nfail;

static void ok(const char *name, int cond) {
  if (cond) { npass++; return; }
  nfail++;
  printf("FAIL %s\n", name);
}

/* An error with a message that names the call and says NULL. */
static void null_error(lyt_state *L, const char *name, int st) {
  const char *msg = lyt_error(L, NULL, NULL, NULL);
  int good = st == LYT_ERRRUN && strstr(msg, name) && strstr(msg, "NULL");
  if (!good) printf("  (%s: status %d, message \"%s\")\n", name, st, msg);
  ok(name, good);
}

static int cf(lyt_state *L, int nargs, void *ud) { (void)L; (void)nargs; (void)ud; return 0; }

static void no_state(void) {
  lyt_state *N = NULL;
  int64_t i;
  lyt_close(N);
  lyt_config_init(NULL);
  ok("NULL state: lyt_dostring", lyt_dostring(N, "1", NULL) == LYT_ERRRUN);
  ok("NULL state: lyt_dobuffer", lyt_dobuffer(N, "1", 1, NULL) == LYT_ERRRUN);
  ok("NULL state: lyt_dofile", lyt_dofile(N, "x.lyt") == LYT_ERRRUN);
  ok("NULL state: lyt_doline", lyt_doline(N, "1", NULL) == LYT_ERRRUN);
  ok("NULL state: lyt_incomplete", lyt_incomplete(N) == 0);
  ok("NULL state: lyt_emit", lyt_emit(N, "c", NULL) == LYT_ERRRUN);
  ok("NULL state: lyt_gettop", lyt_gettop(N) == 0);
  ok("NULL state: lyt_settop", lyt_settop(N, 0) == LYT_ERRRUN);
  ok("NULL state: lyt_type", lyt_type(N, 1) == LYT_TNONE);
  ok("NULL state: lyt_typename", strcmp(lyt_typename(N, 1), "no value") == 0);
  ok("NULL state: lyt_push_int", lyt_push_int(N, 1) == LYT_ERRRUN);
  ok("NULL state: lyt_push_string", lyt_push_string(N, "a") == LYT_ERRRUN);
  ok("NULL state: lyt_call", lyt_call(N, 0) == LYT_ERRRUN);
  ok("NULL state: lyt_eval", lyt_eval(N, "1", NULL) == LYT_ERRRUN);
  ok("NULL state: lyt_seterror", lyt_seterror(N, "x") == LYT_ERRRUN);
  ok("NULL state: lyt_getglobal", lyt_getglobal(N, "x") == LYT_ERRRUN);
  ok("NULL state: lyt_compose", lyt_compose(N) == LYT_ERRRUN);
  ok("NULL state: lyt_to_int", lyt_to_int(N, 1, &i) == LYT_ERRRUN);
  ok("NULL state: lyt_error says so", strstr(lyt_error(N, NULL, NULL, NULL), "NULL") != NULL);
  ok("NULL state: lyt_diagnostic says so", strstr(lyt_diagnostic(N), "NULL") != NULL);
}

static void null_pointers(lyt_state *L) {
  null_error(L, "lyt_dostring", lyt_dostring(L, NULL, NULL));
  null_error(L, "lyt_dobuffer", lyt_dobuffer(L, NULL, 5, NULL));
  ok("lyt_doline: unfinished", lyt_doline(L, "x = (1,", NULL) == LYT_ERRSYNTAX && lyt_incomplete(L));
  ok("lyt_doline(NULL) drops it", lyt_doline(L, NULL, NULL) == LYT_OK && !lyt_incomplete(L));
  ok("lyt_doline after the drop", lyt_doline(L, "x = 2", NULL) == LYT_OK);
  null_error(L, "lyt_dofile", lyt_dofile(L, NULL));
  null_error(L, "lyt_push_string", lyt_push_string(L, NULL));
  null_error(L, "lyt_push_linear", lyt_push_linear(L, NULL));
  null_error(L, "lyt_push_axe", lyt_push_axe(L, NULL));
  ok("empty buffer runs", lyt_dobuffer(L, NULL, 0, NULL) == LYT_OK);
  ok("C function without a function", lyt_push_cfunction(L, "f", NULL, NULL) == LYT_ERRRUN);
  ok("C function without a name", lyt_push_cfunction(L, NULL, cf, NULL) == LYT_ERRRUN);
  ok("seterror without a format", lyt_seterror(L, NULL) == LYT_ERRRUN);
  ok("push 3", lyt_push_int(L, 3) == LYT_OK);
  null_error(L, "lyt_to_int", lyt_to_int(L, -1, NULL));
  null_error(L, "lyt_to_bool", lyt_to_bool(L, -1, NULL));
  null_error(L, "lyt_to_string", lyt_to_string(L, -1, NULL, NULL));
  null_error(L, "lyt_len", lyt_len(L, -1, NULL));
  null_error(L, "lyt_to_linear", lyt_to_linear(L, -1, NULL));
  null_error(L, "lyt_to_axe", lyt_to_axe(L, -1, NULL));
  null_error(L, "lyt_tostring", lyt_tostring(L, -1, NULL, NULL));
  ok("get_field without a name", lyt_get_field(L, -1, NULL) == LYT_ERRRUN);
  ok("getglobal without a name", lyt_getglobal(L, NULL) == LYT_ERRRUN);
  ok("setglobal without a name", lyt_setglobal(L, NULL) == LYT_ERRRUN);
  ok("eval without text", lyt_eval(L, NULL, NULL) == LYT_ERRRUN);
  ok("call of a negative count", lyt_call(L, -3) == LYT_ERRRUN);
  ok("settop below the frame", lyt_settop(L, -100) == LYT_ERRRUN);
  ok("settop past the stack's cap, not 24 GB asked of the host", lyt_settop(L, 0x7fffffff) == LYT_ERRLIMIT);
  ok("tuple of a negative size", lyt_push_tuple(L, -1) == LYT_ERRRUN);
  ok("tuple larger than the stack", lyt_push_tuple(L, 1000000) == LYT_ERRRUN);
  ok("no target -1", lyt_target(-1, NULL, NULL) == 0);
  ok("layout", lyt_eval(L, "(4,2):(1,4)", NULL) == LYT_OK);
  null_error(L, "lyt_to_layout", lyt_to_layout(L, -1, 2, NULL, NULL, NULL));
  int64_t in[1] = { 1 }, out[1];
  int nout = 0;
  ok("apply without inputs", lyt_apply(L, -1, 1, NULL, 1, &nout, out) == LYT_ERRRUN);
  ok("apply with no room", lyt_apply(L, -1, 1, in, 0, &nout, out) != LYT_OK);
  ok("apply with negative room", lyt_apply(L, -1, 1, in, -1, &nout, out) != LYT_OK);
  ok("linear_of without a shape", lyt_linear_of(L, 2, NULL) != LYT_OK);
  ok("vector width without info", lyt_vector_width(L, NULL, 0, 4, 16, 0, NULL) == LYT_ERRRUN);
  ok("emit_kernel of a layout", lyt_emit_kernel(L, -1, NULL, NULL, NULL, 0, NULL) == LYT_ERRRUN);
  lyt_linear d = { 0 };
  d.nin = 1; d.nout = 1; d.in[0] = "reg ister"; d.in_log2[0] = 1; d.out[0] = "dim0"; d.out_log2[0] = 1;
  d.basis[0][0] = 1;
  ok("a dim name lyt cannot write", lyt_push_linear(L, &d) == LYT_ERRRUN &&
     strstr(lyt_error(L, NULL, NULL, NULL), "not a name lyt can write") != NULL);
  const char *bad[1] = { "2x" };
  ok("push 1", lyt_push_int(L, 1) == LYT_OK);
  ok("a field name lyt cannot write", lyt_push_record(L, 1, bad) == LYT_ERRRUN);
  ok("the state goes on", lyt_dostring(L, "x = 1 + 2", NULL) == LYT_OK);
}

/* Bindings kept statement after statement stop at the state's budget with
** LYT_ERRLIMIT, and the state goes on. */
static void budget(void) {
  lyt_config c;
  lyt_config_init(&c);
  c.max_memory = (size_t)16 << 20;
  lyt_state *L = lyt_open(&c);
  int st = lyt_dostring(L, "fn big(n) = if n == 0 then (1,2,3,4) else (big(n-1), big(n-1))", NULL);
  char src[32];
  for (int i = 0; i < 100000 && st == LYT_OK; i++) {
    snprintf(src, sizeof src, "x%d = big(9)", i);
    st = lyt_dostring(L, src, NULL);
  }
  ok("the budget stops the growth", st == LYT_ERRLIMIT &&
     strstr(lyt_error(L, NULL, NULL, NULL), "out of memory budget") != NULL);
  ok("the state goes on after its budget", lyt_dostring(L, "y = 1", NULL) == LYT_OK);
  lyt_close(L);
}

/* A C function asks the running script to stop; the next step fails. */
static int stop(lyt_state *L, int nargs, void *ud) {
  (void)nargs; (void)ud;
  lyt_interrupt(L);
  return lyt_push_int(L, 1);
}

static void interrupt(void) {
  lyt_state *L = lyt_open(NULL);
  ok("register stop", lyt_push_cfunction(L, "stop", stop, NULL) == LYT_OK && lyt_setglobal(L, "stop") == LYT_OK);
  int st = lyt_dostring(L, "fn spin(n) = if n == 0 then 0 else spin(n - 1)\nx = stop() + spin(100)", "s");
  int line = 0;
  lyt_error(L, NULL, &line, NULL);
  ok("interrupted at its place", st == LYT_ERRLIMIT && line >= 1 &&
     strcmp(lyt_error(L, NULL, NULL, NULL), "interrupted") == 0);
  lyt_interrupt(L);  /* while nothing runs: dropped */
  ok("the next statement runs", lyt_dostring(L, "y = spin(10)", "s") == LYT_OK);
  lyt_interrupt(NULL);
  lyt_close(L);
}

int main(void) {
  budget();
  interrupt();
  no_state();
  lyt_state *L = lyt_open(NULL);
  if (!L) { printf("FAIL lyt_open\n0 passed, 1 failed\n"); return 1; }
  null_pointers(L);
  lyt_close(L);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
