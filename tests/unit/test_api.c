/*
** test_api.c: every function of lyt.h and its error paths. Results are
** compared with what the same operation gives when written as lyt source
** (the language is tested against the reference implementations), and
** every failure must leave a message, leave the stack as it was and
** leave the state usable. A counting allocator checks that nothing leaks,
** and a failing one that running out of memory anywhere is an error code.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyt.h"

static int npass, nfail;

static void ok(const char *name, int cond) {
  if (cond) { npass++; return; }
  nfail++;
  printf("FAIL %s\n", name);
}

/* Output of print goes here. */
typedef struct outbuf { char p[1 << 16]; size_t n; } outbuf;
static outbuf printed;

static void collect(void *ud, const char *s, size_t n) {
  outbuf *o = ud;
  if (n > sizeof o->p - 1 - o->n) n = sizeof o->p - 1 - o->n;
  memcpy(o->p + o->n, s, n);
  o->n += n;
  o->p[o->n] = 0;
}

static lyt_state *open_state(void) {
  lyt_config c;
  lyt_config_init(&c);
  c.write = collect;
  c.write_ud = &printed;
  lyt_state *L = lyt_open(&c);
  if (!L) { printf("cannot open a state\n"); exit(1); }
  return L;
}

/* The printed form of the top value, popped. */
static const char *top_text(lyt_state *L) {
  static char bufs[2][4096];
  static int which;
  char *buf = bufs[which ^= 1];
  const char *s;
  size_t n;
  if (lyt_tostring(L, -1, &s, &n) != LYT_OK) return "<tostring failed>";
  snprintf(buf, sizeof bufs[0], "%.*s", (int)n, s);
  lyt_pop(L, 2);
  return buf;
}

/* The printed value of an expression, evaluated as source text. */
static const char *src_text(lyt_state *L, const char *expr) {
  static char buf[4096];
  if (lyt_eval(L, expr, "src") != LYT_OK) return lyt_error(L, NULL, NULL, NULL);
  snprintf(buf, sizeof buf, "%s", top_text(L));
  return buf;
}

static void same_text(const char *name, const char *got, const char *want) {
  if (got != want && strcmp(got, want) == 0) { npass++; return; }
  nfail++;
  printf("FAIL %s: got %s want %s\n", name, got, want);
}

/* A call that must fail with [code], a message containing [part], and
** the stack exactly as tall as before. */
static void fails(const char *name, lyt_state *L, int top, int st, int code, const char *part) {
  const char *msg = lyt_error(L, NULL, NULL, NULL);
  if (st == code && strstr(msg, part) && lyt_gettop(L) == top) { npass++; return; }
  nfail++;
  printf("FAIL %s: status %d (want %d), top %d (want %d), message \"%s\"\n", name, st, code,
         lyt_gettop(L), top, msg);
}

/* ---------------------------------------------------------------------
** The stack and plain values
** ------------------------------------------------------------------- */

static void test_stack(lyt_state *L) {
  ok("empty", lyt_gettop(L) == 0 && lyt_type(L, 1) == LYT_TNONE && lyt_type(L, -1) == LYT_TNONE);
  ok("typename none", strcmp(lyt_typename(L, 1), "no value") == 0);
  ok("settop grows", lyt_settop(L, 40) == LYT_OK && lyt_gettop(L) == 40 && lyt_type(L, 40) == LYT_TNIL);
  ok("settop shrinks", lyt_settop(L, 0) == LYT_OK && lyt_gettop(L) == 0);
  fails("settop negative", L, 0, lyt_settop(L, -1), LYT_ERRRUN, "negative");

  int64_t i = 0;
  int b = 0;
  const char *s = NULL;
  size_t n = 0;
  ok("push int", lyt_push_int(L, -7) == LYT_OK && lyt_type(L, -1) == LYT_TINT);
  ok("to_int", lyt_to_int(L, -1, &i) == LYT_OK && i == -7);
  ok("push bool", lyt_push_bool(L, 5) == LYT_OK && lyt_to_bool(L, 2, &b) == LYT_OK && b == 1);
  ok("push string", lyt_push_string(L, "warp") == LYT_OK && lyt_to_string(L, -1, &s, &n) == LYT_OK &&
                        n == 4 && strcmp(s, "warp") == 0);
  ok("push nil", lyt_push_nil(L) == LYT_OK && lyt_type(L, 4) == LYT_TNIL);
  ok("typename", strcmp(lyt_typename(L, 2), "bool") == 0 && strcmp(lyt_typename(L, 1), "integer") == 0);
  fails("to_int of a string", L, 4, lyt_to_int(L, 3, &i), LYT_ERRRUN, "value 3 is a string, not an integer");
  fails("to_bool of an int", L, 4, lyt_to_bool(L, 1, &b), LYT_ERRRUN, "not a bool");
  fails("to_string of nil", L, 4, lyt_to_string(L, 4, &s, &n), LYT_ERRRUN, "not a string");
  fails("index past top", L, 4, lyt_to_int(L, 5, &i), LYT_ERRRUN, "index 5 is not on the stack (it holds 4 values)");
  fails("index zero", L, 4, lyt_to_int(L, 0, &i), LYT_ERRRUN, "index 0 is not on the stack");
  fails("index below", L, 4, lyt_to_int(L, -5, &i), LYT_ERRRUN, "index -5");
  ok("len of a string", lyt_len(L, 3, &i) == LYT_OK && i == 4);
  fails("len of an int", L, 4, lyt_len(L, 1, &i), LYT_ERRRUN, "not a tuple, record or string");
  ok("error has no location", lyt_error(L, &s, &b, NULL) && s[0] == 0 && b == 0);
  ok("diagnostic", strncmp(lyt_diagnostic(L), "error: lyt_len:", 15) == 0);
  lyt_settop(L, 0);

  /* tuples and records */
  lyt_push_int(L, 4), lyt_push_int(L, 8), lyt_push_string(L, "x");
  ok("push tuple", lyt_push_tuple(L, 3) == LYT_OK && lyt_gettop(L) == 1 && lyt_type(L, 1) == LYT_TTUPLE);
  ok("len tuple", lyt_len(L, 1, &i) == LYT_OK && i == 3);
  ok("get_index", lyt_get_index(L, 1, 1) == LYT_OK && lyt_to_int(L, -1, &i) == LYT_OK && i == 8);
  lyt_pop(L, 1);
  fails("get_index range", L, 1, lyt_get_index(L, 1, 3), LYT_ERRRUN, "index 3 is out of range for a tuple of 3");
  lyt_push_int(L, 1);
  fails("get_index of int", L, 2, lyt_get_index(L, 2, 0), LYT_ERRRUN, "not a tuple");
  lyt_settop(L, 1);
  same_text("tuple text", top_text(L), "(4,8,\"x\")");
  fails("tuple underflow", L, 0, lyt_push_tuple(L, 1), LYT_ERRRUN, "1 values asked for, the stack holds 0");
  ok("empty tuple", lyt_push_tuple(L, 0) == LYT_OK && strcmp(top_text(L), "()") == 0);

  const char *names[] = { "kind", "size" };
  lyt_push_string(L, "blocked"), lyt_push_int(L, 32);
  ok("push record", lyt_push_record(L, 2, names) == LYT_OK && lyt_type(L, -1) == LYT_TRECORD);
  ok("get_field", lyt_get_field(L, 1, "size") == LYT_OK && lyt_to_int(L, -1, &i) == LYT_OK && i == 32);
  lyt_pop(L, 1);
  fails("get_field unknown", L, 1, lyt_get_field(L, 1, "order"), LYT_ERRRUN, "no field 'order'");
  lyt_settop(L, 0);
  const char *twice[] = { "a", "a" };
  lyt_push_int(L, 1), lyt_push_int(L, 2);
  fails("record twice", L, 2, lyt_push_record(L, 2, twice), LYT_ERRRUN, "field 'a' twice");
  fails("record null name", L, 2, lyt_push_record(L, 2, NULL), LYT_ERRRUN, "name 0 is NULL");
  lyt_settop(L, 0);
}

