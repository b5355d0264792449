/*
** ptx.c: the PTX backend (NVIDIA), for sm_90 (default), sm_80 and sm_100.
**
** One .entry per program with two pointer parameters. Nodes are 32-bit
** registers %n<i>, element registers %e<i> (.b16 for 1- and 2-byte
** elements, .b32, .b64). Vectors move as .v2/.v4 of .b32/.b64 words;
** 1- and 2-byte elements are packed into 32-bit words (mov.b32 with a
** vector operand for 16-bit halves, bfe/bfi for bytes), the way Triton
** moves fp16. Global loads use the read-only path (ld.global.nc): the
** input is never written by the kernel. ptxas does not check alignment;
** the lowering has proven every vector aligned (reference
** backends_embedding.md §1.3). An L2 hint makes one createpolicy per
** kernel and adds .L2::cache_hint with that policy to every global access
** of its side (PTX ISA 7.4, sm_80 and later).
*/
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"

typedef struct ctx { lytS_buf *b; const lytK_program *P; } ctx;

/* A node as an operand: a CONST inlines as an immediate. */
static void operand(ctx *c, int32_t i) {
  const lytK_node *n = &c->P->node[i];
  if (n->op == LYTK_CONST) lytS_buf_printf(c->b, "%lld", (long long)n->k);
  else lytS_buf_printf(c->b, "%%n%d", (int)i);
}

static void node(ctx *c, int32_t i) {
  static const char *const ins[] = { "", "", "", "add.u32", "mul.lo.u32", "and.b32", "or.b32",
                                     "xor.b32", "shl.b32", "shr.u32", "div.u32", "rem.u32" };
  const lytK_node *n = &c->P->node[i];
  lytS_buf *b = c->b;
  if (n->op == LYTK_CONST) return;  /* always inlined */
  if (n->op == LYTK_TID) { lytS_buf_printf(b, "  mov.u32 %%n%d, %%tid.x;\n", (int)i); return; }
  if (n->op == LYTK_CTAID) { lytS_buf_printf(b, "  mov.u32 %%n%d, %%ctaid.x;\n", (int)i); return; }
  if (n->op == LYTK_GE) {
    lytS_buf_printf(b, "  setp.ge.u32 %%p0, %%n%d, ", (int)n->a);
    operand(c, n->b);
    lytS_buf_printf(b, ";\n  selp.u32 %%n%d, 1, 0, %%p0;\n", (int)i);
    return;
  }
  if (c->P->node[n->a].op == LYTK_CONST) {  /* the first operand must be a register */
    lytS_buf_printf(b, "  mov.u32 %%n%d, %lld;\n", (int)i, (long long)c->P->node[n->a].k);
    lytS_buf_printf(b, "  %s %%n%d, %%n%d, ", ins[n->op], (int)i, (int)i);
  } else {
    lytS_buf_printf(b, "  %s %%n%d, ", ins[n->op], (int)i);
    operand(c, n->a);
    lytS_buf_puts(b, ", ");
  }
  operand(c, n->b);
  lytS_buf_puts(b, ";\n");
}

/* The element offset of an op into %t0 (or a node register); returns the
** register name's text in out. */
static void offset(ctx *c, const lytK_op *o, char *out, size_t n) {
  const lytK_node *a = &c->P->node[o->addr];
  lytS_buf *b = c->b;
  if (a->op == LYTK_CONST) lytS_buf_printf(b, "  mov.u32 %%t0, %lld;\n", (long long)a->k);
  else lytS_buf_printf(b, "  mov.u32 %%t0, %%n%d;\n", (int)o->addr);
  if (o->xor_k) lytS_buf_printf(b, "  xor.b32 %%t0, %%t0, %lld;\n", (long long)o->xor_k);
  if (o->add_k) lytS_buf_printf(b, "  add.u32 %%t0, %%t0, %lld;\n", (long long)o->add_k);
  snprintf(out, n, "%%t0");
}

/* The address operand [..] of an op. */
static void address(ctx *c, const lytK_op *o, char *out, size_t n) {
  char off[16];
  offset(c, o, off, sizeof off);
  int eb = c->P->elem_bytes;
  if (o->kind == LYTK_LDS || o->kind == LYTK_STS) {
    lytS_buf_printf(c->b, "  mad.lo.u32 %%t1, %s, %d, %%s;\n", off, eb);
    snprintf(out, n, "[%%t1]");
  } else {
    lytS_buf_printf(c->b, "  mad.wide.u32 %%rd2, %s, %d, %%rd%d;\n", off, eb,
                    o->kind == LYTK_LDG ? 0 : 1);
    snprintf(out, n, "[%%rd2]");
  }
}

