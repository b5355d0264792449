/*
** interop/ttgir_axis.c: Triton's AxisInfo analysis run over a TTGIR
** module's text, for the vector width of each global load and store.
**
** Every SSA value gets the facts Triton's analysis would give it
** (axisinfo/rules.c): function arguments their tt.divisibility,
** tt.contiguity and tt.constancy, constants and ranges what they are, and
** each modelled op its rule. An scf.for runs its body until the facts of
** its loop-carried values stop changing (their merge is the gcd, as
** Triton's lattice join), an scf.if merges its branches. A value from an
** op Triton does not model either is pessimistic, as in Triton; one from
** an op Triton models but this file does not is pessimistic and marked
** inexact, so a width that depends on it is reported as a lower bound,
** never as Triton's.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "interp/axisinfo/axisinfo.h"
#include "interp/interop/interop.h"

#define MAXARGS 64

typedef struct aval {
  const char *name;  /* "%x" or "%x#1", in the text or the arena */
  size_t len;
  lytV_info info;
  int64_t shape[LYTV_MAXRANK];
  int exact;
} aval;

typedef struct ax {
  lytS_ctx *cx;
  lyt_state *L;
  const lytL_src *src;  /* the module: where errors point */
  const char *const *ls, *const *le;  /* each line's start and end */
  int32_t n;
  aval *v;
  int32_t nv, capv;
  lytI_gaccess *acc;
  int32_t nacc, capacc;
  int depth;  /* nested regions, bounded by the line count */
} ax;

static int name_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == '$' || c == '#';
}

/* "%name" at p: its length, 0 if none. */
static size_t ssa_len(const char *p, const char *e) {
  if (p >= e || *p != '%') return 0;
  const char *q = p + 1;
  while (q < e && name_char(*q)) q++;
  return q > p + 1 ? (size_t)(q - p) : 0;
}

static aval *lookup(ax *a, const char *s, size_t n) {
  for (int32_t i = a->nv - 1; i >= 0; i--)
    if (a->v[i].len == n && memcmp(a->v[i].name, s, n) == 0) return &a->v[i];
  return NULL;
}

static void define(ax *a, const char *s, size_t n, const lytV_info *info, const int64_t *shape, int exact) {
  aval *v = lookup(a, s, n);
  if (!v) {
    a->v = lytS_grow(a->cx, a->v, a->nv, &a->capv, sizeof *a->v, 64);
    v = &a->v[a->nv++];
    v->name = s;
    v->len = n;
  }
  v->info = *info;
  memset(v->shape, 0, sizeof v->shape);
  for (int d = 0; d < info->rank; d++) v->shape[d] = shape[d];
  v->exact = exact;
}

/* ---------------------------------------------------------------------
** Types: "tensor<64x1x!tt.ptr<f16>, #b>" or a scalar ("i32")
** ------------------------------------------------------------------- */

typedef struct tinfo {
  int rank;
  int64_t shape[LYTV_MAXRANK];
  int64_t bits;  /* the element's, or the pointee's for a pointer */
  int ptr;
} tinfo;

static int64_t elem_bits(const char *p, const char *e) {
  while (p < e && !isdigit((unsigned char)*p)) p++;
  int64_t b = 0;
  while (p < e && isdigit((unsigned char)*p) && b < 4096) b = b * 10 + (*p++ - '0');
  return b == 1 ? 8 : b ? b : 32;
}