/* ---------------------------------------------------------------------
** Layouts built and read from C
** ------------------------------------------------------------------- */

static void test_layouts(lyt_state *L) {
  int64_t sh[4] = { 4, 2 }, st[4] = { 1, 4 };
  int rank = 0;
  ok("push_layout", lyt_push_layout(L, 2, sh, st) == LYT_OK && lyt_type(L, -1) == LYT_TLAYOUT);
  same_text("layout text", top_text(L), "(4,2):(1,4)");
  fails("push_layout rank 0", L, 0, lyt_push_layout(L, 0, sh, st), LYT_ERRRUN, "rank 0");
  fails("push_layout zero extent", L, 0, lyt_push_layout(L, 1, (int64_t[]){ 0 }, st), LYT_ERRRUN, "");

  /* ((2,2),3):((1,6),2) from nested tuples, then read back flat */
  lyt_push_int(L, 2), lyt_push_int(L, 2), lyt_push_tuple(L, 2), lyt_push_int(L, 3), lyt_push_tuple(L, 2);
  lyt_push_int(L, 1), lyt_push_int(L, 6), lyt_push_tuple(L, 2), lyt_push_int(L, 2), lyt_push_tuple(L, 2);
  ok("make_layout", lyt_make_layout(L) == LYT_OK && lyt_gettop(L) == 1);
  int64_t s2[4], d2[4];
  ok("to_layout", lyt_to_layout(L, 1, 4, &rank, s2, d2) == LYT_OK && rank == 3 && s2[0] == 2 &&
                      s2[1] == 2 && s2[2] == 3 && d2[0] == 1 && d2[1] == 6 && d2[2] == 2);
  fails("to_layout room", L, 1, lyt_to_layout(L, 1, 2, &rank, s2, d2), LYT_ERRRUN, "3 modes, room for 2");
  same_text("make_layout text", top_text(L), "((2,2),3):((1,6),2)");
  lyt_push_int(L, 2), lyt_push_int(L, 3), lyt_push_tuple(L, 2), lyt_push_int(L, 1);
  fails("make_layout incongruent", L, 2, lyt_make_layout(L), LYT_ERRRUN, "");
  lyt_settop(L, 0);
  lyt_push_string(L, "a"), lyt_push_int(L, 1);
  fails("make_layout bad shape", L, 2, lyt_make_layout(L), LYT_ERRRUN, "the shape");
  lyt_settop(L, 0);
  ok("identity layout", lyt_eval(L, "make_identity_layout((2,3))", "e") == LYT_OK);
  fails("to_layout basis", L, 1, lyt_to_layout(L, 1, 4, &rank, s2, d2), LYT_ERRRUN, "basis stride");
  lyt_settop(L, 0);

  /* A linear layout: Triton's blocked (1,4),(8,4),(4,1),(1,0) over 32x64,
  ** written from its bases, against the same layout written in lyt. */
  lyt_linear d;
  memset(&d, 0, sizeof d);
  d.nin = 3, d.nout = 2;
  d.in[0] = "register", d.in[1] = "lane", d.in[2] = "warp";
  d.in_log2[0] = 2, d.in_log2[1] = 5, d.in_log2[2] = 2;
  d.out[0] = "dim0", d.out[1] = "dim1";
  d.out_log2[0] = 5, d.out_log2[1] = 4;
  const int64_t bases[9][2] = { { 0, 1 }, { 0, 2 }, { 0, 4 }, { 0, 8 }, { 1, 0 }, { 2, 0 }, { 4, 0 },
                                { 8, 0 }, { 16, 0 } };
  for (int j = 0; j < 9; j++) d.basis[j][0] = bases[j][0], d.basis[j][1] = bases[j][1];
  ok("push_linear", lyt_push_linear(L, &d) == LYT_OK && lyt_type(L, -1) == LYT_TLINEAR);
  lyt_linear e;
  ok("to_linear", lyt_to_linear(L, -1, &e) == LYT_OK && e.nin == 3 && e.nout == 2 &&
                      strcmp(e.in[1], "lane") == 0 && e.in_log2[1] == 5 && e.out_log2[0] == 5 &&
                      memcmp(e.basis, d.basis, sizeof d.basis) == 0);
  same_text("linear text", top_text(L),
            src_text(L, "from_bases({register: [[0,1],[0,2]], lane: [[0,4],[0,8],[1,0],[2,0],[4,0]],"
                        " warp: [[8,0],[16,0]]}, [\"dim0\", \"dim1\"])"));
  d.basis[0][1] = 16;
  fails("push_linear component", L, 0, lyt_push_linear(L, &d), LYT_ERRRUN, "");
  d.basis[0][1] = 1;
  d.in_log2[0] = 60;
  fails("push_linear bits", L, 0, lyt_push_linear(L, &d), LYT_ERRRUN, "64 bits");
  d.in_log2[0] = 2;
  d.out[1] = "dim0";
  fails("push_linear duplicate", L, 0, lyt_push_linear(L, &d), LYT_ERRRUN, "");
  d.out[1] = NULL;
  fails("push_linear unnamed", L, 0, lyt_push_linear(L, &d), LYT_ERRRUN, "needs a name");
  lyt_push_int(L, 3);
  fails("to_linear of an int", L, 1, lyt_to_linear(L, 1, &e), LYT_ERRRUN, "not a linear layout");
  lyt_settop(L, 0);

  /* An Axe layout with a replica and an offset. */
  lyt_axe a;
  memset(&a, 0, sizeof a);
  a.nshard = 2, a.nreplica = 1, a.noffset = 1;
  a.shard[0] = (lyt_iter){ 8, 4, "lane" };
  a.shard[1] = (lyt_iter){ 2, 1, NULL };
  a.replica[0] = (lyt_iter){ 2, 32, "lane" };
  a.offset_axis[0] = "m", a.offset[0] = 3;
  ok("push_axe", lyt_push_axe(L, &a) == LYT_OK && lyt_type(L, -1) == LYT_TAXE);
  lyt_axe b;
  ok("to_axe", lyt_to_axe(L, -1, &b) == LYT_OK && b.nshard == 2 && b.nreplica == 1 && b.noffset == 1 &&
                   b.shard[0].extent == 8 && strcmp(b.shard[0].axis, "lane") == 0 &&
                   strcmp(b.shard[1].axis, "m") == 0 && b.replica[0].stride == 32 && b.offset[0] == 3);
  same_text("axe text", top_text(L), src_text(L, "axe((8,2):(4@lane,1), replica=2:32@lane, offset={m: 3})"));
  a.replica[0].stride = 0;
  fails("push_axe zero replica", L, 0, lyt_push_axe(L, &a), LYT_ERRRUN, "");
  a.nshard = 40;
  fails("push_axe too many", L, 0, lyt_push_axe(L, &a), LYT_ERRRUN, "at most");
}

