/*
** test_parse.c: the parser lyt runs (lang/parse.c, recursive descent)
** against the grammar's own (lang/parser.y's actions, Lemon), text by
** text: the same status, the same errors word for word with their
** locations, whether an unfinished text is called incomplete, and the
** same trees node for node. The texts are every script and catalogue
** input given as arguments (a catalogue of tests/errors gives each case's
** input), and the snippets below, which aim at the precedence levels,
** the non-chaining operators, error recovery and each production's
** edges.
*/
#include "harness.h"
#include "trees.h"

static const char *const snippets[] = {
  "x = 1 + 2 * 3 - 4 / 5 % 6", "x = a | b ^ c & d << 1 >> 2", "x = -a * -b - ~c",
  "x = not a and b or not c == d", "x = a == b == c", "x = a < b > c", "x = a : b : c",
  "x = a -> b -> c", "x = a : b -> c", "x = a == b : c : d", "x = a : b == c : d",
  "x = a | b@x", "x = a == b@x", "x = -a@x", "x = 1@0@1", "x = not a@x", "x = 2*3:1",
  "x = a == not b == c", "x = a == not b == c == d", "x = a == -b == c", "x = 1@0(2)",
  "x = a@(b)", "x = a@", "x = -2(3)", "x = -(2)", "x = (-1)", "x = (4,2):(-1,4)",
  "x = if a then b else c + 1", "x = 1 + if a then b else c * 2", "x = if a then if b then c else d else e",
  "if a { x } else if b { y } else { z }", "if a { x } else if b then c else d", "if a then b else c",
  "if a b", "if a { } \n else { }", "x = if a { 1 } else { 2 }", "fn f(x, y=2) = x + y",
  "fn(x) = x", "f = fn(x) { return x }(3)", "fn f(x) { x }", "fn f(x) =\n\n x", "fn f(3) = 1",
  "fn f(x,) = 1", "fn f x", "x = fn(x) = x(1)", "(fn(x) = x)(1)", "x = 1 + fn(x) = x + 1",
  "x = fn f(x) {x}", "print", "print 1, 2, 3", "print )", "print }", "{ print }", "print 1,",
  "show x", "show", "import \"triton\"", "import \"triton\" as t", "import \"triton\" bs t",
  "import \"triton\" as", "import triton", "#b = #ttg.blocked<{sizePerThread = [1]}>",
  "return 1", "return", "for i in range(3) { print i }", "for i on x { }", "for i on x { } $",
  "for i on x { } 5", "for (i) in x { }", "while x { x = x - 1; break; continue }",
  "while { }", "x = {a: 1, b: 2}", "x = {a: 2:1, b: 1 == 2}", "x = {\n a: 1,\n b\n}",
  "x = {a: 1 \n , b}", "x = {a: 1 \n b: 2}", "x = {}", "x = {\n}", "x = {a: 1,}", "x = {1: 2}",
  "x = ()", "x = (1)", "x = (1,)", "x = (1, 2)", "x = (1, 2,)", "x = (,)", "x = []", "x = [1]",
  "x = [1, 2]", "x = [1,]", "x = f()", "x = f(1, k=2, 3)", "x = f(k = 1 + 2)", "x = f(1,)",
  "x = f(,)", "x = a.b.c(1)[2]", "x = a.1", "x = a[1", "x = a[]", "x = (1 +\n 2)",
  "x = [1,\n 2]", "x = 1 +\n 2", "x = 1; y = 2;; z = 3", ";;\n\n;", "", "x =", "x = (",
  "x = (1, 2", "if a {", "fn f(x) =", "x = 1 2\ny = 3 4\nz = ) \nw = 5", "x = $ 1\ny = 2 2",
  "1 2; 3 4; 5 6; 7 8; 9 10; 11 12; 13 14; 15 16; 17 18; 19 20",
  "x = 99999999999999999999 + 1\ny = 1 1", "{ a: 1 } \n {", "x = \"abc", "x = a and b or c",
  "x = true, false", "x = nil", "x = _", "x = (_, 1)", "x = a . b", "else", "then", "x = a then",
  "if a then b", "if a then b else", "x = ((((((1))))))", "x = -(-(-(1)))", "x = not not a",
  "x = ~~a", "x = a <= b", "x = a != b >= c", "x = a >> b << c", "x = #ttg.blocked<{}>",
  "x = Layout<Shape<_2>, Stride<_1>>{}", "x = _2 + Int<3>{}", "x = \"a\\nb\"",
  "{\n x = 1\n y = 2\n}", "x = {a: {b: {c: 1}}}.a.b.c", "x = f(a=1)(b=2)", "x = a[1][2]",
  "while a { if b { break } else { continue } }", "x = if a then b else c == d",
  "x = a@b@c", "x = a@1@b", "x = 3 @ x", "fn f() { }", "fn () = 1", "fn", "fn f(",
  "x = f(a = )", "print 1 2", "x = [1 2]", "x = (1 2)", "x = a(1)(2).b[3]@x",
  /* integer tuples, which lang/parse.c reads from the text, and their edges */
  "x = (-1)", "x = (- 1, 2)", "x = (_2, 1)", "x = (_x, 1)", "x = (0x10, 1)", "x = (1, 2) (3)",
  "x = ((1,2),)", "x = (1 , ( 2 , 3 ) )", "x = (99999999999999999999, 1)", "x = (1,\t2)",
  "x = (1, 2 # c\n)", "x = (1\n,2)", "x = (12abc)", "x = (1,(2,(3,(4,5))))", "x = (--1)",
  "x = (-_)", "x = (((((((((((((((((((((1)))))))))))))))))))))", "x = (1,,2)", "x = (,1)",
  "x = (1,2,3,)", "x = ( )", "x = (_)", "x = (1)(2)", "x = (1,2)@x", "x = (1,2):(3,4)",
  "x = (1, -2):(-3, 4)", "x = (123456789012345678, 1)", "x = (1234567890123456789, 1)",
  "x = (1, 2", "x = (1, 2\ny = 3", "x = (1, 2)) + 1", "x = (1, 2\r)", "x = (1, 2 )x",
};