static tinfo type_of(const char *p, const char *e) {
  tinfo t = { 1, { 1 }, 32, 0 };
  while (p < e && *p == ' ') p++;
  if (e - p > 7 && memcmp(p, "tensor<", 7) == 0) {
    p += 7;
    t.rank = 0;
    while (p < e && isdigit((unsigned char)*p)) {
      int64_t d = 0;
      while (p < e && isdigit((unsigned char)*p) && d < ((int64_t)1 << 40)) d = d * 10 + (*p++ - '0');
      if (t.rank < LYTV_MAXRANK) t.shape[t.rank] = d ? d : 1;
      t.rank++;
      if (p < e && *p == 'x') p++;
    }
    if (t.rank == 0 || t.rank > LYTV_MAXRANK) t.rank = 0;  /* not modelled */
  }
  const char *ee = p;
  while (ee < e && *ee != ',' && *ee != '>') ee++;
  if (ee - p > 8 && memcmp(p, "!tt.ptr<", 8) == 0) { t.ptr = 1; p += 8; }
  t.bits = elem_bits(p, ee);
  return t;
}

int64_t lytI_elem_bits(const char *p, const char *e) {
  tinfo t = type_of(p, e);
  return t.ptr ? 64 : t.bits;
}

/* The text after the last " : " outside brackets, up to " loc(": the
** op's types. */
static const char *signature(const char *p, const char *e, const char **end) {
  const char *sig = NULL;
  int depth = 0;
  for (const char *q = p; q < e; q++) {
    if (*q == '"') { while (++q < e && *q != '"') {} continue; }
    if (*q == '<' || *q == '(' || *q == '[' || *q == '{') depth++;
    else if ((*q == '>' && q[-1] != '-') || *q == ')' || *q == ']' || *q == '}') depth--;
    else if (depth == 0 && q + 2 < e && q[0] == ' ' && q[1] == ':' && q[2] == ' ') sig = q + 3;
  }
  *end = e;
  if (sig) {
    const char *lc = strstr(sig, " loc(");
    if (lc && lc < e) *end = lc;
  }
  return sig;
}

/* The last top-level type of a signature (the result's). */
static tinfo result_type(const char *sig, const char *e) {
  if (!sig) return (tinfo){ 1, { 1 }, 32, 0 };
  const char *last = sig;
  int depth = 0;
  for (const char *q = sig; q < e; q++) {
    if (*q == '<' || *q == '(') depth++;
    else if ((*q == '>' && q[-1] != '-') || *q == ')') depth--;
    else if (depth == 0 && q + 3 < e && memcmp(q, " -> ", 4) == 0) last = q + 4;
  }
  while (*last == '(') last++;
  return type_of(last, e);
}

/* ---------------------------------------------------------------------
** Operands
** ------------------------------------------------------------------- */

/* The %names between p and e (before the signature), in order. */
static int ops_of(const char *p, const char *e, const char **s, size_t *n, int max) {
  int k = 0;
  for (; p < e && k < max; p++) {
    if (*p == '"') { while (++p < e && *p != '"') {} continue; }
    size_t len = ssa_len(p, e);
    if (len) { s[k] = p; n[k++] = len; p += len - 1; }
  }
  return k;
}

static lytV_info info_of(ax *a, const char *s, size_t n, int rank, int *exact) {
  aval *v = lookup(a, s, n);
  if (!v || v->info.rank != rank) {
    if (!v) *exact = 0;
    if (v && v->info.rank == 1 && v->shape[0] == 1) {  /* a scalar used by shape: splat-like */
      *exact &= v->exact;
      return v->info;
    }
    return lytV_pessimistic(rank);
  }
  *exact &= v->exact;
  return v->info;
}

static int64_t attr_int(const char *p, const char *e, const char *key) {
  size_t k = strlen(key);
  for (; p + k < e; p++)
    if (memcmp(p, key, k) == 0 && (p[k] == ' ' || p[k] == '=')) {
      p += k;
      while (p < e && (*p == ' ' || *p == '=')) p++;
      int neg = *p == '-';
      if (neg) p++;
      int64_t v = 0;
      while (p < e && isdigit((unsigned char)*p) && v < ((int64_t)1 << 50)) v = v * 10 + (*p++ - '0');
      return neg ? -v : v;
    }
  return 0;
}

/* ---------------------------------------------------------------------
** Ops
** ------------------------------------------------------------------- */