/* ---------------------------------------------------------------------
** Globals, calls, expressions, C functions
** ------------------------------------------------------------------- */

static int host_add(lyt_state *L, int nargs, void *ud) {
  int64_t a, b;
  ++*(int *)ud;
  if (nargs != 2) return lyt_seterror(L, "takes 2 integers, got %d values", nargs);
  if (lyt_to_int(L, 1, &a) != LYT_OK || lyt_to_int(L, 2, &b) != LYT_OK)
    return lyt_seterror(L, "takes 2 integers");
  lyt_push_nil(L);  /* extra values the function leaves are dropped */
  return lyt_push_int(L, a + b);
}

/* twice(f, x) = f(f(x)), calling back into lyt. */
static int host_twice(lyt_state *L, int nargs, void *ud) {
  (void)ud;
  if (nargs != 2) return lyt_seterror(L, "takes a function and a value");
  for (int k = 0; k < 2; k++) {
    lyt_pushvalue(L, 1);   /* f x [y] f */
    lyt_pushvalue(L, -2);  /* f x [y] f x|y */
    int st = lyt_call(L, 1);
    if (st != LYT_OK) return st;  /* lyt's own message is reported */
  }
  return LYT_OK;  /* f(f(x)) is on top */
}

/* apply(f, x): f(x), called from C. */
static int host_apply(lyt_state *L, int nargs, void *ud) {
  (void)ud;
  if (nargs != 2) return lyt_seterror(L, "takes a function and a value");
  lyt_pushvalue(L, 1);  /* the result goes above the arguments */
  lyt_pushvalue(L, 2);
  return lyt_call(L, 1);
}

/* run(src): runs src as statements (a nested lyt_dostring); returns 0. */
static int host_run(lyt_state *L, int nargs, void *ud) {
  const char *src;
  (void)ud;
  if (nargs != 1 || lyt_to_string(L, 1, &src, NULL) != LYT_OK) return lyt_seterror(L, "takes a string");
  int st = lyt_dostring(L, src, "run");
  if (st != LYT_OK) return st;
  return lyt_push_int(L, 0);
}

/* Fails without a message. */
static int host_silent(lyt_state *L, int nargs, void *ud) {
  (void)L, (void)nargs, (void)ud;
  return 99;
}

