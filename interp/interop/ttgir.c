/*
** interop/ttgir.c: explain(text): a whole TTGIR module, as Triton 3.6
** dumps it, read for what matters to layouts.
**
** The module is read line by line, the way MLIR prints it: alias
** definitions (#name = #ttg....) first, the module's attributes, then one
** op per line. Each encoding alias is read with from_triton and laid out
** with the stdlib's to_linear at a type that uses it. Each
** ttg.convert_layout gets the mechanism Triton's lowering chooses
** (linear/cvt.c), each global load and store the vector width Triton's
** AxisInfo allows (interop/ttgir_axis.c); shared-memory ops are listed
** with their types. An op or attribute this file does not know is listed
** as unknown, never dropped; a malformed line is an error located in the
** module's own text.
**
** The result is one record (the value explain() returns); the text, JSON
** and HTML forms are written from it, so they cannot disagree.
*/
#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "interp/interop/interop.h"
#include "interp/linear/convert.h"
#include "interp/linear/linear.h"
#include "interp/linear/values.h"

#define CX(c) lytI_cx(c)

/* A growing list of values (the record's tuples). */
typedef struct vlist {
  lyt_value *v;
  int32_t n, cap;
} vlist;

typedef struct alias {
  const char *name;   /* "#blocked" */
  const char *key;    /* "blocked", interned: from_triton's aliases record */
  const char *text;   /* its attribute, as written */
  int32_t line, col;  /* where it is defined */
  int known;          /* from_triton reads it */
  const char *type;   /* the first type that uses it, or NULL */
  int32_t tline, tcol;
} alias;

typedef struct xp {
  lytI_call *c;
  lyt_state *L;
  const lytL_src *src;
  alias *al;
  int32_t nal, capal;
  lyt_value aliases;  /* {key: text} of the known ones, for from_triton */
  int32_t naliases;   /* how many aliases that record holds */
  lyt_value to_linear;
  vlist enc, cvt, mem, glob, unknown;
  int64_t warps, threads, ctas;
  const char *target;
  lytI_gaccess *acc;  /* Triton's facts of each global access's operands */
  int32_t nacc;
} xp;

/* Ops that move no data between layouts: listed nowhere, known. */
static const char *const QUIET_DIALECTS[] = { "arith.", "math.", "scf.", "cf.", "ub.", "llvm.", "gpu.", NULL };
static const char *const QUIET_OPS[] = {
  "tt.func", "tt.return", "tt.call", "tt.get_program_id", "tt.get_num_programs", "tt.make_range",
  "tt.splat", "tt.unsplat", "tt.broadcast", "tt.expand_dims", "tt.addptr", "tt.reduce",
  "tt.reduce.return", "tt.scan", "tt.scan.return", "tt.dot", "tt.dot_scaled", "tt.trans", "tt.reshape",
  "tt.join", "tt.split", "tt.cat", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int", "tt.fp_to_fp",
  "tt.precise_sqrt", "tt.precise_divf", "tt.clampf", "tt.mulhiui", "tt.extern_elementwise",
  "tt.elementwise_inline_asm", "tt.assert", "tt.print", "tt.histogram", "tt.make_tensor_ptr",
  "tt.advance", "tt.make_tensor_descriptor", "tt.atomic_rmw", "tt.atomic_cas", "tt.gather",
  "tt.map_elementwise", "tt.map_elementwise.return",
  "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
  "ttg.memdesc_reinterpret", "ttg.local_dealloc", "ttg.async_commit_group", "ttg.async_wait",
  "ttg.barrier", "ttg.warp_specialize", "ttg.warp_yield", "ttg.warp_return",
  "ttg.warp_specialize.partitions", "ttg.fp4_to_fp", "ttg.global_scratch_alloc",
  "ttng.warp_group_dot", "ttng.warp_group_dot_wait", "ttng.fence_async_shared",
  "ttng.init_barrier", "ttng.inval_barrier", "ttng.wait_barrier", "ttng.barrier_expect",
  "ttng.arrive_barrier", "ttng.async_tma_copy_global_to_local", "ttng.async_tma_copy_local_to_global",
  "ttng.async_tma_store_wait", "ttng.tensormap_create", "ttng.tensormap_fenceproxy_acquire",
  "ttng.reinterpret_tensor_descriptor", "ttng.tc_gen5_mma", "ttng.tmem_alloc", "ttng.tmem_load",
  "ttng.tmem_store", "ttng.tmem_copy", "ttng.tc_gen5_commit", "ttng.async_tma_gather",
  "ttng.async_tma_scatter", "ttng.async_tma_reduce", "ttng.async_copy_mbarrier_arrive",
  "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_gather", "tt.descriptor_scatter",
  "tt.descriptor_reduce", "ttg.async_copy_local_to_global", "ttg.upcast_mxfp", NULL
};

enum { OP_QUIET, OP_CVT, OP_MEM, OP_GLOBAL, OP_UNKNOWN };

static int op_class(const char *op, size_t n) {
  static const char *const mem[] = { "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
                                     "ttg.async_copy_global_to_local", NULL };
  if (n == 18 && memcmp(op, "ttg.convert_layout", 18) == 0) return OP_CVT;
  for (int i = 0; mem[i]; i++)
    if (strlen(mem[i]) == n && memcmp(op, mem[i], n) == 0) return OP_MEM;
  if ((n == 7 && memcmp(op, "tt.load", 7) == 0) || (n == 8 && memcmp(op, "tt.store", 8) == 0))
    return OP_GLOBAL;
  for (int i = 0; QUIET_DIALECTS[i]; i++)
    if (strncmp(op, QUIET_DIALECTS[i], strlen(QUIET_DIALECTS[i])) == 0) return OP_QUIET;
  for (int i = 0; QUIET_OPS[i]; i++)
    if (strlen(QUIET_OPS[i]) == n && memcmp(op, QUIET_OPS[i], n) == 0) return OP_QUIET;
  return OP_UNKNOWN;
}

/* ---------------------------------------------------------------------
** Small helpers
** ------------------------------------------------------------------- */

static void push(xp *x, vlist *l, lyt_value v) {
  l->v = lytS_grow(CX(x->c), l->v, l->n, &l->cap, sizeof *l->v, 8);
  l->v[l->n++] = v;
}

static lyt_value tuple_of(xp *x, const vlist *l) {
  lyt_value t = lytI_tuple(x->c, l->n);
  for (int32_t i = 0; i < l->n; i++) t.u.tup.e[i] = l->v[i];
  return t;
}

