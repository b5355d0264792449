/*
** fuzz_gen.c: structure-aware libFuzzer target. The input bytes do not
** become source text; they steer a generator of well-formed programs:
** bindings, one-expression and block functions that call themselves and
** each other, every builtin of every library (lytI_libs) and every stdlib
** function with plausible and hostile arguments (integer extremes,
** malformed attribute texts, deep nesting, keyword arguments, records,
** linear literals). Random bytes mostly fail to parse; these programs
** parse and reach the cores. Any outcome but a crash, a sanitizer report,
** a leak or a failure without a located message is fine.
**
** Set LYT_FUZZ_PRINT=1 to print each generated program (to see what a
** corpus file means).
*/
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "interp/eval/builtin.h"
#include "lyt.h"

#ifndef LYT_STDLIB_DIR
#define LYT_STDLIB_DIR "stdlib"
#endif

extern const lytI_builtin *const lytI_libs[];

typedef struct gen {
  bytes b;
  char *out;
  size_t n, cap;
  int nfn;  /* functions defined so far (f0 .. f{nfn-1}) */
} gen;

static void put(gen *g, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int k = vsnprintf(g->out + g->n, g->cap - g->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (g->n + (size_t)k < g->cap) { g->n += (size_t)k; return; }
    size_t cap = 2 * g->cap + (size_t)k + 64;
    char *p = realloc(g->out, cap);
    if (!p) return;
    g->out = p, g->cap = cap;
  }
}

static unsigned pick(gen *g, unsigned n) { return take(&g->b) % n; }

/* Stdlib function names, read once from the stdlib's files ("fn NAME(").  */
static char stdfn[256][48];
static int nstdfn = -1;
static void read_stdlib(void) {
  nstdfn = 0;
  DIR *d = opendir(LYT_STDLIB_DIR);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    char path[1024], line[512];
    if (!strstr(e->d_name, ".lyt")) continue;
    snprintf(path, sizeof path, "%s/%s", LYT_STDLIB_DIR, e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    while (fgets(line, sizeof line, f) && nstdfn < 256)
      if (sscanf(line, "fn %47[A-Za-z0-9_]", stdfn[nstdfn]) == 1) nstdfn++;
    fclose(f);
  }
  closedir(d);
}

static const char *const ints[] = {
  "0", "1", "2", "3", "4", "8", "16", "32", "64", "128", "256", "1024", "-1", "-2",
  "2147483648", "4294967296", "4611686018427387904", "9223372036854775807",
  "(-9223372036854775807-1)", "7", "6", "5", "12", "65536",
};
static const char *const strs[] = {
  "\"\"", "\"x\"", "\"c\"", "\"ptx\"", "\"amdgcn\"", "\"dim0\"", "\"register\"", "\"lane\"",
  "\"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\"",
  "\"#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>\"",
  "\"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [\"",
  "\"(4,2):(1,4)\"", "\"Layout<Shape<_4,_2>,Stride<_1,_4>>{}\"",
  "\"make_layout(make_shape(2,4), make_stride(4,1))\"", "\"((((((((((\"",
  "\"{\\\"kind\\\": \\\"layout\\\", \\\"shape\\\": [4, 2], \\\"stride\\\": [1, 4]}\"",
  "\"{\\\"kind\\\": \\\"linear\\\"\"", "\"[[[[[[[[[[[[[[[[[[[[\"",
  ("\"#iree_vector_ext.nested_layout<subgroup_tile = [1, 1], batch_tile = [2, 4], outer_tile = [4, 1], "
   "thread_tile = [4, 2], element_tile = [1, 4], subgroup_strides = [0, 0], thread_strides = [1, 4]>\""),
  "\"f16\"", "\"f32\"", "\"i8\"", "\"/tmp/lyt_fuzz.svg\"",
};
/* Values most builtins accept somewhere: layouts of every kind, tuples of
** small powers of two, encodings (when the stdlib is imported). */
static const char *const plausible[] = {
  "a", "b", "_", "nil", "true", "false", "(4,2):(1,4)", "8:1", "((2,2),4):((1,4),2)", "(4,8)",
  "(1,0)", "(0,1)", "(2,2)", "(64,64)", "(32,32)", "(8,4)", "(1,4)", "(4,1)", "[2,_]", "[4:1,2:1]",
  "swizzle(3,4,3)", "composition(swizzle(2,2,2), (8,8):(8,1))", "make_identity_layout((4,8))",
  "blocked((1,4),(8,4),(4,1),(1,0))", "to_linear(blocked((1,4),(8,4),(4,1),(1,0)), (64,64))",
  "{register: [[0,1],[0,2]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 4}",
  "axe((8,2,4,2):(4@lane,1@warp,1@lane,1@reg), replica=2:4@warp)", "make_range(0, 8)",
  "nested((2,1),(2,4),(1,1),(16,4),(1,4),(1,0),(1,16))", "\"f32\"", "\"f16\"",
};
static const char *const dims[] = { "register", "lane", "warp", "block", "dim0", "dim1", "a", "offset" };