static void test_calls(lyt_state *L) {
  int calls = 0;
  int64_t i;
  ok("setglobal", lyt_push_int(L, 6) == LYT_OK && lyt_setglobal(L, "n") == LYT_OK && lyt_gettop(L) == 0);
  printed.n = 0;
  ok("script sees global", lyt_dostring(L, "print n * 7\nm = n + 1\n", "g") == LYT_OK &&
                               strcmp(printed.p, "42\n") == 0);
  ok("getglobal", lyt_getglobal(L, "m") == LYT_OK && lyt_to_int(L, -1, &i) == LYT_OK && i == 7);
  lyt_settop(L, 0);
  fails("getglobal unknown", L, 0, lyt_getglobal(L, "nope"), LYT_ERRRUN, "unknown name 'nope'");
  lyt_push_int(L, 1);
  fails("setglobal bad name", L, 1, lyt_setglobal(L, "2x"), LYT_ERRRUN, "'2x' is not a name");
  fails("setglobal keyword", L, 1, lyt_setglobal(L, "if"), LYT_ERRRUN, "'if' is not a name");
  fails("setglobal long keyword", L, 1, lyt_setglobal(L, "continue"), LYT_ERRRUN,
        "'continue' is not a name");
  fails("setglobal name and more", L, 1, lyt_setglobal(L, "a b"), LYT_ERRRUN, "'a b' is not a name");
  /* a name that begins with a keyword is a name */
  ok("setglobal keyword prefix", lyt_setglobal(L, "format") == LYT_OK && lyt_gettop(L) == 0);
  lyt_settop(L, 0);
  fails("setglobal empty stack", L, 0, lyt_setglobal(L, "x"), LYT_ERRRUN, "1 values asked for");

  /* a builtin and a user function */
  lyt_getglobal(L, "composition");
  lyt_push_layout(L, 2, (int64_t[]){ 6, 2 }, (int64_t[]){ 8, 2 });
  lyt_push_layout(L, 2, (int64_t[]){ 4, 3 }, (int64_t[]){ 3, 1 });
  ok("call builtin", lyt_call(L, 2) == LYT_OK && lyt_gettop(L) == 1);
  same_text("call builtin value", top_text(L), src_text(L, "composition((6,2):(8,2), (4,3):(3,1))"));
  lyt_dostring(L, "fn area(s) = size(s) * 2\n", "fn");
  lyt_getglobal(L, "area");
  lyt_push_layout(L, 1, (int64_t[]){ 5 }, (int64_t[]){ 1 });
  ok("call user fn", lyt_call(L, 1) == LYT_OK && lyt_to_int(L, -1, &i) == LYT_OK && i == 10);
  lyt_settop(L, 0);
  lyt_getglobal(L, "area");
  fails("call arity", L, 1, lyt_call(L, 0), LYT_ERRRUN, "area() missing argument 's'");
  fails("call too many", L, 1, lyt_call(L, 3), LYT_ERRRUN, "4 values asked for");
  lyt_settop(L, 0);
  lyt_push_int(L, 3);
  fails("call an int", L, 1, lyt_call(L, 0), LYT_ERRRUN, "cannot call an integer");
  lyt_settop(L, 0);
  /* a runtime error inside the called function keeps its location */
  lyt_dostring(L, "fn bad(x) = x + \"s\"\n", "defs.lyt");
  lyt_getglobal(L, "bad"), lyt_push_int(L, 1);
  const char *file;
  int line, col;
  int st = lyt_call(L, 1);
  lyt_error(L, &file, &line, &col);
  ok("call error location", st == LYT_ERRRUN && strcmp(file, "defs.lyt") == 0 && line == 1 && col > 1 &&
                                lyt_gettop(L) == 2);
  lyt_settop(L, 0);

  /* expressions */
  ok("eval", lyt_eval(L, "(4,2):(1,4)", "e") == LYT_OK && lyt_type(L, 1) == LYT_TLAYOUT);
  lyt_settop(L, 0);
  fails("eval two statements", L, 0, lyt_eval(L, "1\n2", "e"), LYT_ERRSYNTAX, "one expression");
  fails("eval assignment", L, 0, lyt_eval(L, "x = 1", "e"), LYT_ERRSYNTAX, "one expression");
  fails("eval syntax", L, 0, lyt_eval(L, "(4,2:(1,4)", "e"), LYT_ERRSYNTAX, "");
  fails("eval runtime", L, 0, lyt_eval(L, "nope + 1", "e"), LYT_ERRRUN, "unknown name 'nope'");
  fails("eval empty", L, 0, lyt_eval(L, "", "e"), LYT_ERRSYNTAX, "one expression");

  /* C functions */
  ok("push_cfunction", lyt_push_cfunction(L, "hadd", host_add, &calls) == LYT_OK &&
                           lyt_type(L, -1) == LYT_TFUNCTION && lyt_setglobal(L, "hadd") == LYT_OK);
  printed.n = 0;
  ok("script calls C", lyt_dostring(L, "print hadd(2, 3), hadd(hadd(1, 1), 40)\n", "c") == LYT_OK &&
                           strcmp(printed.p, "5 42\n") == 0 && calls == 3 && lyt_gettop(L) == 0);
  st = lyt_dostring(L, "x = 1\nprint hadd(1)\n", "c.lyt");
  lyt_error(L, &file, &line, &col);
  ok("C error message", st == LYT_ERRRUN && line == 2 && col == 7 && strcmp(file, "c.lyt") == 0 &&
                            strstr(lyt_error(L, NULL, NULL, NULL), "hadd() failed: takes 2 integers, got 1 values"));
  ok("C error caret", strstr(lyt_diagnostic(L), "c.lyt:2:7: error: hadd() failed") != NULL);
  fails("C keyword", L, 0, lyt_dostring(L, "print hadd(1, b=2)\n", "k"), LYT_ERRRUN, "takes no keyword arguments");
  lyt_push_cfunction(L, "silent", host_silent, NULL), lyt_setglobal(L, "silent");
  fails("C silent failure", L, 0, lyt_dostring(L, "silent()\n", "s"), LYT_ERRRUN, "silent() failed");
  fails("push_cfunction null", L, 0, lyt_push_cfunction(L, "f", NULL, NULL), LYT_ERRRUN, "needed");
  /* called from C too */
  lyt_getglobal(L, "hadd"), lyt_push_int(L, 20), lyt_push_int(L, 22);
  ok("C function from C", lyt_call(L, 2) == LYT_OK && lyt_to_int(L, -1, &i) == LYT_OK && i == 42);
  lyt_settop(L, 0);

  /* re-entry: lyt -> C -> lyt -> C, and an error that crosses it */
  lyt_push_cfunction(L, "twice", host_twice, NULL), lyt_setglobal(L, "twice");
  printed.n = 0;
  ok("reentry", lyt_dostring(L, "fn __f__(x) = hadd(x, 10)\nprint twice(__f__, 1)\n", "r") == LYT_OK &&
                    strcmp(printed.p, "21\n") == 0 && lyt_gettop(L) == 0);
  st = lyt_dostring(L, "fn __f__(x) = x + \"a\"\nprint twice(__f__, 1)\n", "r2");
  ok("reentry error", st == LYT_ERRRUN && strstr(lyt_error(L, NULL, NULL, NULL), "twice() failed:") &&
                          lyt_gettop(L) == 0);
  ok("state usable after", lyt_dostring(L, "print hadd(1, 2)\n", "after") == LYT_OK);

  /* the step limit holds across C functions: 2^20 calls through apply()
  ** from one statement, and through a nested lyt_dostring */
  lyt_config c;
  lyt_config_init(&c);
  c.max_steps = 10000;
  lyt_state *S = lyt_open(&c);
  lyt_push_cfunction(S, "apply", host_apply, NULL), lyt_setglobal(S, "apply");
  lyt_push_cfunction(S, "run", host_run, NULL), lyt_setglobal(S, "run");
  st = lyt_dostring(S, "fn g(n) = if n == 0 then 0 else apply(g, n - 1) + apply(g, n - 1)\nprint g(20)\n",
                    "steps");
  ok("step limit through C", st == LYT_ERRLIMIT && strstr(lyt_error(S, NULL, NULL, NULL), "step limit"));
  /* k(150) takes about 1700 steps: one nested run fits in 10000, eight do not */
  const char *eight = "fn k(n) = if n == 0 then 0 else k(n - 1) + 0\n"
                      "x = run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") +"
                      " run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\")\n";
  ok("step limit through nested statements", lyt_dostring(S, eight, "steps2") == LYT_ERRLIMIT);
  ok("one nested run is within the limit", lyt_dostring(S, "x = run(\"k(150)\")\n", "steps3") == LYT_OK);
  /* the same eight runs with lyt_call or lyt_eval as the outermost entry */
  lyt_dostring(S, "fn eight() = run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") +"
                  " run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\") + run(\"k(150)\")\n", "steps4");
  lyt_getglobal(S, "eight");
  ok("step limit through nested statements, lyt_call", lyt_call(S, 0) == LYT_ERRLIMIT);
  lyt_settop(S, 0);
  ok("step limit through nested statements, lyt_eval", lyt_eval(S, "eight()", "steps5") == LYT_ERRLIMIT);
  lyt_settop(S, 0);
  lyt_close(S);
}