static const struct { const char *name; int op; } BINARY[] = {
  { "arith.addi", LYTV_T_ADD }, { "arith.subi", LYTV_T_SUB }, { "arith.muli", LYTV_T_MUL },
  { "arith.divsi", LYTV_T_DIV }, { "arith.divui", LYTV_T_DIV }, { "arith.remsi", LYTV_T_REM },
  { "arith.remui", LYTV_T_REM }, { "arith.andi", LYTV_T_AND }, { "arith.ori", LYTV_T_OR },
  { "arith.xori", LYTV_T_XOR }, { "tt.addptr", LYTV_T_ADDPTR },
};
/* Ops whose result passes its operand's facts through. */
static const char *const SAME[] = { "arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
                                    "ttg.convert_layout", "tt.int_to_ptr", "tt.ptr_to_int", NULL };
/* Ops whose results Triton leaves pessimistic too: exact. */
static const char *const OPAQUE[] = { "tt.load", "tt.get_program_id", "tt.get_num_programs",
                                      "tt.dot", "ttng.warp_group_dot", "tt.reduce", "tt.scan",
                                      "ttg.local_load", "ttg.local_alloc", "ttg.memdesc_index",
                                      "ttg.async_copy_global_to_local", "ttg.async_commit_group",
                                      "ttg.async_wait", "ttng.warp_group_dot_wait", "tt.trans",
                                      "tt.reshape", "tt.histogram", "tt.atomic_rmw", "tt.atomic_cas",
                                      NULL };

static int is(const char *op, size_t n, const char *name) {
  return strlen(name) == n && memcmp(op, name, n) == 0;
}

static int in_list(const char *op, size_t n, const char *const *l) {
  for (int i = 0; l[i]; i++)
    if (is(op, n, l[i])) return 1;
  return 0;
}

static int cmp_pred(const char *p, const char *e) {
  static const char *const preds[] = { "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge" };
  static const int map[] = { LYTV_T_EQ, LYTV_T_NE, LYTV_T_LT, LYTV_T_LE, LYTV_T_GT, LYTV_T_GE,
                             LYTV_T_LT, LYTV_T_LE, LYTV_T_GT, LYTV_T_GE };
  while (p < e && *p == ' ') p++;
  for (int i = 0; i < 10; i++) {
    size_t k = strlen(preds[i]);
    if (p + k < e && memcmp(p, preds[i], k) == 0 && p[k] == ',') return map[i];
  }
  return LYTV_T_EQ;
}

static void record_access(ax *a, int32_t line, int store, const char *const *s, const size_t *n,
                          int k, const tinfo *pt) {
  a->acc = lytS_grow(a->cx, a->acc, a->nacc, &a->capacc, sizeof *a->acc, 16);
  lytI_gaccess *g = &a->acc[a->nacc++];
  memset(g, 0, sizeof *g);
  g->line = line;
  g->store = store;
  g->elem_bits = pt->bits;
  g->exact = 1;
  g->ptr = k > 0 ? info_of(a, s[0], n[0], pt->rank, &g->exact) : lytV_pessimistic(pt->rank);
  int mi = store ? 2 : 1;
  g->has_mask = k > mi;
  g->mask = g->has_mask ? info_of(a, s[mi], n[mi], pt->rank, &g->exact) : lytV_pessimistic(pt->rank);
}

/* Results "%a", "%a:3" (then %a#0.. are used) or "%a, %b" before " = ". */
static int results(const char *p, const char *eq, const char **s, size_t *n, int *count, int max) {
  int k = 0;
  *count = 1;
  while (p < eq && k < max) {
    size_t len = ssa_len(p, eq);
    if (!len) { p++; continue; }
    s[k] = p;
    n[k++] = len;
    p += len;
    if (p < eq && *p == ':') {
      *count = 0;
      while (++p < eq && isdigit((unsigned char)*p)) *count = *count * 10 + (*p - '0');
    }
  }
  return k;
}