static int same_text(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

/* Parse src both ways; one check. */
static void compare(const char *name, const char *text, size_t len) {
  lytL_src src = { name, text, len, 0, 1, NULL };
  lytP_ctx p[2];
  int st[2];
  for (int k = 0; k < 2; k++) {
    memset(&p[k], 0, sizeof p[k]);
    p[k].cx = &cx, p[k].src = &src, p[k].intern = intern;
    p[k].cur = p[k].linestart = src.text, p[k].line = 1;
    lytS_buf_init(&p[k].diag, &cx);
    st[k] = k ? lytP_parse_grammar(&p[k]) : lytP_parse(&p[k]);
  }
  const char *why = NULL;
  /* near the nesting limit the two stop at other tokens (lang/parse.c) */
  if (strstr(p[0].diag.p ? p[0].diag.p : "", "nested too deeply") &&
      strstr(p[1].diag.p ? p[1].diag.p : "", "nested too deeply")) {
    npass++;
    return;
  }
  if (st[0] != st[1]) why = "status";
  else if (p[0].nerr != p[1].nerr) why = "error count";
  else if (p[0].incomplete != p[1].incomplete) why = "incomplete";
  else if (!same_text(p[0].diag.p, p[1].diag.p)) why = "errors";
  else if (st[0] == LYT_OK && differ(name, p[0].stmts.head, p[1].stmts.head)) why = "trees";
  if (!why) { npass++; return; }
  nfail++;
  printf("FAIL %s: the %s differ\n--- text\n%s\n--- lang/parse.c\n%s--- parser.y\n%s", name, why,
         text, p[0].diag.p ? p[0].diag.p : "", p[1].diag.p ? p[1].diag.p : "");
}

/* A catalogue (=== name, the input, ---, the expected output): each input. */
static void compare_cases(const char *file, char *text) {
  char *s = text;
  while ((s = strstr(s, "=== ")) != NULL && (s == text || s[-1] == '\n')) {
    char *name = s + 4, *nl = strchr(name, '\n');
    if (!nl) return;
    *nl = 0;
    char *input = nl + 1, *end = strstr(input, "\n---\n");
    if (!end) return;
    *end = 0;
    char label[512];
    snprintf(label, sizeof label, "%s: %s", file, name);
    compare(label, input, strlen(input));
    s = end + 5;
  }
}

/* ---------------------------------------------------------------------
** Line keys (lang/linekey.c) against a key written here byte by byte
** from its definition (lang/parse.h), on random lines, their variants
** with other digits, and lines that end at the end of their buffer.
** ------------------------------------------------------------------- */

/* The portable reader, compiled here beside the library's, which reads 16
** bytes at a time on x86-64: both must give the same words and hash. */
#define LYT_NO_SIMD
#define lytL_line_read portable_line_read
#define lytL_line_key portable_line_key
#define lytL_line_is portable_line_is
#define lytL_line_values portable_line_values
int portable_line_read(const char *s, const char *end, lytL_line *l);
int portable_line_key(const char *s, const char *end, lytL_key *k);
int portable_line_is(const lytL_key *k, const lytL_line *l, const char *s);
void portable_line_values(const lytL_key *k, const char *s, int64_t *v);
#include "lang/linekey.c"
#undef lytL_line_read
#undef lytL_line_key
#undef lytL_line_is
#undef lytL_line_values

static int same_read(const lytL_line *a, const lytL_line *b) {
  if (a->n != b->n || (a->n && a->hash != b->hash)) return 0;
  for (int i = 0; i < (a->n + 7) >> 3; i++)
    if (a->z[i] != b->z[i]) return 0;
  return 1;
}

static uint64_t rng = 88172645463325252u;
static unsigned next_rand(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (unsigned)(rng >> 11);
}

static int name_byte(char c) { return lytL_name_char(c); }

/* The key of line s (through its newline) as text, its literals' values
** and count; NULL for no key. */
static const char *ref_key(const char *s, char *out, int64_t *lit, int *nlit) {
  const char *nl = strchr(s, '\n');
  if (!nl || nl - s + 1 > LYTL_KEY_MAX) return NULL;
  int n = (int)(nl - s + 1);
  *nlit = 0;
  memcpy(out, s, (size_t)n);
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9' || (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')) continue;
    int j = i;
    while (s[j] >= '0' && s[j] <= '9') j++;
    if ((i > 0 && name_byte(s[i - 1])) || j - i > 18 || name_byte(s[j])) continue;
    int64_t v = 0;
    for (int k = i; k < j; k++) out[k] = '0', v = v * 10 + (s[k] - '0');
    lit[(*nlit)++] = v;
  }
  out[n] = 0;
  return out;
}