/* ---------------------------------------------------------------------
** The cores without source text
** ------------------------------------------------------------------- */

static void test_cores(lyt_state *L) {
  int64_t out[8], in[3];
  int n = 0;
  /* stride apply: index and coordinate, against the language */
  lyt_push_layout(L, 2, (int64_t[]){ 4, 2 }, (int64_t[]){ 2, 1 });
  ok("apply index", lyt_apply(L, 1, 1, (int64_t[]){ 5 }, 8, &n, out) == LYT_OK && n == 1 && out[0] == 3);
  ok("apply coord", lyt_apply(L, 1, 2, (int64_t[]){ 3, 1 }, 8, &n, out) == LYT_OK && n == 1 && out[0] == 7);
  fails("apply range", L, 1, lyt_apply(L, 1, 1, (int64_t[]){ 8 }, 8, &n, out), LYT_ERRRUN, "");
  fails("apply no room", L, 1, lyt_apply(L, 1, 1, (int64_t[]){ 1 }, 0, &n, out), LYT_ERRRUN, "more than 0");
  fails("apply no inputs", L, 1, lyt_apply(L, 1, 0, in, 8, &n, out), LYT_ERRRUN, "0 inputs");

  /* invert: a bijection, then the identity check L(R(i)) == i */
  lyt_push_layout(L, 2, (int64_t[]){ 4, 2 }, (int64_t[]){ 2, 1 });
  ok("invert stride", lyt_invert(L) == LYT_OK && lyt_gettop(L) == 2);
  int good = 1;
  for (int64_t x = 0; x < 8; x++) {
    int64_t r, y;
    good &= lyt_apply(L, 2, 1, &x, 1, &n, &r) == LYT_OK && lyt_apply(L, 1, 1, &r, 1, &n, &y) == LYT_OK && y == x;
  }
  ok("invert stride is inverse", good);
  lyt_settop(L, 0);
  lyt_push_layout(L, 2, (int64_t[]){ 4, 2 }, (int64_t[]){ 1, 8 });
  fails("invert not bijective", L, 1, lyt_invert(L), LYT_ERRRUN, "(4,2):(1,8) is not a bijection onto [0, 8)");
  lyt_settop(L, 0);
  lyt_push_int(L, 1);
  fails("invert an int", L, 1, lyt_invert(L), LYT_ERRRUN, "want a stride or linear layout");
  lyt_settop(L, 0);

  /* compose, stride: CuTe's composition */
  lyt_push_layout(L, 2, (int64_t[]){ 6, 2 }, (int64_t[]){ 8, 2 });
  lyt_push_layout(L, 2, (int64_t[]){ 4, 3 }, (int64_t[]){ 3, 1 });
  ok("compose stride", lyt_compose(L) == LYT_OK && lyt_gettop(L) == 1);
  same_text("compose stride value", top_text(L), src_text(L, "composition((6,2):(8,2), (4,3):(3,1))"));
  lyt_push_layout(L, 2, (int64_t[]){ 6, 2 }, (int64_t[]){ 1, 7 });
  lyt_push_layout(L, 2, (int64_t[]){ 3, 2 }, (int64_t[]){ 2, 3 });
  fails("compose inadmissible", L, 2, lyt_compose(L), LYT_ERRRUN, "of the right-hand side interfere");
  lyt_settop(L, 0);

  /* compose, linear: (A o B)(x) == A(B(x)) for every lane */
  lyt_dostring(L, "import \"triton.lyt\"\n", "imp");
  lyt_eval(L, "linear((8,4):(4,1))", "A");
  lyt_eval(L, "to_linear(blocked((1,1), (8,4), (1,1), (1,0)), (8,4))", "B");
  lyt_pushvalue(L, 1), lyt_pushvalue(L, 2);
  ok("compose linear", lyt_gettop(L) == 4 && lyt_compose(L) == LYT_OK && lyt_gettop(L) == 3 &&
                           lyt_type(L, 3) == LYT_TLINEAR);
  good = 1;
  for (int64_t x = 0; x < 32; x++) {
    int64_t bx[2], abx, cx;
    int64_t lane[4] = { 0, x, 0, 0 };
    good &= lyt_apply(L, 2, 4, lane, 2, &n, bx) == LYT_OK && n == 2;
    good &= lyt_apply(L, 1, 2, bx, 1, &n, &abx) == LYT_OK && n == 1;
    good &= lyt_apply(L, 3, 4, lane, 1, &n, &cx) == LYT_OK && n == 1 && cx == abx;
  }
  ok("compose linear applies", good);
  ok("pushvalue range", lyt_pushvalue(L, 9) == LYT_ERRRUN && lyt_gettop(L) == 3);
  lyt_settop(L, 0);
  lyt_push_int(L, 1), lyt_push_layout(L, 1, (int64_t[]){ 2 }, (int64_t[]){ 1 });
  fails("compose mixed", L, 2, lyt_compose(L), LYT_ERRRUN, "want two stride or two linear layouts");
  lyt_settop(L, 0);

  /* linear apply against the language's apply */
  lyt_eval(L, "to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))", "B");
  in[0] = 3, in[1] = 17, in[2] = 2;
  ok("apply linear", lyt_apply(L, 1, 3, in, 8, &n, out) == LYT_OK && n == 2);
  lyt_dostring(L, "B = to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))\n", "b");
  char want[64];
  snprintf(want, sizeof want, "{dim0: %lld, dim1: %lld}", (long long)out[0], (long long)out[1]);
  same_text("apply linear value", src_text(L, "B(3, 17, 2)"), want);
  fails("apply linear range", L, 1, lyt_apply(L, 1, 3, (int64_t[]){ 1 << 20, 0, 0 }, 8, &n, out), LYT_ERRRUN, "");

  /* encodings to linear layouts */
  lyt_settop(L, 0);
  lyt_getglobal(L, "blocked");
  int64_t spt[2] = { 1, 4 }, tpw[2] = { 8, 4 }, wpc[2] = { 4, 1 }, ord[2] = { 1, 0 }, shape[2] = { 64, 64 };
  const int64_t *args[4] = { spt, tpw, wpc, ord };
  for (int k = 0; k < 4; k++) lyt_push_int(L, args[k][0]), lyt_push_int(L, args[k][1]), lyt_push_tuple(L, 2);
  ok("blocked from C", lyt_call(L, 4) == LYT_OK && lyt_type(L, 1) == LYT_TRECORD);
  ok("linear_of encoding", lyt_linear_of(L, 2, shape) == LYT_OK && lyt_type(L, 1) == LYT_TLINEAR);
  same_text("linear_of value", top_text(L), src_text(L, "B"));
  lyt_push_layout(L, 2, (int64_t[]){ 4, 8 }, (int64_t[]){ 8, 1 });
  ok("linear_of stride", lyt_linear_of(L, 0, NULL) == LYT_OK);
  same_text("linear_of stride value", top_text(L), src_text(L, "linear((4,8):(8,1))"));
  lyt_push_layout(L, 1, (int64_t[]){ 4 }, (int64_t[]){ 1 });
  fails("linear_of shape for layout", L, 1, lyt_linear_of(L, 2, shape), LYT_ERRRUN, "only for an encoding");
  lyt_settop(L, 0);
  lyt_push_string(L, "k"), lyt_push_record(L, 1, (const char *[]){ "kind" });
  fails("linear_of no shape", L, 1, lyt_linear_of(L, 0, NULL), LYT_ERRRUN, "needs a shape");
  fails("linear_of bad record", L, 1, lyt_linear_of(L, 2, shape), LYT_ERRRUN, "");
  lyt_settop(L, 0);
  lyt_push_string(L, "s");
  fails("linear_of string", L, 1, lyt_linear_of(L, 0, NULL), LYT_ERRRUN, "want a layout or a Triton encoding");
  lyt_settop(L, 0);

  /* AxisInfo and vector widths, against the builtin */
  lyt_axisinfo ai;
  int64_t w = 0;
  lyt_eval(L, "index_of((32,64):(1,32), 2048)", "x");
  ok("to_axisinfo", lyt_to_axisinfo(L, 1, 0, &ai) == LYT_OK && ai.rank == 1);
  ok("vector_width", lyt_vector_width(L, &ai, 0, 2, 16, 8, &w) == LYT_OK);
  char ws[32];
  snprintf(ws, sizeof ws, "%lld", (long long)w);
  same_text("vector_width value", ws,
            src_text(L, "vector_width(index_of((32,64):(1,32), 2048), 0, 2, elems_per_thread=8)"));
  ok("vector_width 8", w == 8);
  ok("to_axisinfo exact", lyt_to_axisinfo(L, 1, 1, &ai) == LYT_OK && ai.contiguity[0] >= 32);
  ok("vector_width unlimited", lyt_vector_width(L, &ai, 0, 4, 16, 0, &w) == LYT_OK && w == 4);
  ai.divisibility[0] = 3;
  fails("vector_width divisibility", L, 1, lyt_vector_width(L, &ai, 0, 2, 16, 8, &w), LYT_ERRRUN, "power of two");
  ai.divisibility[0] = 16;
  fails("vector_width dim", L, 1, lyt_vector_width(L, &ai, 1, 2, 16, 8, &w), LYT_ERRRUN, "dim 1");
  fails("vector_width elem", L, 1, lyt_vector_width(L, &ai, 0, 3, 16, 8, &w), LYT_ERRRUN, "");
  fails("vector_width null", L, 1, lyt_vector_width(L, NULL, 0, 2, 16, 8, &w), LYT_ERRRUN, "rank 0");
  lyt_push_int(L, 1);
  fails("to_axisinfo int", L, 2, lyt_to_axisinfo(L, 2, 0, &ai), LYT_ERRRUN, "want an index value");
  lyt_settop(L, 0);

  /* a kernel emitted into a caller's buffer, against emit() */
  const char *k = "kernel(\"cvt\", \"f16\", (64,32):(32,1), (64,32):(32,1), (64,32),"
                  " load=to_linear(blocked((1,8), (8,4), (4,1), (1,0)), (64,32)),"
                  " store=to_linear(blocked((8,1), (4,8), (1,4), (0,1)), (64,32)))";
  size_t len = 0;
  ok("eval kernel", lyt_eval(L, k, "k") == LYT_OK && lyt_type(L, 1) == LYT_TKERNEL);
  fails("emit size", L, 1, lyt_emit_kernel(L, 1, "ptx", NULL, NULL, 0, &len), LYT_ERRLIMIT, "the buffer holds 0");
  ok("emit size known", len > 1000);
  char *buf = malloc(len + 1);
  fails("emit one short", L, 1, lyt_emit_kernel(L, 1, "ptx", NULL, buf, len, &len), LYT_ERRLIMIT, "");
  ok("emit", lyt_emit_kernel(L, 1, "ptx", "sm_90", buf, len + 1, &len) == LYT_OK && strlen(buf) == len);
  char src[1024];
  snprintf(src, sizeof src, "emit(%s, \"ptx\", \"sm_90\")", k);
  if (lyt_eval(L, src, "e") == LYT_OK) {
    const char *s;
    size_t m;
    ok("emit equals emit()", lyt_to_string(L, -1, &s, &m) == LYT_OK && m == len && memcmp(s, buf, m) == 0);
    lyt_pop(L, 1);
  } else ok("emit() source", 0);
  free(buf);
  char small[8];
  fails("emit target", L, 1, lyt_emit_kernel(L, 1, "vhdl", NULL, small, 8, &len), LYT_ERRRUN, "unknown target \"vhdl\"");
  lyt_push_int(L, 1);
  fails("emit non-kernel", L, 2, lyt_emit_kernel(L, 2, "c", NULL, small, 8, &len), LYT_ERRRUN, "want a kernel");
  lyt_settop(L, 0);
}