static void define_result(ax *a, const char *s, size_t n, int idx, int multi, const lytV_info *info,
                          const int64_t *shape, int exact) {
  if (!multi) { define(a, s, n, info, shape, exact); return; }
  char *name = lytS_alloc(a->cx, n + 24);
  int len = snprintf(name, n + 24, "%.*s#%d", (int)n, s, idx);
  define(a, name, (size_t)len, info, shape, exact);
}

static void run(ax *a, int32_t from, int32_t to, const char **ys, size_t *yn, int *ny);

/* The ')' that closes the '(' at p on its line, or NULL. */
static const char *matching_paren(const char *p, const char *e) {
  int depth = 0;
  for (; p < e; p++) {
    if (*p == '"') { while (++p < e && *p != '"') {} continue; }
    if (*p == '(') depth++;
    else if (*p == ')' && --depth == 0) return p;
  }
  return NULL;
}

/* The line that closes the region opened at line i, or -1. */
/* Line j's '{' less its '}', outside strings. */
static int braces(ax *a, int32_t j) {
  int d = 0;
  for (const char *p = a->ls[j]; p < a->le[j]; p++) {
    if (*p == '"') { while (++p < a->le[j] && *p != '"') {} continue; }
    d += *p == '{' ? 1 : *p == '}' ? -1 : 0;
  }
  return d;
}

static int32_t region_end(ax *a, int32_t i) {
  int depth = 0;
  for (int32_t j = i; j < a->n; j++) {
    depth += braces(a, j);
    if (depth <= 0 && j > i) return j;
  }
  return -1;
}

/* scf.for %iv = %lb to %ub step %st iter_args(%x = %init, ...) -> (types) : i32 { */
static int32_t run_for(ax *a, int32_t i, const char *p, const char *e, const char **rs,
                       const size_t *rn, int nres, int multi) {
  int32_t j = region_end(a, i);
  if (j < 0) return a->n;
  const char *s[MAXARGS];
  size_t n[MAXARGS];
  const char *ia = strstr(p, "iter_args(");
  if (!ia || ia > e) ia = e;
  int k = ops_of(p, ia, s, n, 4);  /* iv, lb, ub, step */
  int exact = 1;
  int64_t one = 1;
  lytV_info iv = lytV_pessimistic(1);
  if (k >= 4) {
    lytV_info lb = info_of(a, s[1], n[1], 1, &exact), st = info_of(a, s[3], n[3], 1, &exact);
    iv.divisibility[0] = lytV_t_join(&lb, &st).divisibility[0];
  }
  /* iter_args pairs and their types */
  const char *as[MAXARGS];
  size_t an[MAXARGS];
  int na = ia < e ? ops_of(ia, e, as, an, MAXARGS) / 2 : 0;
  tinfo ty[MAXARGS / 2];
  const char *tp = ia < e ? strstr(ia, "-> (") : NULL;
  for (int m = 0; m < na; m++) {
    ty[m] = (tinfo){ 1, { 1 }, 32, 0 };
    if (!tp || tp > e) continue;
    tp += m == 0 ? 4 : 0;
    ty[m] = type_of(tp, e);
    int depth = 0;  /* to the next top-level comma */
    for (; tp < e; tp++) {
      if (*tp == '<' || *tp == '(') depth++;
      else if (*tp == '>' || *tp == ')') { if (--depth < 0) break; }
      else if (*tp == ',' && depth == 0) { tp++; break; }
    }
  }
  lytV_info cur[MAXARGS / 2];
  int ex[MAXARGS / 2];
  for (int m = 0; m < na; m++) {
    ex[m] = 1;
    cur[m] = ty[m].rank ? info_of(a, as[2 * m + 1], an[2 * m + 1], ty[m].rank, &ex[m])
                        : lytV_pessimistic(1);
  }
  for (int round = 0; round < 16; round++) {
    if (k >= 1) define(a, s[0], n[0], &iv, &one, exact);
    for (int m = 0; m < na; m++)
      if (ty[m].rank) define(a, as[2 * m], an[2 * m], &cur[m], ty[m].shape, ex[m]);
    const char *ys[MAXARGS];
    size_t yn[MAXARGS];
    int ny = 0;
    run(a, i + 1, j, ys, yn, &ny);
    int same = 1;
    for (int m = 0; m < na && m < ny; m++) {
      if (!ty[m].rank) continue;
      lytV_info y = info_of(a, ys[m], yn[m], ty[m].rank, &ex[m]);
      lytV_info joined = lytV_t_join(&cur[m], &y);
      same &= lytV_t_same(&joined, &cur[m]);
      cur[m] = joined;
    }
    if (same) break;
  }
  for (int m = 0; m < na && m < MAXARGS / 2; m++)
    if (ty[m].rank && nres > 0) define_result(a, rs[0], rn[0], m, multi, &cur[m], ty[m].shape, ex[m]);
  return j;
}