static void random_line(char *s, int len) {
  static const char bytes[] = "0123456789012345678901234567890123456789abxX_ (),:@-\t#\"";
  for (int i = 0; i < len; i++) s[i] = bytes[next_rand() % (sizeof bytes - 1)];
  s[len] = '\n';
  s[len + 1] = 0;
}

/* b: a with other digits, or with one byte changed. */
static void variant(const char *a, char *b) {
  strcpy(b, a);
  if (next_rand() % 4 == 0) {
    size_t i = next_rand() % strlen(a);
    if (b[i] != '\n') b[i] = "1a_ (x"[next_rand() % 6];
    return;
  }
  for (char *c = b; *c; c++)
    if (*c >= '0' && *c <= '9' && next_rand() % 2) *c = (char)('0' + next_rand() % 10);
}

/* a at the very end of a buffer of its own size (a sanitizer build sees
** any read past it), b followed by more text. */
static void check_line_pair(const char *a, const char *b) {
  char ka[LYTL_KEY_MAX + 2], kb[LYTL_KEY_MAX + 2];
  int64_t la[LYTL_KEY_MAX], lb[LYTL_KEY_MAX];
  int na = 0, nb = 0;
  char bt[2 * LYTL_KEY_MAX + 16];
  snprintf(bt, sizeof bt, "%snext 1 2\n", b);
  const char *ra = ref_key(a, ka, la, &na), *rb = ref_key(bt, kb, lb, &nb);
  size_t lena = strlen(a), lenb = strlen(b);
  char *ba = malloc(lena), *bb = malloc(lenb + 9);  /* no NUL: the end is the end */
  memcpy(ba, a, lena);
  memcpy(bb, b, lenb);
  memcpy(bb + lenb, "next 1 2\n", 9);
  lytL_key k;
  lytL_line l;
  int n = lytL_line_key(ba, ba + lena, &k), m = lytL_line_read(bb, bb + lenb + 9, &l);
  char why[64] = "";
  lytL_line pa, pb;
  portable_line_read(ba, ba + lena, &pa);
  portable_line_read(bb, bb + lenb + 9, &pb);
  if (!same_read(&pa, &k.line) || !same_read(&pb, &l)) {
    snprintf(why, sizeof why, "the portable reader differs");
  } else if (n != (ra ? (int)strlen(ra) : 0) || m != (rb ? (int)strlen(rb) : 0)) {
    snprintf(why, sizeof why, "lengths %d %d", n, m);
  } else if (ra) {
    int64_t v[LYTL_KEY_LITS];
    lytL_line_values(&k, ba, v);
    if (k.nlit != na) snprintf(why, sizeof why, "%d literals, not %d", k.nlit, na);
    for (int i = 0; !*why && i < na; i++)
      if (v[i] != la[i]) snprintf(why, sizeof why, "literal %d", i);
    int same = rb && strcmp(ra, rb) == 0;
    if (!*why && rb && lytL_line_is(&k, &l, bb) != same) snprintf(why, sizeof why, "is %d", same);
    if (!*why && same && k.line.hash != l.hash) snprintf(why, sizeof why, "hashes");
  }
  if (*why) {
    nfail++;
    printf("FAIL line keys (%s):\n%s%s", why, a, b);
  } else {
    npass++;
  }
  free(ba);
  free(bb);
}