/* ---------------------------------------------------------------------
** Memory: nothing leaks, and running out anywhere is an error code
** ------------------------------------------------------------------- */

typedef struct heap { long live; long allocs, fail_at; } heap;

static void *counting(void *ud, void *p, size_t osize, size_t nsize) {
  heap *h = ud;
  if (nsize == 0) {
    if (p) h->live--;
    free(p);
    return NULL;
  }
  if (h->fail_at >= 0 && h->allocs++ >= h->fail_at) return NULL;
  void *q = realloc(p, nsize);
  if (q && !p) h->live++;
  (void)osize;
  return q;
}

/* A call's status: counts LYT_ERRMEM, and failures with no message (an
** error lost on its way to the entry point). */
typedef struct tally { int calls, oom, silent; } tally;

static void tally_of(lyt_state *L, tally *t, int st) {
  t->calls++;
  t->oom += st == LYT_ERRMEM;
  t->silent += st != LYT_OK && !*lyt_error(L, NULL, NULL, NULL);
}

/* A little of everything. */
static tally workout(lyt_state *L) {
  int calls = 0;
  tally t = { 0, 0, 0 };
  tally_of(L, &t, lyt_dostring(L, "import \"triton.lyt\"\nB = to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))\n", "w"));
  tally_of(L, &t, lyt_push_layout(L, 2, (int64_t[]){ 4, 2 }, (int64_t[]){ 2, 1 }));
  tally_of(L, &t, lyt_invert(L));
  tally_of(L, &t, lyt_push_cfunction(L, "hadd", host_add, &calls));
  tally_of(L, &t, lyt_setglobal(L, "hadd"));
  tally_of(L, &t, lyt_dostring(L, "print hadd(1, 2)\n", "w2"));
  tally_of(L, &t, lyt_getglobal(L, "B"));
  tally_of(L, &t, lyt_linear_of(L, 0, NULL));
  tally_of(L, &t, lyt_eval(L, "(4,2):(1,4)", "w3"));
  tally_of(L, &t, lyt_push_tuple(L, 2));
  tally_of(L, &t, lyt_settop(L, 30));
  tally_of(L, &t, lyt_settop(L, 0));
  return t;
}

