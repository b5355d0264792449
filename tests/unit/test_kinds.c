/*
** test_kinds.c: every value kind in the table (interp/kinds.c) keeps the
** promises of eval/kind.h. For each kind, from its row's sample:
**   - the row is whole: a name, copy, equality and printing, and for JSON
**     and notation either the operation or the reason it has none;
**   - the sample makes a value of that kind, and equality is reflexive;
**   - a copy equals the value, and still does after the original's memory
**     is given back (filled with garbage first, so a copy that still
**     points into it fails here, and ASan names the read);
**   - printing, then evaluating the text, gives an equal value (kinds with
**     a notation);
**   - to_json then from_json gives an equal value (kinds with JSON).
** A failure names the kind and the property.
**
** Functions print as their definitions, so one sample cannot show that
** printing reads back for them: every function the stdlib defines, and
** definitions written to use every construct of the grammar, must print
** as text that reads back as an equal function (in the module that
** defined it) and prints the same again; and functions that differ
** anywhere must not compare equal.
**
** Axe layouts likewise: 1,000 random ones (shard, replica and offset over
** five axes, the memory axis among them) must print as text that reads
** back equal.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/eval/kind.h"
#include "interp/eval/state.h"

static int npass, nfail;

static void result(int ok, const char *kind, const char *what, const char *detail) {
  if (ok) { npass++; return; }
  nfail++;
  printf("FAIL kind %s: %s%s%s\n", kind, what, detail ? ": " : "", detail ? detail : "");
}

/* The host allocator of the copies: a block given back is overwritten
** first, so nothing can still read what it held. */
static void *poison_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  if (nsize == 0) {
    if (ptr) memset(ptr, 0xA5, osize);
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

static int cf(lyt_state *L, int nargs, void *ud) { (void)L; (void)nargs; (void)ud; return 0; }

typedef struct job {
  int k;
  const char *failed;   /* the property that failed, NULL if all held */
  char detail[256];
} job;

static lyt_value eval(lyt_state *L, const char *text) {
  return lytI_eval_src(L, "<sample>", text, strlen(text));
}

static const char *text_of(lyt_state *L, const lyt_value *v) {
  lytS_buf b;
  lytS_buf_init(&b, &L->cx);
  lytI_print_value(&b, v);
  return b.p;
}

static lyt_value call1(lyt_state *L, const char *fn, lyt_value a) {
  lyt_value *f = lytI_getglobal(L, lytI_intern(L, fn, strlen(fn)));
  lyt_loc nowhere = { NULL, 0, 0 };
  return lytI_call_value(L, *f, 1, &a, NULL, nowhere);
}

/* Each property in turn; the first that fails stops the kind. */
static void properties(lyt_state *L, lytI_req *q) {
  job *j = q->out;
  const lytI_kind *K = &lytI_kinds[j->k];
  lyt_value v = eval(L, K->sample);
  if ((int)v.kind != j->k) {
    j->failed = "the sample makes another kind";
    snprintf(j->detail, sizeof j->detail, "%s", lytI_kindname(v.kind));
    return;
  }
  if (!lytI_equal(&L->cx, &v, &v)) { j->failed = "equality is not reflexive"; return; }

  /* The original lives in a1 alone, a copy of it in a2; a1 goes. */
  lytA_arena a1, a2;
  lytA_init(&a1, poison_alloc, NULL, 0);
  lytA_init(&a2, poison_alloc, NULL, 0);
  L->cx.arena = &a1;
  lyt_value orig = eval(L, K->sample);
  L->cx.arena = &L->scratch;
  lyt_value c = lytI_copy_to(L, &a2, orig);
  int copy_equal = lytI_equal(&L->cx, &c, &orig);
  lytA_free(&a1);
  lyt_value fresh = eval(L, K->sample);
  int survives = lytI_equal(&L->cx, &c, &fresh) && strcmp(text_of(L, &c), text_of(L, &fresh)) == 0;
  lytA_free(&a2);
  if (!copy_equal) { j->failed = "a copy differs from the value"; return; }
  if (!survives) { j->failed = "a copy does not survive its original"; return; }

  if (!K->no_notation) {
    const char *t = text_of(L, &v);
    lyt_value back = eval(L, t);
    if (!lytI_equal(&L->cx, &back, &v)) {
      j->failed = "its printed text reads back as another value";
      snprintf(j->detail, sizeof j->detail, "%s", t);
      return;
    }
  }
  if (K->to_json) {
    lyt_value js = call1(L, "to_json", v);
    lyt_value back = call1(L, "from_json", js);
    if (!lytI_equal(&L->cx, &back, &v)) {
      j->failed = "its JSON reads back as another value";
      snprintf(j->detail, sizeof j->detail, "%.*s", 200, js.u.str.s);
      return;
    }
  }
}

/* Every construct a function body can hold, each in some definition. */
static const char *const written[] = {
  "fn(x) = x + 1",
  "fn named(a, b=2, c=a * b) = if a > b and not (c == 0 or b != 1) then -a else ~(a ^ b) & 3 | 1 << 2 >> 1",
  "fn(s) = (s, (s,), (), [s, _], {a: 1, b}, nil, true, false, \"q\\\"\\n\\t\\\\\")",
  "fn(l) = ((4,(2,3)):(2,(1,8)), 1@0@1, 4@lane, l.shape, l[0], size(l, mode=0), (4) % 2, 7 / 2 - 3 * 2)",
  "fn(x) = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>",
  "fn(x) = {register: [[0, 1]]} -> {dim0: 2}",
  ("fn blk(n) { s = 0; for i in range(n) { if i % 2 == 0 { continue } else if i > 7 { break } else { s = s + i } }; "
   "while s > 100 { s = s - 1 }; print s; show 4:1; fn g(y) = y; h = fn(z) { return z }; return g(h(s)) }"),
  "fn(x) { import \"triton\" as tt; #a = #ttg.slice<{dim = 0, parent = #blocked}>; return (fn(y) = y)(x) }",
  "fn(x) { }",
  "fn(x) = - -x",
};

/* Functions that differ in one place each, pairwise unequal. */
static const char *const differ[] = {
  "fn(x) = x + 1", "fn(x) = x + 2", "fn(y) = y + 1", "fn(x) = (x + 1)", "fn f(x) = x + 1",
  "fn(x, y) = x + 1", "fn(x=1) = x + 1", "fn(x) = x - 1", "fn(x) { return x + 1 }",
};

/* The text of function v reads back, in module mod, as an equal function
** that prints the same. */
static void reads_back(lyt_state *L, lytI_table *mod, lyt_value v, job *j) {
  lytI_table *was = L->mod;
  const char *t = text_of(L, &v);
  L->mod = mod;
  lyt_value back = eval(L, t);
  L->mod = was;
  if (!lytI_equal(&L->cx, &back, &v) || strcmp(text_of(L, &back), t) != 0) {
    j->failed = "its printed text reads back as another function";
    snprintf(j->detail, sizeof j->detail, "%.200s", t);
  }
}

static void functions(lyt_state *L, lytI_req *q) {
  job *j = q->out;
  lytI_table *std = (lytI_table *)lytI_stdlib_module(L, "triton.lyt");
  int n = 0;
  for (uint32_t i = 0; i < std->cap && !j->failed; i++)
    if (std->slot[i].name && std->slot[i].v.kind == LYT_VFUNC && std->slot[i].v.u.fn->mod == std) {
      reads_back(L, std, std->slot[i].v, j);
      n++;
    }
  if (n < 50 && !j->failed) {
    j->failed = "the stdlib defines fewer than 50 functions: were they found?";
    return;
  }
  for (size_t k = 0; k < sizeof written / sizeof *written && !j->failed; k++)
    reads_back(L, L->mod, eval(L, written[k]), j);
  size_t nd = sizeof differ / sizeof *differ;
  for (size_t a = 0; a < nd && !j->failed; a++)
    for (size_t b = 0; b < nd; b++) {
      lyt_value x = eval(L, differ[a]), y = eval(L, differ[b]);
      if (lytI_equal(&L->cx, &x, &y) != (a == b)) {
        j->failed = a == b ? "a function differs from itself" : "different functions compare equal";
        snprintf(j->detail, sizeof j->detail, "%s and %s", differ[a], differ[b]);
        break;
      }
    }
}

/* A small deterministic generator: the cases are the same on every run. */
static uint32_t rnd(uint32_t *st, uint32_t n) {
  *st = *st * 1664525u + 1013904223u;
  return (*st >> 8) % n;
}

static void random_axe(uint32_t *st, char *out, size_t cap) {
  static const char *const axes[] = { "lane", "warp", "m", "reg", "gpuid_x" };
  static const int ext[] = { 1, 2, 3, 4, 8 }, str[] = { 0, 1, 2, 4, 8 };
  int n = 1 + (int)rnd(st, 4), e[4], d[4], a[4];
  for (int i = 0; i < n; i++) e[i] = ext[rnd(st, 5)], d[i] = str[rnd(st, 5)], a[i] = (int)rnd(st, 5);
  size_t k = (size_t)snprintf(out, cap, "axe((");
  for (int i = 0; i < n; i++) k += (size_t)snprintf(out + k, cap - k, "%s%d", i ? "," : "", e[i]);
  k += (size_t)snprintf(out + k, cap - k, "):(");
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(out + k, cap - k, "%s%d@%s", i ? "," : "", d[i], axes[a[i]]);
  k += (size_t)snprintf(out + k, cap - k, ")");
  if (rnd(st, 5) < 2)
    k += (size_t)snprintf(out + k, cap - k, ", replica=%d:%d@%s", rnd(st, 2) ? 2 : 4,
                          1 + (int)rnd(st, 8), axes[rnd(st, 5)]);
  if (rnd(st, 5) < 3) {
    k += (size_t)snprintf(out + k, cap - k, ", offset={");
    int no = 1 + (int)rnd(st, 3), first = (int)rnd(st, 5);
    for (int i = 0; i < no; i++)
      k += (size_t)snprintf(out + k, cap - k, "%s%s: %d", i ? ", " : "", axes[(first + i) % 5],
                            (int)rnd(st, 10));
    k += (size_t)snprintf(out + k, cap - k, "}");
  }
  snprintf(out + k, cap - k, ")");
}

static void axe_round_trips(lyt_state *L, lytI_req *q) {
  job *j = q->out;
  uint32_t st = 2026;
  char src[512];
  for (int i = 0; i < 1000 && !j->failed; i++) {
    random_axe(&st, src, sizeof src);
    lyt_value v = eval(L, src);
    const char *t = text_of(L, &v);
    lyt_value back = eval(L, t);
    if (!lytI_equal(&L->cx, &back, &v)) {
      j->failed = "its printed text reads back as another layout";
      snprintf(j->detail, sizeof j->detail, "%.120s printed as %.120s", src, t);
    }
  }
}

/* One job in a protected call: an error is the job's failure. */
static void run(lyt_state *L, void (*fn)(lyt_state *, lytI_req *), int k, const char *name) {
  job j = { k, NULL, "" };
  lytI_req q = { .out = &j };
  if (lytI_protect(L, fn, &q) != LYT_OK) {
    snprintf(j.detail, sizeof j.detail, "%s", lyt_error(L, NULL, NULL, NULL));
    j.failed = "an error";
  }
  result(j.failed == NULL, name, j.failed ? j.failed : "", j.detail[0] ? j.detail : NULL);
}

int main(void) {
  lyt_config cfg;
  lyt_config_init(&cfg);
  lyt_state *L = lyt_open(&cfg);
  if (!L || lyt_dostring(L, "import \"triton.lyt\"\nfn f(x) = x + 1\n", "<prelude>") != LYT_OK ||
      lyt_push_cfunction(L, "cf", cf, NULL) != LYT_OK || lyt_setglobal(L, "cf") != LYT_OK) {
    printf("FAIL the prelude: %s\n", L ? lyt_error(L, NULL, NULL, NULL) : "no state");
    printf("0 passed, 1 failed\n");
    return 1;
  }
  for (int k = 0; k < LYT_NKINDS; k++) {
    const lytI_kind *K = &lytI_kinds[k];
    char num[32];
    snprintf(num, sizeof num, "%d", k);
    const char *name = K->name ? K->name : num;
    result(K->name != NULL, name, "no row in the table", NULL);
    result(K->copy != NULL, name, "no copy", NULL);
    result(K->equal != NULL, name, "no equality", NULL);
    result(K->print != NULL, name, "no printing", NULL);
    result((K->to_json != NULL) != (K->no_json != NULL), name,
           "JSON: neither to_json nor a reason for none (or both)", NULL);
    result(K->sample != NULL, name, "no sample", NULL);
    if (!K->name || !K->copy || !K->equal || !K->print || !K->sample) continue;
    run(L, properties, k, name);
  }
  run(L, functions, LYT_VFUNC, "function");
  run(L, axe_round_trips, LYT_VAXE, "axe layout");
  lyt_close(L);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