static lytK_l2 hint_of(const ctx *c, const lytK_op *o) {
  return o->kind == LYTK_LDG ? c->P->l2_load : o->kind == LYTK_STG ? c->P->l2_store : LYTK_L2_NONE;
}

static const char *space(const ctx *c, const lytK_op *o) {
  int hinted = hint_of(c, o) != LYTK_L2_NONE;
  switch (o->kind) {
    case LYTK_LDG: return hinted ? "ld.global.nc.L2::cache_hint" : "ld.global.nc";
    case LYTK_STG: return hinted ? "st.global.L2::cache_hint" : "st.global";
    case LYTK_LDS: return "ld.shared";
    default: return "st.shared";
  }
}

/* The policy operand that ends a hinted access. */
static const char *policy(const ctx *c, const lytK_op *o) {
  return hint_of(c, o) == LYTK_L2_NONE ? "" : o->kind == LYTK_LDG ? ", %pol0" : ", %pol1";
}

/* Words of a sub-word element group: unpack after a load, pack before a
** store. Word w holds elements w*per .. (w+1)*per - 1 of the vector;
** element i is register e[i]. */
static void unpack(ctx *c, const int32_t *e, int32_t words) {
  int eb = c->P->elem_bytes, per = 4 / eb;
  for (int32_t w = 0; w < words; w++) {
    const int32_t *x = e + w * per;
    if (eb == 2) lytS_buf_printf(c->b, "  mov.b32 {%%e%d, %%e%d}, %%w%d;\n", x[0], x[1], w);
    else
      for (int k = 0; k < 4; k++)
        lytS_buf_printf(c->b, "  bfe.u32 %%t2, %%w%d, %d, 8;\n  cvt.u16.u32 %%e%d, %%t2;\n", w,
                        8 * k, x[k]);
  }
}

static void pack(ctx *c, const int32_t *e, int32_t words) {
  int eb = c->P->elem_bytes, per = 4 / eb;
  for (int32_t w = 0; w < words; w++) {
    const int32_t *x = e + w * per;
    if (eb == 2) {
      lytS_buf_printf(c->b, "  mov.b32 %%w%d, {%%e%d, %%e%d};\n", w, x[0], x[1]);
      continue;
    }
    lytS_buf_printf(c->b, "  cvt.u32.u16 %%w%d, %%e%d;\n", w, x[0]);
    for (int k = 1; k < 4; k++)
      lytS_buf_printf(c->b, "  cvt.u32.u16 %%t2, %%e%d;\n  bfi.b32 %%w%d, %%t2, %%w%d, %d, 8;\n",
                      x[k], w, w, 8 * k);
  }
}

/* Two bytes of 1-byte elements move as one .b16. */
static void access_pair(ctx *c, const lytK_op *o, const char *addr, const char *guard, int load) {
  int32_t e0 = lytK_elem_reg(o, 0), e1 = lytK_elem_reg(o, 1);
  if (load) {
    lytS_buf_printf(c->b, "  %s%s.b16 %%h0, %s%s;\n", guard, space(c, o), addr, policy(c, o));
    lytS_buf_printf(c->b, "  and.b16 %%e%d, %%h0, 255;\n  shr.u16 %%e%d, %%h0, 8;\n", (int)e0, (int)e1);
  } else {
    lytS_buf_printf(c->b, "  shl.b16 %%h0, %%e%d, 8;\n  or.b16 %%h0, %%h0, %%e%d;\n", (int)e1, (int)e0);
    lytS_buf_printf(c->b, "  %s%s.b16 %s, %%h0%s;\n", guard, space(c, o), addr, policy(c, o));
  }
}

/* {%e3, %e7, ...}, or one register alone. */
static void vector_list(ctx *c, const char *reg, const int32_t *e, int32_t n) {
  if (n == 1) { lytS_buf_printf(c->b, "%%%s%d", reg, (int)e[0]); return; }
  lytS_buf_puts(c->b, "{");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(c->b, "%s%%%s%d", i ? ", " : "", reg, (int)e[i]);
  lytS_buf_puts(c->b, "}");
}

/* A predicated op's guard: "@%p0 " after the setp, or "". */
static const char *guard_of(ctx *c, const lytK_op *o) {
  if (o->pred < 0) return "";
  lytS_buf_printf(c->b, "  setp.eq.u32 %%p0, %%n%d, 0;\n", (int)o->pred);
  return "@%p0 ";
}