/* A host that runs untrusted scripts can forbid writing files. */
static void test_no_writes(void) {
  lyt_config c;
  lyt_config_init(&c);
  c.no_file_writes = 1;
  lyt_state *L = lyt_open(&c);
  if (!L) { ok("open", 0); return; }
  int st = lyt_dostring(L, "svg((4,2):(1,4), \"/tmp/lyt_should_not_exist.svg\")\n", "w");
  FILE *f = fopen("/tmp/lyt_should_not_exist.svg", "r");
  ok("no_file_writes", st == LYT_ERRRUN && !f && strstr(lyt_error(L, NULL, NULL, NULL), "does not allow writing"));
  if (f) fclose(f);
  lyt_close(L);
}

static void test_memory(void) {
  heap h = { 0, 0, -1 };
  lyt_config c;
  lyt_config_init(&c);
  c.alloc = counting;
  c.alloc_ud = &h;
  lyt_state *L = lyt_open(&c);
  ok("counting open", L != NULL);
  if (!L) return;
  tally t = workout(L);
  ok("workout", t.calls == 12 && t.oom == 0 && t.silent == 0);
  lyt_close(L);
  ok("no leak", h.live == 0);

  /* fail the n-th allocation, for every n up to a clean run: no leak, and
  ** every failure says why */
  int bad = 0, silent = 0, runs = 0, inside = 0;
  for (long n = 0; n < 100000; n++) {
    heap f = { 0, 0, n };
    c.alloc_ud = &f;
    L = lyt_open(&c);
    tally w = { 0, 1, 0 };
    if (L) w = workout(L);
    inside += L && w.oom;
    silent += w.silent;
    lyt_close(L);
    bad += f.live != 0;
    runs++;
    if (w.oom == 0 && f.allocs <= n) break;
  }
  if (bad || silent || getenv("LYT_TEST_VERBOSE"))
    printf("%d leaks and %d silent failures in %d out-of-memory runs, %d after open\n", bad, silent, runs, inside);
  ok("out of memory everywhere", bad == 0 && silent == 0 && runs > 10 && inside > 3);
}