static void expr(gen *g, int depth);

static void list(gen *g, int depth, int n, const char *open, const char *close) {
  put(g, "%s", open);
  for (int i = 0; i < n; i++) {
    if (i) put(g, ", ");
    expr(g, depth);
  }
  put(g, "%s", close);
}

/* A shape or stride: an integer or a nested tuple of small integers. */
static void inttuple(gen *g, int depth) {
  if (depth <= 0 || pick(g, 3)) { put(g, "%s", ints[pick(g, 14)]); return; }
  int n = 1 + (int)pick(g, 3);
  put(g, "(");
  for (int i = 0; i < n; i++) {
    if (i) put(g, ",");
    inttuple(g, depth - 1);
  }
  put(g, ")");
}

/* {register: [[0,1],[1,0]], lane: [...]} -> {dim0: 4, dim1: 4} */
static void linear(gen *g) {
  int nin = 1 + (int)pick(g, 3), nout = 1 + (int)pick(g, 2);
  put(g, "{");
  for (int i = 0; i < nin; i++) {
    int nb = (int)pick(g, 4);
    put(g, "%s%s: [", i ? ", " : "", dims[i]);
    for (int k = 0; k < nb; k++) {
      put(g, "%s[", k ? ", " : "");
      for (int o = 0; o < nout; o++) put(g, "%s%u", o ? "," : "", 1u << pick(g, 4));
      put(g, "]");
    }
    put(g, "]");
  }
  put(g, "} -> {");
  for (int o = 0; o < nout; o++) put(g, "%s%s: %u", o ? ", " : "", dims[4 + o], 1u << pick(g, 6));
  put(g, "}");
}

static void builtin_call(gen *g, int depth) {
  int nlib = 0, total = 0;
  while (lytI_libs[nlib]) {
    for (const lytI_builtin *b = lytI_libs[nlib]; b->name; b++) total++;
    nlib++;
  }
  int k = (int)((take(&g->b) << 8 | take(&g->b)) % (unsigned)total);
  const lytI_builtin *b = NULL;
  for (int l = 0; !b; l++)
    for (const lytI_builtin *p = lytI_libs[l]; p->name; p++)
      if (k-- == 0) { b = p; break; }
  int np = 0;
  while (b->params[np]) np++;
  int n = b->nreq + (int)pick(g, 2);
  if (b->npos == LYTI_VARIADIC) n = (int)pick(g, 5);
  put(g, "%s(", b->name);
  for (int i = 0; i < n; i++) {
    if (i) put(g, ", ");
    expr(g, depth);
  }
  /* Sometimes a keyword argument, named as declared or not. */
  if (np && pick(g, 4) == 0) {
    put(g, "%s%s=", n ? ", " : "", pick(g, 8) ? b->params[pick(g, (unsigned)np)] : "nope");
    expr(g, depth);
  }
  put(g, ")");
}