/* One op line; returns the last line it used (a region's close). */
static int32_t op(ax *a, int32_t i, const char **ys, size_t *yn, int *ny) {
  const char *p = a->ls[i], *e = a->le[i];
  while (p < e && (*p == ' ' || *p == '\t')) p++;
  const char *rs[MAXARGS];
  size_t rn[MAXARGS];
  int nres = 0, count = 1;
  if (p < e && *p == '%') {
    const char *eq = strstr(p, " = ");
    if (!eq || eq > e) return i;
    nres = results(p, eq, rs, rn, &count, MAXARGS);
    p = eq + 3;
  }
  const char *name = p;
  if (*p == '"') name = ++p;
  while (p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '.')) p++;
  size_t nl = (size_t)(p - name);
  int multi = nres == 1 && count > 1;
  if (is(name, nl, "scf.for")) return run_for(a, i, p, e, rs, rn, nres, multi);
  const char *end, *sig = signature(p, e, &end);
  const char *s[MAXARGS];
  size_t n[MAXARGS];
  int k = ops_of(p, sig ? sig - 3 : e, s, n, MAXARGS);
  if (is(name, nl, "scf.yield")) {
    for (int m = 0; m < k; m++) { ys[m] = s[m]; yn[m] = n[m]; }
    *ny = k;
    return i;
  }
  tinfo rt = result_type(sig, end);
  int async = is(name, nl, "ttg.async_copy_global_to_local");
  if (is(name, nl, "tt.load") || is(name, nl, "tt.store") || async) {
    tinfo pt = sig ? type_of(sig, end) : rt;
    /* an async copy's mask follows its pointer and buffer, as a store's
    ** follows its pointer and value */
    if (pt.rank) record_access(a, i + 1, !is(name, nl, "tt.load"), s, n, k, &pt);
    const char *h = strstr(p, "{contiguity = ");
    if (pt.rank && async && h && h < (sig ? sig : e))
      for (h += 14; isdigit((unsigned char)*h) && a->acc[a->nacc - 1].hint < 4096; h++)
        a->acc[a->nacc - 1].hint = a->acc[a->nacc - 1].hint * 10 + (*h - '0');
  }
  int exact = 1;
  lytV_info r;
  if (is(name, nl, "scf.if")) {  /* merge the branches' yields */
    int32_t j = region_end(a, i);
    if (j < 0) return a->n;
    int32_t mid = j;  /* its own "} else {": one brace deep, not a nested if's */
    for (int32_t m = i, depth = 0; m < j && mid == j; m++) {
      const char *q = a->ls[m];
      while (q < a->le[m] && *q == ' ') q++;
      if (m > i && depth == 1 && a->le[m] - q >= 8 && memcmp(q, "} else {", 8) == 0) mid = m;
      depth += braces(a, m);
    }
    const char *y1[MAXARGS], *y2[MAXARGS];
    size_t n1[MAXARGS], n2[MAXARGS];
    int c1 = 0, c2 = 0;
    run(a, i + 1, mid, y1, n1, &c1);
    if (mid < j) run(a, mid + 1, j, y2, n2, &c2);
    for (int m = 0; m < c1 && m < c2 && nres; m++) {
      aval *v1 = lookup(a, y1[m], n1[m]), *v2 = lookup(a, y2[m], n2[m]);
      if (!v1 || !v2 || v1->info.rank != v2->info.rank) continue;
      lytV_info jn = lytV_t_join(&v1->info, &v2->info);
      define_result(a, rs[0], rn[0], m, multi || c1 > 1, &jn, v1->shape, v1->exact && v2->exact);
    }
    return j;
  }
  if (!rt.rank || !nres) goto region;
  r = lytV_pessimistic(rt.rank);
  size_t bi = 0, nb = sizeof BINARY / sizeof *BINARY;
  while (bi < nb && !is(name, nl, BINARY[bi].name)) bi++;
  if (is(name, nl, "arith.constant")) {
    const char *d = strstr(p, "dense<");
    const char *v = d && d < e ? d + 6 : p;
    while (v < e && *v == ' ') v++;
    if (v < e && (isdigit((unsigned char)*v) || *v == '-') && !memchr(v, '.', (size_t)(e - v) > 24 ? 24 : (size_t)(e - v))) {
      int neg = *v == '-';
      int64_t x = 0;
      for (v += neg; v < e && isdigit((unsigned char)*v) && x < ((int64_t)1 << 50); v++) x = x * 10 + (*v - '0');
      if (v < e && (*v == ' ' || *v == '>')) r = lytV_t_constant(neg ? -x : x, rt.rank, rt.shape);
    }
  } else if (is(name, nl, "tt.make_range")) {
    int64_t st = attr_int(p, e, "start"), en = attr_int(p, e, "end");
    if (en > st) r = lytV_t_make_range(st, en);
  } else if (bi < nb && k >= 2) {
    lytV_info x = info_of(a, s[0], n[0], rt.rank, &exact), y = info_of(a, s[1], n[1], rt.rank, &exact);
    int64_t elem = rt.ptr ? (rt.bits / 8 ? rt.bits / 8 : 1) : 1;
    r = lytV_t_binary(a->cx, BINARY[bi].op, &x, &y, rt.rank, rt.shape, elem);
  } else if (is(name, nl, "arith.cmpi") && k >= 2) {
    lytV_info x = info_of(a, s[0], n[0], rt.rank, &exact), y = info_of(a, s[1], n[1], rt.rank, &exact);
    r = lytV_t_cmp(cmp_pred(p, e), &x, &y, rt.rank, rt.shape);
  } else if (is(name, nl, "arith.select") && k >= 3) {
    lytV_info c = info_of(a, s[0], n[0], rt.rank, &exact), x = info_of(a, s[1], n[1], rt.rank, &exact);
    lytV_info y = info_of(a, s[2], n[2], rt.rank, &exact);
    r = lytV_t_select(&c, &x, &y, rt.rank);
  } else if (is(name, nl, "tt.splat") && k >= 1) {
    lytV_info x = info_of(a, s[0], n[0], 1, &exact);
    r = lytV_t_splat(&x, rt.rank, rt.shape);
  } else if (is(name, nl, "tt.broadcast") && k >= 1 && sig) {
    tinfo from = type_of(sig, end);
    lytV_info x = info_of(a, s[0], n[0], rt.rank, &exact);
    if (from.rank == rt.rank) r = lytV_t_broadcast(&x, rt.rank, from.shape, rt.shape);
    else exact = 0;
  } else if (is(name, nl, "tt.expand_dims") && k >= 1) {
    int axis = (int)attr_int(p, e, "axis");
    lytV_info x = info_of(a, s[0], n[0], rt.rank - 1, &exact);
    if (axis >= 0 && axis < rt.rank) r = lytV_t_expand_dims(&x, axis);
  } else if (in_list(name, nl, SAME) && k >= 1) {
    r = info_of(a, s[0], n[0], rt.rank, &exact);
  } else if (!in_list(name, nl, OPAQUE) && strncmp(name, "math.", 5) != 0 &&
             !(nl > 7 && memcmp(name, "arith.", 6) == 0 && name[nl - 1] == 'f')) {
    exact = 0;  /* Triton may model it; lyt does not */
  }
  for (int m = 0; m < (multi ? count : nres); m++)
    define_result(a, rs[multi ? 0 : m], rn[multi ? 0 : m], m, multi, &r, rt.shape, exact);