/* lyt_doline keeps an unfinished statement's lines and continues them. */
static void test_lines(void) {
  lyt_state *L = open_state();
  printed.n = 0, printed.p[0] = 0;
  ok("line: an open bracket waits", lyt_doline(L, "x = (1,", "<repl>") == LYT_ERRSYNTAX && lyt_incomplete(L));
  ok("line: waiting is an error with a message", strstr(lyt_error(L, NULL, NULL, NULL), "end of input") != NULL);
  int64_t v = 0;
  ok("line: other entries leave the lines alone", lyt_eval(L, "2 + 3", NULL) == LYT_OK && lyt_to_int(L, -1, &v) == LYT_OK && v == 5);
  lyt_settop(L, 0);
  ok("line: still waiting", lyt_incomplete(L));
  ok("line: a blank line inside brackets", lyt_doline(L, "", "<repl>") == LYT_ERRSYNTAX && lyt_incomplete(L));
  ok("line: the rest runs the whole", lyt_doline(L, "2)", "<repl>") == LYT_OK && !lyt_incomplete(L));
  ok("line: x is bound", lyt_eval(L, "x", NULL) == LYT_OK && strcmp(top_text(L), "(1,2)") == 0);
  ok("line: a trailing operator outside brackets is an error at once, not a wait",
     lyt_doline(L, "x[1] +", "<repl>") == LYT_ERRSYNTAX && !lyt_incomplete(L));
  int line = 0, col = 0;
  lyt_error(L, NULL, &line, &col);
  ok("line: located at the end of the line", line == 1 && col == 7);
  ok("line: inside brackets a trailing operator continues", lyt_doline(L, "(x[1] +", "<repl>") == LYT_ERRSYNTAX
     && lyt_incomplete(L) && lyt_doline(L, "40)", "<repl>") == LYT_OK && strstr(printed.p, "42\n") != NULL);
  ok("line: a statement over lines", lyt_doline(L, "fn f(a) =", "<repl>") == LYT_ERRSYNTAX
     && lyt_doline(L, "  a * 2", "<repl>") == LYT_OK && lyt_doline(L, "f(21)", "<repl>") == LYT_OK);
  ok("line: echoed", strstr(printed.p, "42\n") != NULL);
  ok("line: an error in a later line is located there", lyt_doline(L, "y = [1,", "<repl>") == LYT_ERRSYNTAX
     && lyt_doline(L, "2 3]", "<repl>") == LYT_ERRSYNTAX && !lyt_incomplete(L));
  lyt_error(L, NULL, &line, &col);
  ok("line: line 2, col 3", line == 2 && col == 3);
  ok("line: the state goes on", lyt_doline(L, "z = 1", "<repl>") == LYT_OK);
  lyt_close(L);
}

/* Templates outlive the chunk that made them: a later chunk's line runs
** one, located in its own text; a state without templates prints the same. */
static void test_templates(void) {
  const char *first = "print 6 / 3\nprint 8 / 2\nprint 9 / 3\nprint 4 / 1\n";
  const char *second = "x = 1\nprint 3 / 1\nprint 7 / 0\n";
  char got[2][512];
  for (int k = 0; k < 2; k++) {
    lyt_config c;
    lyt_config_init(&c);
    c.write = collect;
    c.write_ud = &printed;
    if (k) c.template_memory = 0;
    lyt_state *L = lyt_open(&c);
    if (!L) { ok("templates: open", 0); return; }
    printed.n = 0, printed.p[0] = 0;
    int a = lyt_dostring(L, first, "first"), b = lyt_dostring(L, second, "second");
    snprintf(got[k], sizeof got[k], "%d %d %s%s", a, b, printed.p, lyt_diagnostic(L));
    lyt_close(L);
  }
  same_text("templates: across chunks", got[0], got[1]);
  ok("templates: the error is the second chunk's line 3",
     strstr(got[0], "second:3:9: error: division by zero\nprint 7 / 0\n        ^") != NULL);
}

/* lyt_explain: a module's JSON, a located error in its text, a bad format. */
static void test_explain(lyt_state *L) {
  static const char mod[] =
    "#b = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [0, 1]}>\n"
    "#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>\n"
    "module attributes {\"ttg.num-warps\" = 1 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
    "  %0 = ttg.convert_layout %x : tensor<8x64xf16, #b> -> tensor<8x64xf16, #c>\n"
    "}\n";
  int top = lyt_gettop(L);
  ok("explain json", lyt_explain(L, mod, sizeof mod - 1, "m.ttgir", "json") == LYT_OK &&
                     lyt_gettop(L) == top + 1);
  const char *s;
  size_t n;
  /* data moves only between the lanes of the one warp: shuffles (this pair,
  ** compiled by Triton 3.6, is tests/data/ttgir/cvt/gen_052: 8 shfl.sync
  ** and no shared memory in its PTX) */
  ok("explain mechanism", lyt_to_string(L, -1, &s, &n) == LYT_OK &&
                          strstr(s, "\"line\":4,\"from\":\"#b\",\"to\":\"#c\"") &&
                          strstr(s, "\"mechanism\":\"shuffle\""));
  lyt_settop(L, top);
  int64_t nconv = 0;
  ok("explain record", lyt_explain(L, mod, sizeof mod - 1, NULL, NULL) == LYT_OK &&
                       lyt_get_field(L, -1, "conversions") == LYT_OK &&
                       lyt_len(L, -1, &nconv) == LYT_OK && nconv == 1);
  lyt_settop(L, top);
  static const char bad[] = "#b = #ttg.blocked<{sizePerThread = [1]}>\n";
  int line = 0, col = 0;
  const char *file = NULL;
  int st = lyt_explain(L, bad, sizeof bad - 1, "bad.ttgir", "text");
  fails("explain bad alias", L, top, st, LYT_ERRRUN, "is missing");
  lyt_error(L, &file, &line, &col);
  ok("explain error located", file && strcmp(file, "bad.ttgir") == 0 && line == 1 && col == 6);
  fails("explain format", L, top, lyt_explain(L, mod, sizeof mod - 1, "m", "xml"), LYT_ERRRUN, "format");
  fails("explain no text", L, top, lyt_explain(L, NULL, 0, "m", NULL), LYT_ERRRUN, "no text");
}

int main(void) {
  test_lines();
  lyt_state *L = open_state();
  test_stack(L);
  test_layouts(L);
  test_calls(L);
  test_cores(L);
  test_explain(L);
  lyt_close(L);
  test_no_writes();
  test_memory();
  test_templates();
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