static void expr(gen *g, int depth) {
  static const char *const ops[] = { "+", "-", "*", "/", "%", "==", "!=", "<", ":", "->", "and", "or",
                                     "^", "&", "|", "<<", ">>" };
  if (depth <= 0) {
    switch (pick(g, 4)) {
      case 0: put(g, "%s", ints[pick(g, sizeof ints / sizeof *ints)]); break;
      case 1: put(g, "v%u", pick(g, 6)); break;
      case 2: put(g, "%s", strs[pick(g, sizeof strs / sizeof *strs)]); break;
      default: put(g, "%s", plausible[pick(g, sizeof plausible / sizeof *plausible)]);
    }
    return;
  }
  depth--;
  switch (pick(g, 18)) {
    case 0: case 1: builtin_call(g, depth); break;
    case 2:
      if (nstdfn > 0) {
        put(g, "%s", stdfn[pick(g, (unsigned)nstdfn)]);
        list(g, depth, (int)pick(g, 5), "(", ")");
      } else expr(g, depth);
      break;
    case 3: put(g, "("), inttuple(g, 2), put(g, "):("), inttuple(g, 2), put(g, ")"); break;
    case 4: list(g, depth, (int)pick(g, 5), "(", pick(g, 4) ? ")" : ",)"); break;
    case 5: put(g, "("), expr(g, depth), put(g, " %s ", ops[pick(g, 12)]), expr(g, depth), put(g, ")"); break;
    case 6: put(g, "(if "), expr(g, depth), put(g, " then "), expr(g, depth), put(g, " else "), expr(g, depth), put(g, ")"); break;
    case 7: {
      int n = (int)pick(g, 4);
      put(g, "{");
      for (int i = 0; i < n; i++) put(g, "%s%s: ", i ? ", " : "", dims[pick(g, 8)]), expr(g, depth);
      put(g, "}");
      break;
    }
    case 8: linear(g); break;
    case 9: expr(g, depth), put(g, "[%s]", ints[pick(g, 6)]); break;
    case 10: expr(g, depth), put(g, ".%s", dims[pick(g, 8)]); break;
    case 11: put(g, "("), expr(g, depth), put(g, ")"), list(g, depth, (int)pick(g, 3), "(", ")"); break;
    case 12:
      if (g->nfn) put(g, "f%u", pick(g, (unsigned)g->nfn)), list(g, depth, (int)pick(g, 3), "(", ")");
      else expr(g, depth);
      break;
    case 13: list(g, depth, (int)pick(g, 4), "[", "]"); break;
    case 14: {
      /* Hostile depth: a wrapper repeated hundreds or thousands of times. */
      static const char *const wrap[][2] = { { "(", ")" }, { "-", "" }, { "size(", ")" }, { "(1,", ")" },
                                             { "not ", "" }, { "~", "" } };
      int w = (int)pick(g, 6), n = 1 + (int)pick(g, 8);
      if (pick(g, 4) == 0) n = 1 + (int)(take(&g->b) * 40u);
      for (int i = 0; i < n; i++) put(g, "%s", wrap[w][0]);
      expr(g, 0);
      for (int i = 0; i < n; i++) put(g, "%s", wrap[w][1]);
      break;
    }
    case 15: put(g, "-"), expr(g, depth); break;
    default: expr(g, 0);
  }
}

static void stmt(gen *g) {
  int depth = 1 + (int)pick(g, 5);
  switch (pick(g, 9)) {
    case 0: case 1: put(g, "v%u = ", pick(g, 6)), expr(g, depth); break;
    case 2: put(g, "print "), expr(g, depth); break;
    case 3:
      /* A function that may call itself: recursion with a base case or not. */
      put(g, "fn f%d(a, b=%s) = if ", g->nfn, ints[pick(g, 6)]), expr(g, depth);
      put(g, " then "), expr(g, depth), put(g, " else f%d(", g->nfn), expr(g, depth), put(g, ")");
      g->nfn++;
      break;
    case 4:
      put(g, "fn f%d(a, b=nil) {\n  v0 = ", g->nfn), expr(g, depth);
      put(g, "\n  return "), expr(g, depth), put(g, "\n}");
      g->nfn++;
      break;
    case 5: put(g, "show "), expr(g, depth); break;
    case 6: put(g, "import \"%s\"", (const char *[]){ "triton.lyt", "triton_shared.lyt", "nope.lyt" }[pick(g, 3)]); break;
    default: expr(g, depth);
  }
  put(g, "\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (nstdfn < 0) read_stdlib();
  gen g = { { data, size }, NULL, 0, 0, 0 };
  g.out = malloc(g.cap = 4096);
  if (!g.out) return 0;
  g.out[0] = 0;
  /* Statements are kept apart by NUL bytes and run one at a time, as the
     REPL runs them: one error does not hide the rest of the program. */
  if (take(&g.b) & 1) put(&g, "import \"triton.lyt\"\n"), g.n++;
  while (g.b.n) {
    stmt(&g);
    g.n++;
  }
  if (getenv("LYT_FUZZ_PRINT"))
    for (size_t i = 0; i < g.n; i += strlen(g.out + i) + 1) fputs(g.out + i, stdout);
  lyt_config c;
  lyt_config_init(&c);
  c.max_steps = 200000;
  c.no_file_writes = 1;
  c.mem_limit = 64u << 20;
  c.stdlib_path = LYT_STDLIB_DIR;
  lyt_state *L = lyt_open(&c);
  if (L) {
    for (size_t i = 0; i < g.n; i += strlen(g.out + i) + 1) {
      if (lyt_dostring(L, g.out + i, "gen") == LYT_OK) continue;
      int line = 0;
      const char *msg = lyt_error(L, NULL, &line, NULL);
      if (!msg[0] || line <= 0) {
        fprintf(stderr, "unlocated error: %s\n", lyt_diagnostic(L));
        abort();
      }
    }
    lyt_close(L);
  }
  free(g.out);
  return 0;
}