static void test_line_keys(void) {
  static const char *const pairs[][2] = {
    { "print (3,8):(8,1)\n", "print (2,4):(4,1)\n" }, { "x1 = 3\n", "x2 = 3\n" },
    { "print 0x10\n", "print 0x20\n" }, { "print 1000000000000000000\n", "print 2000000000000000000\n" },
    { "print 100000000000000000\n", "print 200000000000000000\n" }, { "print 12\n", "print 1\n" },
    { "print -3\n", "print 3\n" }, { "print _2 + 1\n", "print _3 + 1\n" }, { "print 1\r\n", "print 2\r\n" },
    { "print 1", "print 2" }, { "\n", "\n" }, { "9\n", "0\n" }, { "print 2x\n", "print 3x\n" },
  };
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) check_line_pair(pairs[i][0], pairs[i][1]);
  char a[LYTL_KEY_MAX + 8], b[LYTL_KEY_MAX + 8];
  for (int len = LYTL_KEY_MAX - 3; len <= LYTL_KEY_MAX + 1; len++) {  /* around the longest key */
    memset(a, '7', (size_t)len);
    a[len - 1] = '\n', a[len] = 0;
    check_line_pair(a, a);
  }
  for (int t = 0; t < 20000; t++) {
    random_line(a, 1 + (int)(next_rand() % 70));
    variant(a, b);
    check_line_pair(a, b);
  }
}

/* The keys lytP_valid hands on for text: "lines" and the lines that have
** one, each checked to name its own line, or ", wrong". */
static void valid_keys(const char *text, size_t len, char *got, size_t cap) {
  lytL_src src = { "keys", text, len, 0, 0, NULL };
  lytP_ctx p;
  memset(&p, 0, sizeof p);
  p.cx = &cx, p.src = &src, p.intern = intern;
  p.cur = p.linestart = src.text, p.line = 1;
  p.keys = 1;
  lytS_buf_init(&p.diag, &cx);
  int bad = !lytP_valid(&p);
  const lytP_line_keys *k = &p.line_keys;
  bad |= k->n > k->cap;  /* the arena would not see a write past it */
  snprintf(got, cap, "lines");
  for (int32_t i = 0; !bad && i < k->n; i++) {
    if (!k->of[i]) continue;
    int32_t line = k->line0 + i;
    const char *at = text;
    for (int32_t l = 1; l < line; l++) at = strchr(at, '\n') + 1;
    lytL_line l;
    lytL_line_read(at, text + len, &l);
    bad = !lytL_line_is(k->list[k->of[i] - 1], &l, at);
    snprintf(got + strlen(got), cap - strlen(got), " %d", (int)line);
  }
  if (bad) snprintf(got + strlen(got), cap - strlen(got), ", wrong");
}

/* The check starts on line 1 inside no line (nothing is kept of it);
** lines that are part of a statement of several lines have none, and a
** statement of many lines is passed over (the keys' array grows past it). */
static void test_valid_keys(void) {
  static const char text[] =
    "print coalesce((3,8):(8,1))\n\n\nx = 1\nprint coalesce((2,4):(4,1))\n"
    "print coalesce((2,4):(4,1))\n\n# a comment that is long enough\nprint 7\n"
    "y = (1,\n 2)\nprint coalesce((9,9):(9,1))\n";
  char got[256];
  valid_keys(text, sizeof text - 1, got, sizeof got);
  check("the check's keys", got, "lines 2 3 4 5 6 7 8 9 12");
  char long_stmt[4096] = "x = 1\nz = 2\ny = (1,\n";
  for (int i = 0; i < 300; i++) strcat(long_stmt, "1,\n");
  strcat(long_stmt, "2)\nprint 5\nprint 6\n");
  valid_keys(long_stmt, strlen(long_stmt), got, sizeof got);
  check("the check's keys past a statement of 302 lines", got, "lines 2 305 306");
}

int main(int argc, char **argv) {
  trees_init();
  test_line_keys();
  test_valid_keys();
  if (setjmp(jb)) {
    printf("FAIL: %s\n", cx.msg);
    return 1;
  }
  for (size_t i = 0; i < sizeof snippets / sizeof *snippets; i++) {
    char name[32];
    snprintf(name, sizeof name, "snippet %zu", i);
    compare(name, snippets[i], strlen(snippets[i]));
  }
  for (int i = 1; i < argc; i++) {
    size_t len = 0;
    char *text = slurp(argv[i], &len);
    if (!text) {
      check(argv[i], "unreadable", "read");
      continue;
    }
    size_t n = strlen(argv[i]);
    if (n > 4 && strcmp(argv[i] + n - 4, ".txt") == 0) compare_cases(argv[i], text);
    else compare(argv[i], text, len);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  lytA_free(&arena);
  return nfail > 0;
}