static lyt_value strn(xp *x, const char *s, size_t n) {
  char *p = lytS_alloc(CX(x->c), n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return lytI_str(x->c, p);
}

static lyt_loc at(xp *x, int32_t line, int32_t col) {
  return (lyt_loc){ x->src, line, col };
}

static _Noreturn void fail_at(xp *x, int32_t line, const char *line_start, const char *p,
                              const char *what) {
  lytI_error(x->L, at(x, line, (int32_t)(p - line_start) + 1), LYT_ERRSYNTAX, "explain: %s", what);
}

static lyt_value record(xp *x, int32_t n, const char *const *names, const lyt_value *v) {
  lyt_value r = lytI_record(x->c, n, names);
  for (int32_t i = 0; i < n; i++) r.u.rec.e[i] = v[i];
  return r;
}

static const lyt_value *field(const lyt_value *r, const char *name) {
  for (int32_t i = 0; r->kind == LYT_VRECORD && i < r->u.rec.n; i++)
    if (strcmp(r->u.rec.name[i], name) == 0) return &r->u.rec.e[i];
  return NULL;
}

/* The end of the bracketed text that starts at p ('<', '{', '(' or '['),
** or NULL if the line ends first. Quoted strings are skipped whole, and
** the '>' of an arrow closes nothing. */
static const char *matching(const char *p, const char *end) {
  int depth = 0;
  for (; p < end; p++) {
    if (*p == '"') {
      while (++p < end && *p != '"') p += *p == '\\';
    } else if (*p == '<' || *p == '{' || *p == '(' || *p == '[') {
      depth++;
    } else if ((*p == '>' && p[-1] != '-') || *p == '}' || *p == ')' || *p == ']') {
      if (--depth == 0) return p + 1;
    }
  }
  return NULL;
}

/* ---------------------------------------------------------------------
** Types in an op's signature: tensor<...>, !ttg.memdesc<...>, and the
** bare <...> that async copies print for a memdesc.
** ------------------------------------------------------------------- */

typedef struct ty {
  const char *s, *e;  /* the text, as written */
  int memdesc, bare;
} ty;

static int32_t sig_types(const char *p, const char *end, ty *out, int32_t max) {
  int32_t n = 0;
  while (p < end && n < max) {
    const char *t = NULL;
    int md = 0, bare = 0;
    if (strncmp(p, "tensor<", 7) == 0) t = p + 6;
    else if (strncmp(p, "!ttg.memdesc<", 13) == 0) { t = p + 12; md = 1; }
    else if (*p == '<' && p >= out[0].s + 3 && memcmp(p - 3, "-> ", 3) == 0) {
      t = p;  /* an async copy's result: a memdesc without its name */
      md = bare = 1;
    }
    if (!t) { p++; continue; }
    const char *e = matching(t, end);
    if (!e) return -1;
    out[n++] = (ty){ p, e, md, bare };
    p = e;
  }
  return n;
}

/* A type's text; a bare memdesc gets its "!ttg.memdesc" back. */
static lyt_value type_text(xp *x, const ty *t) {
  lytS_buf b;
  lytS_buf_init(&b, CX(x->c));
  if (t->bare) lytS_buf_puts(&b, "!ttg.memdesc");
  lytS_buf_add(&b, t->s, (size_t)(t->e - t->s));
  return lytI_str(x->c, b.p);
}

/* The encoding written in a type ("#blocked" or an inline attribute), or
** NULL when it has none. */
static const char *type_encoding(const ty *t, size_t *len) {
  const char *p = t->s;
  while (p < t->e && *p != ',') p++;
  if (p == t->e) return NULL;
  p++;
  while (*p == ' ') p++;
  const char *q = p;
  if (*q == '#') {
    q++;
    while (q < t->e && (isalnum((unsigned char)*q) || *q == '_' || *q == '.')) q++;
    if (*q == '<') q = matching(q, t->e);
  }
  *len = q ? (size_t)(q - p) : 0;
  return p;
}

static alias *find_alias(xp *x, const char *s, size_t n) {
  for (int32_t i = 0; i < x->nal; i++)
    if (strlen(x->al[i].name) == n && memcmp(x->al[i].name, s, n) == 0) return &x->al[i];
  return NULL;
}

/* Whether every attribute the text names is one from_triton reads: each
** alias it uses is a known one, each #ttg.kind< one it has a reader for. */
static int readable(xp *x, const char *s, const char *e) {
  for (const char *p = s; p < e; p++) {
    if (*p != '#') continue;
    const char *q = ++p;
    while (q < e && (isalnum((unsigned char)*q) || *q == '_' || *q == '.')) q++;
    const char *dot = memchr(p, '.', (size_t)(q - p));
    if (!dot) {
      alias *a = find_alias(x, p - 1, (size_t)(q - p + 1));
      if (!a || !a->known) return 0;
    } else if (!lytI_triton_reads(p, (size_t)(q - p))) {
      return 0;
    }
    p = q - 1;
  }
  return 1;
}

/* {key: text} of the known aliases so far (MLIR defines them all first). */
static void aliases_record(xp *x) {
  if (x->naliases == x->nal) return;
  int32_t k = 0;
  for (int32_t i = 0; i < x->nal; i++) k += x->al[i].known;
  x->aliases = lytI_nil();
  if (k) {
    const char **names = lytS_alloc(CX(x->c), sizeof *names * (size_t)k);
    k = 0;
    for (int32_t i = 0; i < x->nal; i++)
      if (x->al[i].known) names[k++] = x->al[i].key;
    x->aliases = lytI_record(x->c, k, names);
    k = 0;
    for (int32_t i = 0; i < x->nal; i++)
      if (x->al[i].known) x->aliases.u.rec.e[k++] = lytI_str(x->c, x->al[i].text);
  }
  x->naliases = x->nal;
}

/* from_triton(text, aliases), errors pointing at the text in the module. */
static lyt_value read_type(xp *x, const ty *t, int32_t line, int32_t col) {
  aliases_record(x);
  lyt_value arg[2] = { type_text(x, t), x->aliases };
  lyt_loc locs[2] = { at(x, line, col), at(x, line, col) };
  return lytI_call_builtin(x->L, "from_triton", 2, arg, locs, locs[0]);
}

static const lytG_ll *layout_of(xp *x, const lyt_value *type, int32_t line, int32_t col) {
  lyt_value arg[1] = { *type };
  lyt_loc locs[1] = { at(x, line, col) };
  lyt_value v = lytI_call_value(x->L, x->to_linear, 1, arg, locs, locs[0]);
  if (v.kind != LYT_VLINEAR) lytI_error(x->L, locs[0], LYT_ERRRUN, "explain: to_linear gave no linear layout");
  return v.u.ll;
}

/* CuTe's notation of ll where a stride layout computes the same function
** (linear/convert.c: one mode per in-dim onto the flat offset), else nil.
** Only "no such form" is swallowed: memory and limits still fail. */
static lyt_value cute_form(xp *x, const lytG_ll *ll) {
  lytS_ctx *cx = CX(x->c);
  jmp_buf jb, *outer = cx->jb;
  if (setjmp(jb)) {
    cx->jb = outer;
    if (cx->code != LYT_ERRRUN) longjmp(*outer, 1);
    return lytI_nil();
  }
  cx->jb = &jb;
  const char *t = lytS_layout_str(cx, lytC_strided_of_linear(cx, ll));
  cx->jb = outer;
  return lytI_str(x->c, t);
}

static lyt_value notation(xp *x, const lytG_ll *ll) {
  lytS_buf b;
  lytS_buf_init(&b, CX(x->c));
  lytG_print(&b, ll);
  return lytI_str(x->c, b.p);
}

/* ---------------------------------------------------------------------
** Lines
** ------------------------------------------------------------------- */

static void unknown(xp *x, int32_t line, int32_t col, const char *what, lyt_value name, const char *why) {
  static const char *const names[] = { "line", "col", "what", "name", "note" };
  lyt_value v[5] = { lytI_int(line), lytI_int(col), lytI_str(x->c, what), name, lytI_str(x->c, why) };
  push(x, &x->unknown, record(x, 5, names, v));
}

/* "#name = attribute": an encoding alias, a location (skipped), or an
** attribute of another dialect (listed as unknown). */
static void alias_line(xp *x, int32_t line, const char *ls, const char *s, const char *end) {
  const char *p = s + 1;
  while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
  if (p == s + 1 || strncmp(p, " = ", 3) != 0) fail_at(x, line, ls, p, "expected '#name = attribute'");
  const char *name = strn(x, s, (size_t)(p - s)).u.str.s;
  const char *v = p + 3, *ve = end;
  while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r')) ve--;
  if (strncmp(v, "loc(", 4) == 0) return;  /* debug locations */
  if (v == ve) fail_at(x, line, ls, v, "the alias has no attribute");
  int ttg = strncmp(v, "#ttg.", 5) == 0 || strncmp(v, "#ttng.", 6) == 0 ||
            strncmp(v, "#triton_gpu.", 12) == 0;
  /* Defined again: a log of several dumps (MLIR_ENABLE_DUMP) starts a new
  ** module; its definition replaces the old one, in the old one's place. */
  alias *a = find_alias(x, name, strlen(name));
  if (!a) {
    x->al = lytS_grow(CX(x->c), x->al, x->nal, &x->capal, sizeof *x->al, 16);
    a = &x->al[x->nal++];
  }
  x->naliases = -1;  /* the aliases record is stale */
  memset(a, 0, sizeof *a);
  a->name = name;
  a->key = lytI_intern(x->L, s + 1, (size_t)(p - s - 1));
  a->text = strn(x, v, (size_t)(ve - v)).u.str.s;
  a->line = line;
  a->col = (int32_t)(s - ls) + 1;
  a->known = ttg && readable(x, v, ve);
  int space = strcmp(a->text, "#ttg.shared_memory") == 0 || strcmp(a->text, "#ttng.tensor_memory") == 0;
  if (a->known && !space) {  /* read now: a bad field is an error on this line */
    ty t = { v, ve, 0, 0 };
    a->known = 0;  /* not among the aliases it is read with */
    read_type(x, &t, line, (int32_t)(v - ls) + 1);
    a->known = 1;
    x->naliases = -1;
  }
  if (!a->known)
    unknown(x, line, a->col, "attribute", lytI_str(x->c, name),
            ttg ? "an encoding lyt does not read yet" : "not a Triton GPU attribute");
}

/* module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", ...} */
static int64_t module_int(const char *s, const char *end, const char *key) {
  const char *p = strstr(s, key);
  if (!p || p > end) return 0;
  p += strlen(key);
  while (*p == '"' || *p == ' ' || *p == '=') p++;
  int64_t v = 0;
  while (*p >= '0' && *p <= '9' && v < 1000000) v = v * 10 + (*p++ - '0');
  return v;
}

static void module_line(xp *x, const char *s, const char *end) {
  x->warps = module_int(s, end, "\"ttg.num-warps\"");
  x->threads = module_int(s, end, "\"ttg.threads-per-warp\"");
  x->ctas = module_int(s, end, "\"ttg.num-ctas\"");
  const char *t = strstr(s, "ttg.target = \"");
  if (t && t < end) {
    t += 14;
    const char *q = t;
    while (q < end && *q != '"') q++;
    x->target = strn(x, t, (size_t)(q - t)).u.str.s;
  }
}

/* The rank of "tensor<128x64xf16, ...>" (its 'x's before the first comma)
** and, at equal rank, its element count: the better type to lay out at. */
static int64_t type_order(const char *s, const char *e) {
  int64_t rank = 1, count = 1, d = 0;
  while (s < e && *s != '<') s++;
  for (; s < e && *s != ','; s++) {
    if (*s >= '0' && *s <= '9') d = d < (1 << 24) ? d * 10 + (*s - '0') : d;
    else if (*s == 'x') { rank++; count *= d ? d : 1; d = 0; if (count > (1 << 24)) count = 1 << 24; }
    else d = 0;
  }
  return rank * (1 << 25) - count;
}

/* The type each alias is laid out at: its first use of the lowest rank (a
** pipelined buffer, 3x128x64 with a rank-2 encoding, is indexed down to
** 128x64 before it is used). */
static void note_uses(xp *x, const ty *t, int32_t n, int32_t line, const char *ls) {
  for (int32_t i = 0; i < n; i++) {
    size_t len;
    const char *e = type_encoding(&t[i], &len);
    alias *a = e && len ? find_alias(x, e, len) : NULL;
    if (a && (!a->type || type_order(t[i].s, t[i].e) < type_order(a->type, a->type + strlen(a->type)))) {
      a->type = type_text(x, &t[i]).u.str.s;
      a->tline = line;
      a->tcol = (int32_t)(t[i].s - ls) + 1;
    }
  }
}

static lyt_value enc_text(xp *x, const ty *t) {
  size_t len;
  const char *e = type_encoding(t, &len);
  return e && len ? strn(x, e, len) : lytI_nil();
}

/* The compute capability of a "cuda:90" target (90); 0 for any other. */
static int32_t sm_of(const xp *x) {
  int32_t sm = 0;
  if (x->target && strncmp(x->target, "cuda:", 5) == 0)
    for (const char *q = x->target + 5; *q >= '0' && *q <= '9' && sm < 10000; q++)
      sm = sm * 10 + (*q - '0');
  return sm;
}

/* The PTX one side emits: ldmatrix/stmatrix as Triton spells them; cp.async
** by its size; a plain access by its width, since LLVM picks how to spell
** 64 bits of f16 (.v4.b16 or .v2.b32) when it emits PTX. */
static lyt_value side_ptx(xp *x, const lytG_smem_side *sd) {
  lytS_buf b;
  lytS_buf_init(&b, CX(x->c));
  if (sd->instr)
    lytS_buf_printf(&b, "%.8s.sync.aligned.m8n8.x%d%s.shared.b16", sd->name, (int)sd->matrices,
                    sd->instr == 2 ? ".trans" : "");
  else if (strcmp(sd->name, "cp.async") == 0)
    lytS_buf_printf(&b, "cp.async.%s.shared.global, %d bytes", sd->bits == 128 ? "cg" : "ca",
                    (int)sd->bits / 8);
  else
    lytS_buf_printf(&b, "%s, %d bits", sd->name, (int)sd->bits);
  return lytI_str(x->c, b.p);
}

static lyt_value side_record(xp *x, const lytG_smem_side *sd) {
  static const char *const names[] = { "instr", "ptx", "elements", "bits", "per_thread",
                                       "conflicts" };
  lyt_value v[6] = { lytI_str(x->c, sd->name), side_ptx(x, sd), lytI_int(sd->elems),
                     lytI_int(sd->bits), lytI_int(sd->count), lytI_int(sd->conflicts) };
  return record(x, 6, names, v);
}

/* What a conversion through shared memory costs on NVIDIA (the scratch
** layout Triton picks and each side's instructions); nil elsewhere. */
static lyt_value shared_record(xp *x, const ty *t, const lytG_ll *src, const lytG_ll *dst) {
  static const char *const names[] = { "rounds", "scratch", "scratch_linear", "store", "load" };
  int32_t sm = sm_of(x);
  int64_t bits = lytI_elem_bits(t->s, t->e);
  if (!sm) return lytI_nil();
  if (bits < 8 || bits > 64) return lytI_nil();
  const char *hw[3] = { "register", "lane", "warp" }, *outs[LYT_LL_MAXDIMS];
  for (int32_t k = 0; k < src->nout; k++) outs[k] = src->out[k].name;
  lytS_ctx *cx = CX(x->c);
  lytG_smem_plan p;
  lytG_cvt_smem(cx, lytG_sublayout(cx, src, 3, hw, src->nout, outs),
                lytG_sublayout(cx, dst, 3, hw, dst->nout, outs), (int32_t)bits, sm, &p);
  lytG_dim in[2] = { { "offset", p.nvec + p.nbank + p.nseg }, { "round", p.reps } };
  const lytG_ll *scratch = lytG_make(cx, 2, in, src->nout, src->out, p.bases, 0);
  lyt_value v[5] = { lytI_int(INT64_C(1) << p.reps), lytI_int(p.scratch), notation(x, scratch),
                     side_record(x, &p.st), side_record(x, &p.ld) };
  return record(x, 5, names, v);
}

static void convert_line(xp *x, int32_t line, const char *ls, const ty *t, int32_t n) {
  static const char *const names[] = { "line", "from", "to", "type", "mechanism", "why",
                                       "transpositions", "minimal", "shared", "from_layout",
                                       "to_layout" };
  if (n != 2 || t[0].memdesc || t[1].memdesc)
    fail_at(x, line, ls, n > 0 ? t[0].s : ls, "ttg.convert_layout needs 'tensor<...> -> tensor<...>'");
  lyt_value v[11] = { lytI_int(line), enc_text(x, &t[0]), enc_text(x, &t[1]),
                      strn(x, t[0].s, (size_t)(t[0].e - t[0].s)), lytI_nil(), lytI_nil(),
                      lytI_nil(), lytI_nil(), lytI_nil(), lytI_nil(), lytI_nil() };
  if (!readable(x, t[0].s, t[0].e) || !readable(x, t[1].s, t[1].e)) {
    v[4] = lytI_str(x->c, "unknown");
    v[5] = lytI_str(x->c, "an encoding lyt does not read yet");
  } else {
    int32_t c0 = (int32_t)(t[0].s - ls) + 1, c1 = (int32_t)(t[1].s - ls) + 1;
    lyt_value a = read_type(x, &t[0], line, c0), b = read_type(x, &t[1], line, c1);
    const lytG_ll *src = layout_of(x, &a, line, c0), *dst = layout_of(x, &b, line, c1);
    lytG_cvt plan;
    lytG_cvt_plan(CX(x->c), src, dst, &plan);
    static const char *const why[] = {
      "the two layouts are the same: nothing moves",
      "each thread reorders its own registers",
      "data moves between lanes of a warp: warp shuffles",
      "", "data moves between CTAs, which Triton 3.6 does not lower" };
    v[4] = lytI_str(x->c, lytG_cvt_name(plan.kind));
    v[5] = lytI_str(x->c, why[plan.kind]);
    if (plan.kind == LYTG_CVT_SHARED) {
      v[8] = shared_record(x, &t[0], src, dst);
      v[5] = lytI_str(x->c, plan.transpositions < 0
                                ? "data moves between warps: through shared memory"
                                : "data moves between lanes only, but with two or more register<->lane "
                                  "transpositions Triton goes through shared memory");
    }
    if (plan.transpositions >= 0) v[6] = lytI_int(plan.transpositions);
    v[7] = notation(x, plan.minimal);
    v[9] = (lyt_value){ .kind = LYT_VLINEAR, .u.ll = src };
    v[10] = (lyt_value){ .kind = LYT_VLINEAR, .u.ll = dst };
  }
  push(x, &x->cvt, record(x, 11, names, v));
}

/* Triton's LinearEncoding order[0] of a distributed layout: the dim its
** first moving register goes along, else the last dim. */
static int32_t fastest_dim(const lytG_ll *ll) {
  int32_t r = lytG_in_index(ll, "register");
  for (int32_t t = 0; r >= 0 && t < ll->in[r].log2; t++)
    for (int32_t k = 0; k < ll->nout; k++)
      if (lytG_basis(ll, r, t, k)) return k;
  return ll->nout - 1;
}

/* The leading registers that step 1, 2, 4, ... along dim d: Triton's
** getContigPerThread[d] for the fastest dim. */
static int64_t contig_per_thread(const lytG_ll *ll, int32_t d) {
  int32_t r = lytG_in_index(ll, "register");
  int64_t c = 1;
  for (int32_t t = 0; r >= 0 && t < ll->in[r].log2; t++) {
    for (int32_t k = 0; k < ll->nout; k++)
      if (lytG_basis(ll, r, t, k) != (k == d ? c : 0)) return c;
    c *= 2;
  }
  return c;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The elements a thread can move at once along the fastest dim d of ll,
** as Triton's getContiguity and getMaskAlignment give it: contiguous per
** thread, at most the pointer's alignment (divisibility in elements of
** `bytes`) and contiguity, and the mask's constancy. */
static int64_t axis_contiguity(const lytI_gaccess *g, const lytG_ll *ll, int32_t d, int64_t bytes) {
  int64_t v = min64(contig_per_thread(ll, d), g->ptr.contiguity[d]);
  v = min64(v, g->ptr.divisibility[d] / bytes > 1 ? g->ptr.divisibility[d] / bytes : 1);
  if (g->has_mask) v = min64(v, g->mask.constancy[d] > 1 ? g->mask.constancy[d] : 1);
  return v < 1 ? 1 : v;
}

/* The access of a local memory op on NVIDIA: its tensor's layout against
** its buffer's shared layout (lytG_local_access); 0 where the two do not
** fit one another. kind: 0 write, 1 read, 2 async copy (g: its AxisInfo
** facts). An encoding lyt cannot lay out is an error, as for a
** conversion. */
static int access_of(xp *x, int32_t line, const char *ls, int32_t kind, const lytI_gaccess *g,
                     const ty *tt, const ty *tm, lytG_smem_side *sd) {
  int32_t c0 = (int32_t)(tt->s - ls) + 1, c1 = (int32_t)(tm->s - ls) + 1;
  lyt_value a = read_type(x, tt, line, c0), b = read_type(x, tm, line, c1);
  const lytG_ll *reg = layout_of(x, &a, line, c0), *mem = layout_of(x, &b, line, c1);
  int64_t bits = kind == 2 ? g->elem_bits : lytI_elem_bits(tt->s, tt->e);
  if (lytG_in_index(mem, "offset") < 0 || lytG_in_index(reg, "register") < 0 ||
      mem->outbits != reg->outbits || !lytG_is_invertible(mem) || bits < 8 || bits > 64)
    return 0;
  int32_t maxvec = 0;
  const lyt_value *enc = field(&b, "encoding"), *ivs = enc ? field(enc, "intervals") : NULL;
  for (int32_t i = 0; kind != 2 && ivs && ivs->kind == LYT_VTUP && i < ivs->u.tup.n; i++) {
    int64_t every = ivs->u.tup.e[i].u.tup.e[0].u.i;  /* a padded buffer: its smallest interval */
    if (maxvec == 0 || every < maxvec) maxvec = (int32_t)min64(every, 1 << 20);
  }
  if (kind == 2) {  /* Triton's maxVec: AxisInfo's, raised to the op's contiguity hint */
    int64_t v = axis_contiguity(g, reg, fastest_dim(reg), bits / 8);
    maxvec = (int32_t)min64(g->hint > v ? g->hint : v, 128 / bits);
  }
  lytG_local_access(CX(x->c), reg, mem, (int32_t)bits, sm_of(x), kind, maxvec, sd);
  return 1;
}

/* The same as a record; nil where there is none. */
static lyt_value local_access(xp *x, int32_t line, const char *ls, const char *op, const ty *tt,
                              const ty *tm) {
  static const char *const names[] = { "instr", "ptx", "elements", "bits", "per_thread",
                                       "conflicts" };
  int32_t kind = strcmp(op, "ttg.local_load") == 0 ? 1
                 : strcmp(op, "ttg.async_copy_global_to_local") == 0 ? 2 : 0;
  const lytI_gaccess *g = NULL;
  for (int32_t i = 0; i < x->nacc && !g; i++)
    if (x->acc[i].line == line) g = &x->acc[i];
  lytG_smem_side sd;
  if (!sm_of(x) || !tt || !tm || (kind == 2 && !g) ||
      !readable(x, tt->s, tt->e) || !readable(x, tm->s, tm->e) ||
      !access_of(x, line, ls, kind, g, tt, tm, &sd))
    return lytI_nil();
  lyt_value v[6] = { lytI_str(x->c, sd.name), side_ptx(x, &sd), lytI_int(sd.elems),
                     lytI_int(sd.bits), lytI_int(sd.count),
                     sd.conflicts < 0 ? lytI_nil() : lytI_int(sd.conflicts) };
  return record(x, 6, names, v);
}

/* A shared-memory op: its types and encodings, and what it moves. */
static void memory_line(xp *x, int32_t line, const char *ls, lyt_value op, const ty *t, int32_t n) {
  static const char *const names[] = { "line", "op", "tensor", "encoding", "memdesc", "shared",
                                       "access" };
  lyt_value v[7] = { lytI_int(line), op, lytI_nil(), lytI_nil(), lytI_nil(), lytI_nil(),
                     lytI_nil() };
  const ty *tt = NULL, *tm = NULL;
  for (int32_t i = 0; i < n; i++) {
    int k = t[i].memdesc ? 4 : 2;
    if (v[k].kind != LYT_VNIL) continue;
    v[k] = type_text(x, &t[i]);
    v[k + 1] = enc_text(x, &t[i]);
    if (t[i].memdesc) tm = &t[i];
    else tt = &t[i];
  }
  v[6] = local_access(x, line, ls, op.u.str.s, tt, tm);
  push(x, &x->mem, record(x, 7, names, v));
}

/* A tt.load or tt.store: the vector width Triton's lowering picks
** (LoadStoreConversionBase: contiguity per thread along the fastest dim,
** the pointer's alignment from AxisInfo, at most 128 bits, at most the
** mask's constancy), and the PTX access that gives. */
static void global_line(xp *x, int32_t line, const char *ls, lyt_value op, const ty *t, int32_t n,
                        const char *sig, const char *se) {
  static const char *const names[] = { "line", "op", "tensor", "encoding", "vector", "ptx",
                                       "accesses", "exact", "why" };
  lyt_value v[9] = { lytI_int(line), op, lytI_nil(), lytI_nil(), lytI_nil(), lytI_nil(),
                     lytI_nil(), lytI_nil(), lytI_nil() };
  const lytI_gaccess *g = NULL;
  for (int32_t i = 0; i < x->nacc && !g; i++)
    if (x->acc[i].line == line) g = &x->acc[i];
  if (n > 0 && !t[0].memdesc) {
    v[2] = type_text(x, &t[0]);
    v[3] = enc_text(x, &t[0]);
  }
  if (n == 0 && se - sig > 8 && memcmp(sig, "!tt.ptr<", 8) == 0) {  /* one scalar: one access */
    int64_t bits = 0;
    for (const char *p = sig + 8; p < se && *p != '>'; p++)
      if (*p >= '0' && *p <= '9') bits = bits < 4096 ? bits * 10 + (*p - '0') : bits;
    char form[48];
    snprintf(form, sizeof form, "b%lld", (long long)(bits < 8 ? 8 : bits));
    v[4] = lytI_int(1);
    v[5] = lytI_str(x->c, form);
    v[6] = lytI_int(1);
    v[7] = lytI_bool(1);
    v[8] = lytI_str(x->c, "a scalar pointer");
  }
  /* a block pointer (!tt.ptr<tensor<...>>) is lowered another way: not modelled */
  int block_ptr = n > 0 && t[0].s >= ls + 8 && memcmp(t[0].s - 8, "!tt.ptr<", 8) == 0;
  if (block_ptr) v[8] = lytI_str(x->c, "a block pointer: its lowering is not modelled");
  if (g && n > 0 && !block_ptr && !t[0].memdesc && readable(x, t[0].s, t[0].e)) {
    int32_t c0 = (int32_t)(t[0].s - ls) + 1;
    lyt_value type = read_type(x, &t[0], line, c0);
    const lytG_ll *ll = layout_of(x, &type, line, c0);
    int32_t d = fastest_dim(ll);
    int64_t bytes = g->elem_bits >= 8 ? g->elem_bits / 8 : 1;
    /* at least one element: an element wider than 128 bits still moves */
    int64_t vec = min64(axis_contiguity(g, ll, d, bytes), 128 / (bytes * 8));
    if (vec < 1) vec = 1;
    int32_t r = lytG_in_index(ll, "register");
    int64_t regs = r >= 0 ? lytG_in_size(ll, r) : 1, bits = vec * bytes * 8;
    char form[48];
    if (bits >= 64) snprintf(form, sizeof form, "v%lld.b32", (long long)(bits / 32));
    else snprintf(form, sizeof form, "b%lld", (long long)bits);
    v[4] = lytI_int(vec);
    v[5] = lytI_str(x->c, form);
    v[6] = lytI_int(regs / vec > 0 ? regs / vec : 1);
    v[7] = lytI_bool(g->exact);
    lytS_buf b;
    lytS_buf_init(&b, CX(x->c));
    lytS_buf_printf(&b, "%lld contiguous per thread along dim %d, pointer divisible by %lld bytes "
                    "and contiguous by %lld there", (long long)contig_per_thread(ll, d), (int)d,
                    (long long)g->ptr.divisibility[d], (long long)g->ptr.contiguity[d]);
    if (g->has_mask) lytS_buf_printf(&b, ", mask constant by %lld", (long long)g->mask.constancy[d]);
    if (!g->exact) lytS_buf_puts(&b, "; an op on the way is not modelled, so Triton may do better");
    v[8] = lytI_str(x->c, b.p);
  }
  push(x, &x->glob, record(x, 9, names, v));
}

static void op_line(xp *x, int32_t line, const char *ls, const char *s, const char *end) {
  const char *p = s;
  if (*p == '%') {  /* results: %a, %b:2 = */
    const char *eq = strstr(p, " = ");
    if (!eq || eq > end) fail_at(x, line, ls, p, "expected '%results = op ...'");
    p = eq + 3;
  }
  const char *name = p, *ne;
  if (*p == '"') {
    name = ++p;
    while (p < end && *p != '"') p++;
    ne = p;
  } else {
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.')) p++;
    ne = p;
  }
  if (ne == name || !memchr(name, '.', (size_t)(ne - name)))
    fail_at(x, line, ls, name, "expected an op name (dialect.op)");
  int cls = op_class(name, (size_t)(ne - name));
  ty t[8];
  const char *sig = p;
  /* the signature: after the last " : " outside brackets */
  for (const char *q = p; q < end; q++) {
    if (*q == '"') {
      while (++q < end && *q != '"') q += *q == '\\';
    } else if (*q == '<' || *q == '{' || *q == '(' || *q == '[') {
      const char *m = matching(q, end);
      if (!m && (*q == '{' || *q == '(')) break;  /* a region opens: the op's body follows */
      if (!m) fail_at(x, line, ls, q, "unbalanced brackets");
      q = m - 1;
    } else if (q + 2 < end && q[0] == ' ' && q[1] == ':' && q[2] == ' ') {
      sig = q + 3;
    }
  }
  const char *le = end;
  const char *lc = strstr(sig, " loc(");
  if (lc && lc < end) le = lc;
  t[0].s = sig;
  int32_t n = sig_types(sig, le, t, 8);
  if (n < 0) fail_at(x, line, ls, sig, "unbalanced brackets in a type");
  note_uses(x, t, n, line, ls);
  lyt_value op = strn(x, name, (size_t)(ne - name));
  if (cls == OP_CVT) convert_line(x, line, ls, t, n);
  else if (cls == OP_MEM) memory_line(x, line, ls, op, t, n);
  else if (cls == OP_GLOBAL) global_line(x, line, ls, op, t, n, sig, le);
  else if (cls == OP_UNKNOWN)
    unknown(x, line, (int32_t)(name - ls) + 1, "op", op, "an op lyt does not know");
}

/* A region's label in an op's custom syntax, as ttg.warp_specialize
** prints its regions ("default {", "partition0(%a: i32) num_warps(4) {"):
** a name without a dot on a line that opens a region. No op. */
static int region_label(const char *s, const char *le) {
  const char *p = s, *e = le;
  while (p < le && (isalnum((unsigned char)*p) || *p == '_')) p++;
  if (p == s || (p < le && *p != ' ' && *p != '(')) return 0;
  while (e > p && (e[-1] == ' ' || e[-1] == '\r')) e--;
  return e > p && e[-1] == '{';
}

static void scan(xp *x, const char *text, const char *end) {
  int32_t line = 0;
  for (const char *ls = text; ls < end; ) {
    const char *le = memchr(ls, '\n', (size_t)(end - ls));
    if (!le) le = end;
    line++;
    const char *s = ls;
    while (s < le && (*s == ' ' || *s == '\t')) s++;
    if (s < le && *s == '#') alias_line(x, line, ls, s, le);
    else if (s < le && strncmp(s, "module", 6) == 0) module_line(x, s, le);
    else if (s < le && *s != '}' && *s != ')' && *s != '^' && strncmp(s, "//", 2) != 0 &&
             *s != '\r' && !region_label(s, le))
      op_line(x, line, ls, s, le);
    ls = le < end ? le + 1 : end;
  }
}

/* ---------------------------------------------------------------------
** The record
** ------------------------------------------------------------------- */

static lyt_value encodings(xp *x) {
  static const char *const names[] = { "name", "line", "text", "type", "linear", "cute", "note",
                                       "layout" };
  vlist l = { 0 };
  for (int32_t i = 0; i < x->nal; i++) {
    alias *a = &x->al[i];
    if (!a->known) continue;
    int space = strcmp(a->text, "#ttg.shared_memory") == 0 || strcmp(a->text, "#ttng.tensor_memory") == 0;
    lyt_value v[8] = { lytI_str(x->c, a->name), lytI_int(a->line), lytI_str(x->c, a->text),
                       a->type && !space ? lytI_str(x->c, a->type) : lytI_nil(), lytI_nil(),
                       lytI_nil(), lytI_nil(), lytI_nil() };
    if (space) v[6] = lytI_str(x->c, "a memory space");
    else if (!a->type) v[6] = lytI_str(x->c, "no type in the module uses it directly");
    if (a->type && !space) {
      ty t = { a->type, a->type + strlen(a->type), strncmp(a->type, "!", 1) == 0, 0 };
      lyt_value type = read_type(x, &t, a->tline, a->tcol);
      const lytG_ll *ll = layout_of(x, &type, a->tline, a->tcol);
      v[4] = notation(x, ll);
      v[5] = cute_form(x, ll);
      v[7] = (lyt_value){ .kind = LYT_VLINEAR, .u.ll = ll };
    }
    push(x, &l, record(x, 8, names, v));
  }
  return tuple_of(x, &l);
}

static void load_stdlib(xp *x) {
  lyt_value *f = lytI_stdlib_global(x->L, "to_linear", "triton.lyt");
  if (!f) lytI_callerr(x->c, "explain: the stdlib's to_linear is not defined");
  x->to_linear = *f;
}

static lyt_value module_record(xp *x, const char *name) {
  static const char *const names[] = { "file", "num_warps", "threads_per_warp", "num_ctas", "target" };
  lyt_value v[5] = { lytI_str(x->c, name), x->warps ? lytI_int(x->warps) : lytI_nil(),
                     x->threads ? lytI_int(x->threads) : lytI_nil(),
                     x->ctas ? lytI_int(x->ctas) : lytI_nil(),
                     x->target ? lytI_str(x->c, x->target) : lytI_nil() };
  return record(x, 5, names, v);
}

/* {module, encodings, conversions, memory, global, unknown} */
static lyt_value explain(lytI_call *c, const char *name, const char *text, size_t len) {
  static const char *const names[] = { "module", "encodings", "conversions", "memory", "global",
                                       "unknown" };
  xp x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.L = c->L;
  x.aliases = lytI_nil();
  x.src = lytI_new_src(c->L, name, text, len);
  load_stdlib(&x);
  x.nacc = lytI_ttgir_axis(c->L, x.src, &x.acc);
  scan(&x, x.src->text, x.src->text + x.src->len);
  if (x.nal == 0 && x.cvt.n + x.mem.n + x.glob.n + x.unknown.n == 0 && x.warps == 0)
    lytI_error(x.L, at(&x, 1, 1), LYT_ERRSYNTAX, "explain: no TTGIR module here (no '#alias = "
               "#ttg....' line, no 'module attributes', no op)");
  lyt_value v[6] = { module_record(&x, name), encodings(&x), tuple_of(&x, &x.cvt),
                     tuple_of(&x, &x.mem), tuple_of(&x, &x.glob), tuple_of(&x, &x.unknown) };
  return record(&x, 6, names, v);
}

/* ---------------------------------------------------------------------
** The text form: one block per item, like a compiler's remarks
** ------------------------------------------------------------------- */

static const char *str_of(const lyt_value *r, const char *name) {
  const lyt_value *v = field(r, name);
  return v && v->kind == LYT_VSTR ? v->u.str.s : NULL;
}

static int64_t int_of(const lyt_value *r, const char *name) {
  const lyt_value *v = field(r, name);
  return v && v->kind == LYT_VINT ? v->u.i : 0;
}

/* One access to shared memory, as a remark's line: its PTX, how much it
** moves, and Triton's conflict model where it has one. */
static void text_access(lytS_buf *b, const char *label, const lyt_value *sd) {
  lytS_buf_printf(b, "    %s: %s, %lld elements, %lld per thread", label, str_of(sd, "ptx"),
                  (long long)int_of(sd, "elements"), (long long)int_of(sd, "per_thread"));
  if (field(sd, "conflicts")->kind == LYT_VINT)
    lytS_buf_printf(b, "; %lld extra wavefront(s) per access (Triton's model)",
                    (long long)int_of(sd, "conflicts"));
  lytS_buf_puts(b, "\n");
}

struct text_ud { lytS_buf *b; const char *file; };

static void text_item(void *ud, const char *list, const lyt_value *e) {
  lytS_buf *b = ((struct text_ud *)ud)->b;
  const char *file = ((struct text_ud *)ud)->file;
  long long line = (long long)int_of(e, "line");
  if (strcmp(list, "conversions") == 0) {
    lytS_buf_printf(b, "%s:%lld: ttg.convert_layout %s -> %s on %s\n    mechanism: %s (%s)\n", file,
                    line, str_of(e, "from"), str_of(e, "to"), str_of(e, "type"),
                    str_of(e, "mechanism"), str_of(e, "why"));
    if (str_of(e, "minimal")) lytS_buf_printf(b, "    conversion: %s\n", str_of(e, "minimal"));
    const lyt_value *sh = field(e, "shared");
    if (sh && sh->kind == LYT_VRECORD) {
      lytS_buf_printf(b, "    scratch: %lld round(s) of %lld elements, offset and round -> element:\n"
                      "    %s\n", (long long)int_of(sh, "rounds"), (long long)int_of(sh, "scratch"),
                      str_of(sh, "scratch_linear"));
      text_access(b, "store", field(sh, "store"));
      text_access(b, "load", field(sh, "load"));
    }
  } else if (strcmp(list, "unknown") == 0) {
    lytS_buf_printf(b, "%s:%lld:%lld: unknown %s %s: %s\n", file, line, (long long)int_of(e, "col"),
                    str_of(e, "what"), str_of(e, "name"), str_of(e, "note"));
  } else {
    lytS_buf_printf(b, "%s:%lld: %s", file, line, str_of(e, "op"));
    if (str_of(e, "tensor")) lytS_buf_printf(b, " %s", str_of(e, "tensor"));
    if (str_of(e, "memdesc")) lytS_buf_printf(b, " %s", str_of(e, "memdesc"));
    lytS_buf_puts(b, "\n");
    const lyt_value *ac = field(e, "access");
    if (ac && ac->kind == LYT_VRECORD) text_access(b, "access", ac);
    if (str_of(e, "ptx"))
      lytS_buf_printf(b, "    vector: %lld elements (%s), %lld per thread%s\n    (%s)\n",
                      (long long)int_of(e, "vector"), str_of(e, "ptx"), (long long)int_of(e, "accesses"),
                      field(e, "exact")->u.i ? "" : ", at least", str_of(e, "why"));
  }
}

void lytI_explain_each(const lyt_value *r, lytI_explain_fn fn, void *ud) {
  static const char *const lists[] = { "conversions", "memory", "global", "unknown" };
  int32_t next[4] = { 0 };
  for (;;) {  /* each list is in line order: merge them */
    int best = -1;
    int64_t bl = 0;
    for (int k = 0; k < 4; k++) {
      const lyt_value *l = field(r, lists[k]);
      if (next[k] < l->u.tup.n && (best < 0 || int_of(&l->u.tup.e[next[k]], "line") < bl)) {
        best = k;
        bl = int_of(&l->u.tup.e[next[k]], "line");
      }
    }
    if (best < 0) return;
    fn(ud, lists[best], &field(r, lists[best])->u.tup.e[next[best]++]);
  }
}

const char *lytI_explain_count(const lyt_value *m, const char *name, char *tmp, size_t n) {
  const lyt_value *v = field(m, name);
  if (!v || v->kind != LYT_VINT) return "?";
  snprintf(tmp, n, "%lld", (long long)v->u.i);
  return tmp;
}

/* The module, its encodings, then every op in the order of its lines. */
static void text_form(lytS_buf *b, const lyt_value *r) {
  const lyt_value *m = field(r, "module");
  const char *file = str_of(m, "file");
  char w[24], t[24], c[24];
  lytS_buf_printf(b, "%s: module: %s warps of %s threads, %s CTA(s), target %s\n", file,
                  lytI_explain_count(m, "num_warps", w, sizeof w), lytI_explain_count(m, "threads_per_warp", t, sizeof t),
                  lytI_explain_count(m, "num_ctas", c, sizeof c), str_of(m, "target") ? str_of(m, "target") : "?");
  const lyt_value *l = field(r, "encodings");
  for (int32_t i = 0; i < l->u.tup.n; i++) {
    const lyt_value *e = &l->u.tup.e[i];
    lytS_buf_printf(b, "%s:%lld: encoding %s = %s\n", file, (long long)int_of(e, "line"),
                    str_of(e, "name"), str_of(e, "text"));
    if (str_of(e, "linear"))
      lytS_buf_printf(b, "    at %s:\n    %s\n", str_of(e, "type"), str_of(e, "linear"));
    if (str_of(e, "cute")) lytS_buf_printf(b, "    CuTe: %s\n", str_of(e, "cute"));
    else if (str_of(e, "note"))
      lytS_buf_printf(b, "    %s\n", str_of(e, "note"));
  }
  lytI_explain_each(r, text_item, &(struct text_ud){ b, file });
}

/* A copy of the record without its layout values (fields ending in
** "layout"): the JSON form carries their notation strings instead. */
static lyt_value without_layouts(lytI_call *c, const lyt_value *v) {
  if (v->kind == LYT_VTUP) {
    lyt_value t = lytI_tuple(c, v->u.tup.n);
    for (int32_t i = 0; i < v->u.tup.n; i++) t.u.tup.e[i] = without_layouts(c, &v->u.tup.e[i]);
    return t;
  }
  if (v->kind != LYT_VRECORD) return *v;
  const char *names[32] = { NULL };
  lyt_value e[32];
  int32_t n = 0;
  for (int32_t i = 0; i < v->u.rec.n && n < 32; i++) {
    size_t len = strlen(v->u.rec.name[i]);
    if (len >= 6 && strcmp(v->u.rec.name[i] + len - 6, "layout") == 0) continue;
    names[n] = v->u.rec.name[i];
    e[n++] = without_layouts(c, &v->u.rec.e[i]);
  }
  lyt_value r = lytI_record(c, n, names);
  for (int32_t i = 0; i < n; i++) r.u.rec.e[i] = e[i];
  return r;
}

/* explain(text, name="<ttgir>", format=nil): the record, or its "text" or "json" form. */
lyt_value lytI_explain(lytI_call *c) {
  lytI_scan s;
  lytI_scan_init(&s, c, 0);
  const char *name = "<ttgir>";
  if (!lytI_isnil(c, 1)) {
    if (c->argv[1].kind != LYT_VSTR) lytI_argerr(c, 1, "explain: name must be a string");
    name = c->argv[1].u.str.s;
  }
  lyt_value r = explain(c, name, s.text, (size_t)(s.end - s.text));
  if (lytI_isnil(c, 2)) return r;
  if (c->argv[2].kind != LYT_VSTR) lytI_argerr(c, 2, "explain: format must be \"text\", \"json\" or \"html\"");
  const char *f = c->argv[2].u.str.s;
  if (strcmp(f, "json") == 0) {
    lyt_value plain = without_layouts(c, &r);
    return lytI_call_builtin(c->L, "to_json", 1, &plain, NULL, c->loc);
  }
  if (strcmp(f, "html") == 0) {
    lytS_buf b;
    lytS_buf_init(&b, CX(c));
    lytI_explain_html(c->L, &b, &r, c->loc);
    return lytI_str(c, b.p);
  }
  if (strcmp(f, "text") != 0) lytI_argerr(c, 2, "explain: format must be \"text\", \"json\" or \"html\", not \"%s\"", f);
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  text_form(&b, &r);
  return lytI_str(c, b.p);
}