static void access(ctx *c, const lytK_op *o) {
  int eb = c->P->elem_bytes, bytes = o->vec * eb;
  int load = o->kind == LYTK_LDG || o->kind == LYTK_LDS;
  char addr[24];
  address(c, o, addr, sizeof addr);
  const char *guard = guard_of(c, o);
  if (eb == 1 && bytes == 2) { access_pair(c, o, addr, guard, load); return; }
  int32_t e[16], wi[4] = { 0, 1, 2, 3 };
  for (int32_t i = 0; i < o->vec; i++) e[i] = lytK_elem_reg(o, i);
  if (bytes < 4 || eb >= 4) {  /* whole elements: .u8/.b16 scalars, .b32/.b64 vectors */
    const char *ty = eb == 1 ? "u8" : eb == 2 ? "b16" : eb == 4 ? "b32" : "b64";
    int32_t n = bytes < 4 ? 1 : o->vec;
    lytS_buf_printf(c->b, "  %s%s%s.%s ", guard, space(c, o), n > 1 ? (n == 2 ? ".v2" : ".v4") : "", ty);
    if (load) { vector_list(c, "e", e, n); lytS_buf_printf(c->b, ", %s", addr); }
    else { lytS_buf_printf(c->b, "%s, ", addr); vector_list(c, "e", e, n); }
    lytS_buf_printf(c->b, "%s;\n", policy(c, o));
    return;
  }
  int32_t words = bytes / 4;  /* packed sub-word elements */
  const char *v = words == 1 ? "" : words == 2 ? ".v2" : ".v4";
  if (!load) pack(c, e, words);
  lytS_buf_printf(c->b, "  %s%s%s.b32 ", guard, space(c, o), v);
  if (load) { vector_list(c, "w", wi, words); lytS_buf_printf(c->b, ", %s", addr); }
  else { lytS_buf_printf(c->b, "%s, ", addr); vector_list(c, "w", wi, words); }
  lytS_buf_printf(c->b, "%s;\n", policy(c, o));
  if (load) unpack(c, e, words);
}

/* The element register type: 1- and 2-byte elements live in .b16. */
static const char *ety(const lytK_program *P) {
  return P->elem_bytes <= 2 ? "b16" : P->elem_bytes == 4 ? "b32" : "b64";
}

/* shfl.sync moves 32 bits: narrower elements widen around it, 64-bit
** ones go as two halves. */
static void shuffle(ctx *c, const lytK_op *o) {
  lytS_buf *b = c->b;
  int eb = c->P->elem_bytes;
  lytS_buf_printf(b, "  and.b32 %%t0, %%n%d, 31;\n", (int)o->addr);
  if (eb == 4) {
    lytS_buf_printf(b, "  shfl.sync.idx.b32 %%e%d, %%e%d, %%t0, 31, -1;\n", (int)o->reg, (int)o->src);
  } else if (eb == 8) {
    lytS_buf_printf(b, "  mov.b64 {%%w0, %%w1}, %%e%d;\n", (int)o->src);
    lytS_buf_puts(b, "  shfl.sync.idx.b32 %w0, %w0, %t0, 31, -1;\n"
                     "  shfl.sync.idx.b32 %w1, %w1, %t0, 31, -1;\n");
    lytS_buf_printf(b, "  mov.b64 %%e%d, {%%w0, %%w1};\n", (int)o->reg);
  } else {
    lytS_buf_printf(b, "  cvt.u32.u16 %%w0, %%e%d;\n", (int)o->src);
    lytS_buf_puts(b, "  shfl.sync.idx.b32 %w0, %w0, %t0, 31, -1;\n");
    lytS_buf_printf(b, "  cvt.u16.u32 %%e%d, %%w0;\n", (int)o->reg);
  }
}