region:
  if (e > a->ls[i] && e[-1] == '{') {  /* another op with a region: its lines run once */
    int32_t j = region_end(a, i);
    if (j < 0) return a->n;
    const char *y[MAXARGS];
    size_t yl[MAXARGS];
    int c = 0;
    run(a, i + 1, j, y, yl, &c);
    return j;
  }
  return i;
}

static void run(ax *a, int32_t from, int32_t to, const char **ys, size_t *yn, int *ny) {
  if (++a->depth > 64)
    lytI_error(a->L, (lyt_loc){ a->src, from > 0 ? from : 1, 1 }, LYT_ERRLIMIT,
               "explain: regions nested more than 64 deep");
  for (int32_t i = from; i < to; i++) {
    const char *p = a->ls[i];
    while (p < a->le[i] && (*p == ' ' || *p == '\t')) p++;
    if (p >= a->le[i] || *p == '#' || *p == '}' || *p == ')' || *p == '^' || *p == '/') continue;
    if (strncmp(p, "module", 6) == 0) continue;
    if (strncmp(p, "tt.func", 7) == 0) {  /* arguments: their hints */
      const char *s[MAXARGS];
      size_t n[MAXARGS];
      const char *open = memchr(p, '(', (size_t)(a->le[i] - p));
      const char *close = open ? matching_paren(open, a->le[i]) : NULL;
      int k = close ? ops_of(open, close, s, n, MAXARGS) : 0;
      for (int m = 0; m < k; m++) {
        const char *q = s[m] + n[m], *qe = m + 1 < k ? s[m + 1] : close;
        lytV_info info = lytV_pessimistic(1);
        int64_t d = attr_int(q, qe, "tt.divisibility"), c = attr_int(q, qe, "tt.contiguity");
        int64_t ko = attr_int(q, qe, "tt.constancy"), one = 1;
        if (d > 0) info.divisibility[0] = d;
        if (c > 0) info.contiguity[0] = c;
        if (ko > 0) info.constancy[0] = ko;
        define(a, s[m], n[m], &info, &one, 1);
      }
      continue;
    }
    i = op(a, i, ys, yn, ny);
  }
  a->depth--;
}

int32_t lytI_ttgir_axis(lyt_state *L, const lytL_src *src, lytI_gaccess **out) {
  lytS_ctx *cx = &L->cx;
  const char *text = src->text;
  size_t len = src->len;
  int32_t n = 1;
  for (size_t i = 0; i < len; i++) n += text[i] == '\n';
  const char **ls = lytS_alloc(cx, sizeof *ls * (size_t)n), **le = lytS_alloc(cx, sizeof *le * (size_t)n);
  const char *p = text, *end = text + len;
  for (int32_t i = 0; i < n; i++) {
    const char *q = memchr(p, '\n', (size_t)(end - p));
    ls[i] = p;
    le[i] = q ? q : end;
    while (le[i] > ls[i] && (le[i][-1] == ' ' || le[i][-1] == '\r')) le[i]--;
    p = q ? q + 1 : end;
  }
  ax a;
  memset(&a, 0, sizeof a);
  a.cx = cx;
  a.L = L;
  a.src = src;
  a.ls = ls;
  a.le = le;
  a.n = n;
  const char *ys[MAXARGS];
  size_t yn[MAXARGS];
  int ny = 0;
  run(&a, 0, n, ys, yn, &ny);
  *out = a.acc;
  return a.nacc;
}