/* XOR with the key's low bits: the element's width of it; 16-bit
** elements two at a time, packed in a 32-bit word with the key twice. */
static void xor_key(ctx *c, const lytK_op *o) {
  lytS_buf *b = c->b;
  int eb = c->P->elem_bytes;
  lytS_buf_printf(b, "  mov.u32 %%t2, ");
  operand(c, o->addr);
  lytS_buf_puts(b, ";\n");
  if (eb == 8) lytS_buf_puts(b, "  cvt.u64.u32 %rd2, %t2;\n");
  if (eb <= 2) lytS_buf_puts(b, "  cvt.u16.u32 %h0, %t2;\n");
  if (eb == 1) lytS_buf_puts(b, "  and.b16 %h0, %h0, 255;\n");
  if (eb == 2) lytS_buf_puts(b, "  mov.b32 %t2, {%h0, %h0};\n");
  for (int32_t i = 0; i < o->vec; i++) {
    int32_t r = o->reg + i;
    if (eb == 2 && i + 1 < o->vec) {
      lytS_buf_printf(b, "  mov.b32 %%w0, {%%e%d, %%e%d};\n  xor.b32 %%w0, %%w0, %%t2;\n"
                      "  mov.b32 {%%e%d, %%e%d}, %%w0;\n", (int)r, (int)r + 1, (int)r, (int)r + 1);
      i++;
      continue;
    }
    lytS_buf_printf(b, "  xor.%s %%e%d, %%e%d, %s;\n", ety(c->P), (int)r, (int)r,
                    eb <= 2 ? "%h0" : eb == 4 ? "%t2" : "%rd2");
  }
}

/* ldmatrix/stmatrix: one 32-bit word per matrix, the op's register pair
** (16-bit elements) or its register (32-bit). */
static void matrix(ctx *c, const lytK_op *o) {
  char addr[24];
  int load = o->kind == LYTK_LDSM, pairs = o->rbit[0] != 0;
  lytK_op row = *o;
  row.kind = load ? LYTK_LDS : LYTK_STS;
  address(c, &row, addr, sizeof addr);
  const char *g = guard_of(c, o);
  int32_t w[4];
  for (int32_t i = 0; i < o->vec; i++) {
    w[i] = pairs ? i : lytK_matrix_elem(o, i).reg;
    if (pairs && !load)
      lytS_buf_printf(c->b, "  mov.b32 %%w%d, {%%e%d, %%e%d};\n", (int)i, (int)lytK_matrix_elem(o, 2 * i).reg,
                      (int)lytK_matrix_elem(o, 2 * i + 1).reg);
  }
  lytS_buf_printf(c->b, "  %s%s.sync.aligned.m8n8.x%d%s.shared.b16 ", g, load ? "ldmatrix" : "stmatrix",
                  (int)o->vec, o->trans ? ".trans" : "");
  if (!load) lytS_buf_printf(c->b, "%s, ", addr);
  for (int32_t i = 0; i < o->vec; i++)
    lytS_buf_printf(c->b, "%s%%%s%d", i ? ", " : "{", pairs ? "w" : "e", (int)w[i]);
  lytS_buf_printf(c->b, "}%s%s;\n", load ? ", " : "", load ? addr : "");
  for (int32_t i = 0; i < o->vec && load && pairs; i++)
    lytS_buf_printf(c->b, "  mov.b32 {%%e%d, %%e%d}, %%w%d;\n", (int)lytK_matrix_elem(o, 2 * i).reg,
                    (int)lytK_matrix_elem(o, 2 * i + 1).reg, (int)i);
}

static void emit_one(lytS_buf *b, const lytK_program *P) {
  ctx c = { b, P };
  if (P->smem_bytes) lytS_buf_printf(b, "\n.extern .shared .align 16 .b8 %s_smem[];\n", P->name);
  lytS_buf_printf(b, "\n// %s: %d blocks of %d threads, %d bytes of dynamic shared memory, %d %s "
                  "elements per thread\n", P->name, (int)P->blocks, (int)P->threads,
                  (int)P->smem_bytes, (int)P->nregs, P->elem);
  lytS_buf_printf(b, ".visible .entry %s(\n  .param .u64 %s_in,\n  .param .u64 %s_out\n)\n"
                  ".reqntid %d, 1, 1\n{\n", P->name, P->name, P->name, (int)P->threads);
  lytS_buf_printf(b, "  .reg .pred %%p<2>;\n  .reg .b32 %%lc;\n  .reg .b32 %%n<%d>;\n  .reg .b32 %%t<3>;\n"
                  "  .reg .b32 %%s;\n  .reg .b32 %%w<4>;\n  .reg .b16 %%h<1>;\n"
                  "  .reg .b64 %%rd<3>;\n  .reg .%s %%e<%d>;\n", (int)P->nnodes, ety(P), (int)P->nregs);
  lytS_buf_printf(b, "  ld.param.u64 %%rd0, [%s_in];\n  cvta.to.global.u64 %%rd0, %%rd0;\n", P->name);
  lytS_buf_printf(b, "  ld.param.u64 %%rd1, [%s_out];\n  cvta.to.global.u64 %%rd1, %%rd1;\n", P->name);
  if (P->l2_load || P->l2_store) lytS_buf_puts(b, "  .reg .b64 %pol<2>;\n");
  if (P->l2_load)
    lytS_buf_printf(b, "  createpolicy.fractional.L2::%s.b64 %%pol0, 1.0;\n", lytK_l2_name(P->l2_load));
  if (P->l2_store)
    lytS_buf_printf(b, "  createpolicy.fractional.L2::%s.b64 %%pol1, 1.0;\n", lytK_l2_name(P->l2_store));
  if (P->smem_bytes) lytS_buf_printf(b, "  mov.u32 %%s, %s_smem;\n", P->name);
  else lytS_buf_puts(b, "  mov.u32 %s, 0;\n");
  for (int32_t i = 0; i < P->nnodes; i++) node(&c, i);
  for (int32_t i = 0; i < P->nops; i++) {
    const lytK_op *o = &P->op[i];
    if (o->kind == LYTK_BAR) lytS_buf_puts(b, o->vec ? "  bar.warp.sync -1;\n" : "  bar.sync 0;\n");
    else if (o->kind == LYTK_LOOP)
      lytS_buf_printf(b, "  mov.u32 %%lc, %d;\n$L_%s_%d:\n", (int)o->vec, P->name, (int)i);
    else if (o->kind == LYTK_END) {
      int32_t at = i;
      while (at > 0 && P->op[at].kind != LYTK_LOOP) at--;
      lytS_buf_printf(b, "  sub.u32 %%lc, %%lc, 1;\n  setp.ne.u32 %%p1, %%lc, 0;\n"
                      "  @%%p1 bra.uni $L_%s_%d;\n", P->name, (int)at);
    }
    else if (o->kind == LYTK_XORK) xor_key(&c, o);
    else if (o->kind == LYTK_SHFL) shuffle(&c, o);
    else if (o->kind == LYTK_LDSM || o->kind == LYTK_STSM) matrix(&c, o);
    else if (o->kind == LYTK_MOV)
      lytS_buf_printf(b, "  %smov.%s %%e%d, %%e%d;\n", guard_of(&c, o), ety(P), (int)o->reg, (int)o->src);
    else access(&c, o);
  }
  lytS_buf_puts(b, "  ret;\n}\n");
}

/* The targets: the lowest PTX ISA each needs (sm_100 came with 8.6, sm_90
** with 7.8, sm_80 with 7.0, L2 cache hints with 7.4) and a block's shared
** memory once opted in (228 KB less 1 KB reserved per block on sm_90 and
** sm_100, 164 KB less 1 KB on sm_80). */
static const struct { const char *arch, *isa; int32_t smem_max; } archs[] = {
  { "sm_90", "7.8", 227 * 1024 }, { "sm_80", "7.0", 163 * 1024 }, { "sm_100", "8.6", 227 * 1024 },
};

static void emit(lytS_ctx *cx, lytS_buf *b, const lytK_program *const *progs, int32_t n,
                 const char *target) {
  const char *arch = target ? target : "sm_90";
  size_t a = 0;
  while (a < sizeof archs / sizeof archs[0] && strcmp(arch, archs[a].arch)) a++;
  if (a == sizeof archs / sizeof archs[0])
    lytS_fail(cx, LYT_ERRRUN, "ptx: unknown target '%s' (sm_90, sm_80, sm_100)", arch);
  int hints = 0;
  for (int32_t i = 0; i < n; i++) {
    if (progs[i]->smem_bytes > archs[a].smem_max)
      lytS_fail(cx, LYT_ERRRUN, "ptx: '%s' needs %d bytes of shared memory; a block on %s has at "
                "most %d", progs[i]->name, (int)progs[i]->smem_bytes, arch, (int)archs[a].smem_max);
    if (progs[i]->lanes > 32)
      lytS_fail(cx, LYT_ERRRUN, "ptx: '%s' shuffles within warps of %d lanes; an NVIDIA warp has 32 "
                "(its layouts are for a 64-lane wavefront: emit it for amdgcn)", progs[i]->name,
                (int)progs[i]->lanes);
    hints |= progs[i]->l2_load || progs[i]->l2_store;
  }
  lytS_buf_printf(b, "// Generated by lyt.\n.version %s\n.target %s\n.address_size 64\n",
                  a == 1 && hints ? "7.4" : archs[a].isa, arch);
  /* stmatrix came with sm_90 */
  for (int32_t i = 0; i < n; i++) emit_one(b, a == 1 ? lytK_expand_ops(cx, progs[i], 1) : progs[i]);
}

const lytK_backend lytK_backend_ptx = { "ptx", "sm_90 sm_80 sm_100", emit };
