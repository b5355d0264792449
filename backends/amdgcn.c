/*
** amdgcn.c: the AMDGCN code generator. It prints the programs of
** program.h as one HSA code object in LLVM assembler syntax (llvm-mc
** -triple=amdgcn-amd-amdhsa), for CDNA3 (gfx942, the default) and CDNA2
** (gfx90a).
**
** Each program is one straight-line wave64 kernel; a work-item is a lane.
** Register plan:
**   v0              work-item id x (TID), pinned
**   v[2, 2+edw)     the element registers, packed: element r lives at byte
**                   r*elem_bytes, so an access of 4/8/16 bytes is one
**                   dword/x2/x4 tuple (tuples must start at an even VGPR)
**   other VGPRs     node values and addresses, reference-counted
**   s[8:11]         the kernel arguments in, out (64-bit pointers)
**   s12             a constant for VOP3 operands (they take no literal)
**   s[14:15]        the launch exec while a predicate narrows it
** Global accesses use the saddr form: pointer SGPRs + a 32-bit byte offset
** VGPR, so every byte offset must stay below 2^31 (checked up front).
** The L2 eviction hints of a program are left out: gfx9 global accesses
** carry no eviction priority (nt/sc bits choose coherence and streaming,
** not which lines L2 keeps), and no AMD GPU was at hand to measure one.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "interp/base/context.h"
#include "backends/backend.h"

#define NVGPR 256     /* architected VGPRs; AGPRs are never used */
#define EBASE 2       /* first element VGPR: even, for tuples */
#define NSGPR 16      /* .amdhsa_next_free_sgpr: s[0:15] (see above) */
#define LDS_MAX 65536 /* group segment of one workgroup on gfx90a/gfx942 */
#define SBUF 32       /* a printed operand: "v[252:255]", "0xffffffff" */
#define TWO31 (INT64_C(1) << 31)

#define FAIL(g, ...) lytS_fail((g)->cx, LYT_ERRRUN, "amdgcn: " __VA_ARGS__)
#define EMIT(g, ...) lytS_buf_printf((g)->b, "  " __VA_ARGS__)

/* How a target starts a kernel (AMDGPUUsage, "initial kernel execution
** state"): enabled user SGPRs come first in a fixed order (private segment
** buffer, ..., kernarg pointer, ...), then the workgroup id x. gfx942 has
** architected flat scratch and refuses the private segment buffer; on
** gfx90a we enable it as LLVM's own kernels do, which moves the rest by 4. */
typedef struct target {
  const char *name;  /* -mcpu */
  int privbuf;       /* .amdhsa_user_sgpr_private_segment_buffer */
  int karg, wgid;    /* kernarg pointer s[karg:karg+1]; workgroup id x */
  int cov;           /* code object version to pin, 0: the assembler's */
  const char *mdver; /* amdhsa.version matching that code object version */
} target;

/* LLVM 14 knows neither gfx942 nor .amdhsa_code_object_version and makes
** v4, so gfx90a keeps the assembler's default and says 1.1; gfx942 needs a
** newer LLVM (19 is tested), so it pins v5 and says 1.2. */
static const target targets[] = {
  {"gfx942", 0, 0, 2, 5, "[ 1, 2 ]"},
  {"gfx90a", 1, 4, 6, 0, "[ 1, 1 ]"},
};

enum { VM, LGKM };  /* the wait counters: global memory, LDS */

typedef struct gen {
  lytS_ctx *cx;
  lytS_buf *b;
  const lytK_program *p;
  const target *t;
  int sh;                  /* log2(elem_bytes) */
  int edw;                 /* element dwords */
  int top;                 /* highest VGPR used + 1 */
  uint8_t ref[NVGPR];      /* holders of each VGPR; 0: free */
  int32_t *last;           /* per node: last time it is read, -1 if never */
  int16_t *reg;            /* per node: its VGPR, -1 when a constant */
  int16_t *sreg;           /* per node: VGPR of node << sh, -1 until needed */
  uint32_t *kv;            /* per node: the value when a constant */
  int32_t *grp;            /* per op: address group, -1 for none */
  int32_t *gfirst, *glast; /* per group: first and last op */
  int16_t *gbase;          /* per group: VGPR of its byte base, -1 if none */
  int32_t *region;         /* per op: loops' ends before it (groups stay in one) */
  int64_t issued[2];       /* memory instructions issued per counter */
  int64_t done[2];         /* those below this sequence number finished */
  int64_t *pend[2];        /* per element dword: last load writing it */
  int exec;                /* node exec is narrowed to (== 0), -1: launch exec */
  int32_t loop;            /* the LYTK_LOOP op being checked or emitted, -1: none */
  int32_t *end;            /* per op: the END of the loop it is in, -1 if none */
} gen;

/* ---- operands ---- */

/* "v7" or "v[8:11]": n dwords from VGPR r. */
static const char *vr(char s[SBUF], int r, int n) {
  if (n == 1) snprintf(s, SBUF, "v%d", r);
  else snprintf(s, SBUF, "v[%d:%d]", r, r + n - 1);
  return s;
}

/* An integer operand: inline constants print as such, others as a literal. */
static const char *imm(char s[SBUF], uint32_t k) {
  snprintf(s, SBUF, k <= 64 ? "%u" : "0x%x", (unsigned)k);
  return s;
}

/* A VOP3 operand (v_mul_*): no literal, so larger values go through s12. */
static const char *vop3k(gen *g, char s[SBUF], uint32_t k) {
  if (k <= 64) return imm(s, k);
  EMIT(g, "s_mov_b32 s12, 0x%x\n", (unsigned)k);
  return "s12";
}

static int isconst(const gen *g, int32_t n) { return g->reg[n] < 0; }

/* ---- VGPRs ---- */

static int vget(gen *g) {
  for (int r = 1; r < NVGPR; r++)
    if (!g->ref[r]) {
      g->ref[r] = 1;
      if (r + 1 > g->top) g->top = r + 1;
      return r;
    }
  FAIL(g, "program '%s' needs more than %d VGPRs (%d for its element registers)", g->p->name,
       NVGPR, g->edw);
}

static void vput(gen *g, int r) { if (r >= 0) g->ref[r]--; }

/* Node n is no longer read after time t. */
static void release(gen *g, int32_t n, int32_t t) {
  if (n >= 0 && g->last[n] == t) vput(g, g->reg[n]), vput(g, g->sreg[n]);
}

/* ---- validation: refuse what the target cannot express ---- */

static int elem_ok(const lytK_program *p) {
  static const struct { const char *name; int bytes; } dt[] = {
    {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}, {"i8", 1}, {"i32", 4}};
  for (size_t i = 0; i < sizeof dt / sizeof dt[0]; i++)
    if (p->elem && strcmp(p->elem, dt[i].name) == 0) return dt[i].bytes == p->elem_bytes;
  return 0;
}

/* The name becomes a symbol and a YAML scalar: a C identifier is safe in both. */
static int ident_ok(const char *s) {
  static const char w[] = "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return s && *s && !(*s >= '0' && *s <= '9') && s[strspn(s, w)] == '\0';
}

static void check_node(gen *g, int32_t i) {
  const lytK_node *n = &g->p->node[i];
  if (n->op == LYTK_TID || n->op == LYTK_CTAID) return;
  if (n->op == LYTK_CONST) {
    if (n->k < 0 || n->k >= TWO31)
      FAIL(g, "'%s' node %d: constant %lld is not in [0, 2^31)", g->p->name, i, (long long)n->k);
    return;
  }
  if (n->op < LYTK_ADD || n->op > LYTK_GE || n->a < 0 || n->a >= i || n->b < 0 || n->b >= i)
    FAIL(g, "'%s' node %d is malformed", g->p->name, i);
  const lytK_node *k = &g->p->node[n->b];
  int shift = n->op == LYTK_SHL || n->op == LYTK_SHR;
  if ((shift || n->op == LYTK_DIV || n->op == LYTK_MOD) &&
      (k->op != LYTK_CONST || (shift ? k->k > 31 : k->k < 1)))
    FAIL(g, "'%s' node %d: %s needs a constant %s", g->p->name, i, shift ? "a shift" : "a division",
         shift ? "below 32" : "divisor >= 1");
}

static void check_op(gen *g, int32_t j) {
  const lytK_op *o = &g->p->op[j];
  const lytK_program *p = g->p;
  if (o->kind == LYTK_BAR) return;
  if (o->kind == LYTK_LOOP || o->kind == LYTK_END) {
    int open = g->loop >= 0;
    if (open == (o->kind == LYTK_LOOP) || (o->kind == LYTK_LOOP && o->vec < 1))
      FAIL(g, "'%s' op %d: loops must not nest, and each must end", p->name, j);
    g->loop = o->kind == LYTK_LOOP ? j : -1;
    return;
  }
  if (o->kind >= LYTK_MOV) {
    int shfl = o->kind == LYTK_SHFL, xork = o->kind == LYTK_XORK;
    if ((unsigned)o->kind > LYTK_XORK || o->reg < 0 || o->vec < 1 || (!xork && o->vec != 1) ||
        (int64_t)o->reg + o->vec > p->nregs || (!xork && (o->src < 0 || o->src >= p->nregs)) ||
        ((shfl || xork) && (o->addr < 0 || o->addr >= p->nnodes)) || o->pred < -1 ||
        o->pred >= p->nnodes || ((shfl || xork) && o->pred >= 0))
      FAIL(g, "'%s' op %d is malformed", p->name, j);
    return;
  }
  if ((unsigned)o->kind > LYTK_STS || o->vec < 1 || (o->vec & (o->vec - 1)) ||
      (int64_t)o->vec * p->elem_bytes > 16)
    FAIL(g, "'%s' op %d: a %d x %s access cannot be expressed", p->name, j, o->vec, p->elem);
  int64_t top = (int64_t)o->reg + (int64_t)(o->vec - 1) * o->rstep;  /* the last register */
  if (o->rstep < 1 || (o->rstep & (o->rstep - 1)) || o->reg < 0 ||
      (o->rstep == 1 && o->reg % o->vec) || top >= p->nregs || o->addr < 0 ||
      o->addr >= p->nnodes || o->pred < -1 || o->pred >= p->nnodes)
    FAIL(g, "'%s' op %d is malformed", p->name, j);
  if (o->xor_k < 0 || o->xor_k >= TWO31 || o->add_k <= -TWO31 || o->add_k >= TWO31)
    FAIL(g, "'%s' op %d: offset constants out of 31-bit range", p->name, j);
}

static void check(gen *g) {
  const lytK_program *p = g->p;
  const char *nm = p->name;
  if (!ident_ok(nm)) FAIL(g, "kernel name is not an identifier");
  if (p->nnodes < 0 || p->nops < 0 || (p->nnodes && !p->node) || (p->nops && !p->op))
    FAIL(g, "'%s' is malformed", nm);
  if (!elem_ok(p))
    FAIL(g, "'%s': element type %s of %d bytes is not supported", nm, p->elem ? p->elem : "(none)",
         p->elem_bytes);
  if (p->threads < 1 || p->threads > 1024 || p->blocks < 1 ||
      (int64_t)p->blocks * p->threads > UINT32_MAX)
    FAIL(g, "'%s': %d blocks of %d threads cannot be launched (at most 1024 work-items per "
         "workgroup)", nm, p->blocks, p->threads);
  if (p->smem_bytes < 0 || p->smem_bytes > LDS_MAX)
    FAIL(g, "'%s' needs %d bytes of LDS (at most %d)", nm, p->smem_bytes, LDS_MAX);
  /* The saddr form adds a 32-bit unsigned byte offset; keep every valid one below 2^31. */
  if (p->in_elems < 0 || p->out_elems < 0 || p->in_elems > TWO31 / p->elem_bytes ||
      p->out_elems > TWO31 / p->elem_bytes)
    FAIL(g, "'%s': a buffer of 2^31 bytes or more needs 64-bit offsets, which this backend "
         "does not emit", nm);
  if (p->nregs < 0 || EBASE + ((int64_t)p->nregs * p->elem_bytes + 3) / 4 > NVGPR)
    FAIL(g, "'%s': %d element registers of %d bytes exceed the %d VGPRs", nm, p->nregs,
         p->elem_bytes, NVGPR);
  for (int32_t i = 0; i < p->nnodes; i++) check_node(g, i);
  g->loop = -1;
  for (int32_t j = 0; j < p->nops; j++) check_op(g, j);
  if (g->loop >= 0) FAIL(g, "'%s' op %d: a loop that does not end", nm, g->loop);
}

/* ---- planning: address groups and liveness ---- */

/* An op whose predicate is a nonzero CONST node never runs. */
static int runs(const gen *g, const lytK_op *o) {
  if (o->kind == LYTK_BAR || o->kind >= LYTK_MOV) return 0;  /* no address group */
  return o->pred < 0 || g->p->node[o->pred].op != LYTK_CONST || g->p->node[o->pred].k == 0;
}

/* Ops with the same (addr, xor_k) share one byte-base VGPR: a hash from
** the key to its group, so planning stays linear in the op count. */
static void group_ops(gen *g) {
  const lytK_program *p = g->p;
  int32_t cap = 16, ng = 0;
  while (cap < 2 * p->nops) cap *= 2;
  int32_t *slot = lytS_alloc(g->cx, sizeof *slot * (size_t)cap);
  for (int32_t h = 0; h < cap; h++) slot[h] = -1;
  for (int32_t j = 0; j < p->nops; j++) {
    const lytK_op *o = &p->op[j];
    g->grp[j] = -1;
    if (!runs(g, o)) continue;
    uint32_t h = (uint32_t)o->addr * 2654435761u ^ (uint32_t)o->xor_k * 40503u ^ (uint32_t)g->region[j];
    for (h &= (uint32_t)cap - 1; slot[h] >= 0; h = (h + 1) & ((uint32_t)cap - 1)) {
      const lytK_op *f = &p->op[g->gfirst[slot[h]]];
      if (f->addr == o->addr && f->xor_k == o->xor_k && g->region[g->gfirst[slot[h]]] == g->region[j])
        break;
    }
    if (slot[h] < 0) {
      slot[h] = ng;
      g->gfirst[ng] = j;
      g->gbase[ng++] = -1;
    }
    g->grp[j] = slot[h];
    g->glast[slot[h]] = j;
  }
}

/* A node read inside a loop is read again by the next trip: it lives
** to the loop's end. */
static void use(gen *g, int32_t n, int32_t t) {
  int32_t j = t - g->p->nnodes;
  if (j >= 0 && g->end[j] >= 0) t = g->p->nnodes + g->end[j];
  if (n >= 0 && g->last[n] < t) g->last[n] = t;
}

/* Time runs over the nodes (index i), then the ops (nnodes + j). The
** address node is read once per group (when its base is made), the
** predicate by every op; a node is dead unless something live reads it. */
static void liveness(gen *g) {
  const lytK_program *p = g->p;
  for (int32_t i = 0; i < p->nnodes; i++) g->last[i] = -1;
  for (int32_t j = 0; j < p->nops; j++) {
    const lytK_op *o = &p->op[j];
    if (o->kind >= LYTK_MOV) {  /* register ops read their node and predicate directly */
      if (o->kind == LYTK_SHFL || o->kind == LYTK_XORK) use(g, o->addr, p->nnodes + j);
      use(g, o->pred, p->nnodes + j);
      continue;
    }
    if (g->grp[j] < 0) continue;
    if (g->gfirst[g->grp[j]] == j) use(g, o->addr, p->nnodes + j);
    use(g, o->pred, p->nnodes + j);
  }
  for (int32_t i = p->nnodes - 1; i >= 0; i--)
    if (g->last[i] >= 0 && p->node[i].op >= LYTK_ADD) {
      use(g, p->node[i].a, i);
      use(g, p->node[i].b, i);
    }
}

/* ---- node arithmetic (32-bit; every value is below 2^31) ---- */

static void setk(gen *g, int32_t i, uint32_t k) { g->reg[i] = -1; g->kv[i] = k; }

/* Node i takes node a's VGPR (an identity): one more holder. */
static void alias(gen *g, int32_t i, int32_t a) { g->ref[g->reg[i] = g->reg[a]]++; }

static int log2u(uint32_t k) {
  int s = 0;
  while ((UINT32_C(1) << s) < k) s++;
  return s;  /* ceil(log2 k) */
}

/* x / d and x % d for a constant d that is not a power of two. With
** s = ceil(log2 d) and m = ceil(2^(31+s) / d) < 2^32, the error
** e = m*d - 2^(31+s) < d <= 2^s, so for x < 2^31
**   x*m / 2^(31+s) = x/d + x*e / (d * 2^(31+s)),  error term < 1/d,
** which cannot carry floor(x/d) to the next integer: q = mulhi(x, m) >> (s-1). */
static void divmod(gen *g, int32_t i, int va, uint32_t d, int mod) {
  int s = log2u(d), dst = vget(g), q = mod ? vget(g) : dst;
  uint32_t m = (uint32_t)(((UINT64_C(1) << (31 + s)) + d - 1) / d);
  char k[SBUF];
  EMIT(g, "s_mov_b32 s12, 0x%x\n", (unsigned)m);
  EMIT(g, "v_mul_hi_u32 v%d, v%d, s12\n", q, va);
  EMIT(g, "v_lshrrev_b32 v%d, %d, v%d\n", q, s - 1, q);
  if (mod) {
    const char *dk = vop3k(g, k, d);
    EMIT(g, "v_mul_lo_u32 v%d, v%d, %s\n", q, q, dk);
    EMIT(g, "v_sub_u32 v%d, v%d, v%d\n", dst, va, q);
    vput(g, q);
  }
  g->reg[i] = (int16_t)dst;
}

/* op(vA, k) for a constant k on the right (commuted for ADD..XOR):
** identities cost nothing, powers of two become shifts and masks. */
static void binop_k(gen *g, int32_t i, lytK_opcode op, int32_t a, uint32_t k) {
  static const char *const vop2[] = {
    [LYTK_ADD] = "v_add_u32", [LYTK_AND] = "v_and_b32", [LYTK_OR] = "v_or_b32",
    [LYTK_XOR] = "v_xor_b32", [LYTK_SHL] = "v_lshlrev_b32", [LYTK_SHR] = "v_lshrrev_b32"};
  int pow2 = k && !(k & (k - 1)), div = op == LYTK_DIV || op == LYTK_MOD;
  char s[SBUF];
  if ((k == 0 && (op == LYTK_MUL || op == LYTK_AND)) || (k == 1 && op == LYTK_MOD)) {
    setk(g, i, 0);
    return;
  }
  if ((k == 0 && !div) || (k == 1 && (op == LYTK_MUL || op == LYTK_DIV))) {
    alias(g, i, a);
    return;
  }
  if (pow2 && op == LYTK_MUL) { op = LYTK_SHL; k = (uint32_t)log2u(k); }
  if (pow2 && op == LYTK_DIV) { op = LYTK_SHR; k = (uint32_t)log2u(k); }
  if (pow2 && op == LYTK_MOD) { op = LYTK_AND; k -= 1; }
  if (op == LYTK_DIV || op == LYTK_MOD) { divmod(g, i, g->reg[a], k, op == LYTK_MOD); return; }
  int dst = vget(g);
  if (op == LYTK_MUL)
    EMIT(g, "v_mul_lo_u32 v%d, v%d, %s\n", dst, g->reg[a], vop3k(g, s, k));
  else  /* VOP2: src0 may be a literal */
    EMIT(g, "%s v%d, %s, v%d\n", vop2[op], dst, imm(s, k), g->reg[a]);
  g->reg[i] = (int16_t)dst;
}

static void binop(gen *g, int32_t i, const lytK_node *n) {
  static const char *const vv[] = {
    [LYTK_ADD] = "v_add_u32", [LYTK_MUL] = "v_mul_lo_u32", [LYTK_AND] = "v_and_b32",
    [LYTK_OR] = "v_or_b32", [LYTK_XOR] = "v_xor_b32"};
  int32_t a = n->a, b = n->b;
  if (isconst(g, a) && isconst(g, b)) { setk(g, i, (uint32_t)lytK_fold(n->op, g->kv[a], g->kv[b])); return; }
  if (isconst(g, a) && n->op <= LYTK_XOR) { int32_t t = a; a = b; b = t; }  /* commutative */
  if (isconst(g, b)) { binop_k(g, i, n->op, a, g->kv[b]); return; }
  int dst = vget(g);  /* both in VGPRs: only ADD..XOR (SHL..MOD take a CONST) */
  EMIT(g, "%s v%d, v%d, v%d\n", vv[n->op], dst, g->reg[a], g->reg[b]);
  g->reg[i] = (int16_t)dst;
}

/* a >= b as 0 or 1, through VCC (a VOPC takes a literal only as src0). */
static void compare(gen *g, int32_t i, int32_t a, int32_t b) {
  char s[SBUF];
  int dst = vget(g);
  if (isconst(g, b)) EMIT(g, "v_cmp_le_u32 vcc, %s, v%d\n", imm(s, g->kv[b]), g->reg[a]);
  else if (isconst(g, a)) EMIT(g, "v_cmp_ge_u32 vcc, %s, v%d\n", imm(s, g->kv[a]), g->reg[b]);
  else EMIT(g, "v_cmp_ge_u32 vcc, v%d, v%d\n", g->reg[a], g->reg[b]);
  EMIT(g, "v_cndmask_b32_e64 v%d, 0, 1, vcc\n", dst);
  g->reg[i] = (int16_t)dst;
}

static void eval_node(gen *g, int32_t i) {
  const lytK_node *n = &g->p->node[i];
  switch (n->op) {
  case LYTK_TID: g->reg[i] = 0; g->ref[0]++; break;
  case LYTK_CTAID:
    g->reg[i] = (int16_t)vget(g);
    EMIT(g, "v_mov_b32 v%d, s%d\n", g->reg[i], g->t->wgid);
    break;
  case LYTK_CONST: setk(g, i, (uint32_t)n->k); break;
  default:
    if (n->op == LYTK_GE && !(isconst(g, n->a) && isconst(g, n->b))) compare(g, i, n->a, n->b);
    else binop(g, i, n);
    release(g, n->a, i);
    if (n->b != n->a) release(g, n->b, i);
  }
}

/* ---- waits: counters retire in issue order (VM: global loads and stores
** on gfx9; LGKM: LDS only, as the kernarg load is waited for first) ---- */

static void wait_seq(gen *g, int c, int64_t seq) {
  static const char *const name[2] = {"vmcnt", "lgkmcnt"};
  static const int64_t max[2] = {63, 15};  /* 6- and 4-bit fields on gfx9 */
  if (seq < g->done[c]) return;
  int64_t n = g->issued[c] - seq - 1;  /* issued after it: may stay in flight */
  if (n > max[c] - 1) n = max[c] - 1;
  EMIT(g, "s_waitcnt %s(%lld)\n", name[c], (long long)n);
  g->done[c] = g->issued[c] - n;
}

/* Wait for the loads still writing element dwords [d, d+n), except those of
** counter `same` (a full overwrite lands after earlier loads of its counter).
** Partial writes (d16, SDWA) and stores read the dword, so they pass -1. */
static void settle(gen *g, int d, int n, int same) {
  for (int c = 0; c < 2; c++) {
    int64_t m = -1;
    for (int k = d; k < d + n; k++)
      if (g->pend[c][k] > m) m = g->pend[c][k];
    if (c != same && m >= 0) wait_seq(g, c, m);
  }
}

static int64_t issue(gen *g, int c) { return g->issued[c]++; }

/* ---- exec: a predicated op runs where node[pred] == 0 ---- */

static void exec_launch(gen *g) {
  if (g->exec < 0) return;
  EMIT(g, "s_mov_b64 exec, s[14:15]\n");
  g->exec = -1;
}

static void exec_pred(gen *g, int32_t pred) {
  if (pred < 0 || isconst(g, pred)) { exec_launch(g); return; }  /* const 0: always */
  if (g->exec == pred) return;
  exec_launch(g);  /* compare under the launch exec, then narrow it */
  EMIT(g, "v_cmp_eq_u32 vcc, 0, v%d\n", g->reg[pred]);
  EMIT(g, "s_and_saveexec_b64 s[14:15], vcc\n");
  g->exec = pred;
}

/* ---- memory ops ---- */

/* node[a] * elem_bytes, shared by the groups of one address node (the
** swizzles of one base differ by xor_k only): (a ^ x) << sh = (a << sh) ^ (x << sh). */
static int scaled(gen *g, int32_t a) {
  if (g->sh == 0) return g->reg[a];
  if (g->sreg[a] < 0) {
    exec_launch(g);
    g->sreg[a] = (int16_t)vget(g);
    EMIT(g, "v_lshlrev_b32 v%d, %d, v%d\n", g->sreg[a], g->sh, g->reg[a]);
  }
  return g->sreg[a];
}

/* The VGPR with (node[addr] ^ xor_k) * elem_bytes for op j's group, made at
** its first op under the launch exec: later ops may run under other masks. */
static int base(gen *g, int32_t j) {
  const lytK_op *o = &g->p->op[j];
  int32_t a = o->addr;
  uint32_t x = (uint32_t)o->xor_k << g->sh;
  int r = g->gbase[g->grp[j]];
  char s[SBUF];
  if (r >= 0) return r;
  if (isconst(g, a)) {
    exec_launch(g);
    r = vget(g);
    EMIT(g, "v_mov_b32 v%d, %s\n", r, imm(s, (g->kv[a] << g->sh) ^ x));
  } else if (x == 0) {
    r = scaled(g, a);
    g->ref[r]++;
  } else {
    int src = scaled(g, a);
    exec_launch(g);
    r = vget(g);
    EMIT(g, "v_xor_b32 v%d, %s, v%d\n", r, imm(s, x), src);
  }
  g->gbase[g->grp[j]] = (int16_t)r;
  return r;
}

/* Mnemonics by [global?][store?][form]; forms: x4, x2, x1, 16-bit low half,
** 16-bit high half, byte (loads: zero-extended), byte from bits 16..23. */
static const char *const mnem[2][2][7] = {
  {{"ds_read_b128", "ds_read_b64", "ds_read_b32", "ds_read_u16_d16", "ds_read_u16_d16_hi",
    "ds_read_u8", 0},
   {"ds_write_b128", "ds_write_b64", "ds_write_b32", "ds_write_b16", "ds_write_b16_d16_hi",
    "ds_write_b8", "ds_write_b8_d16_hi"}},
  {{"global_load_dwordx4", "global_load_dwordx2", "global_load_dword", "global_load_short_d16",
    "global_load_short_d16_hi", "global_load_ubyte", 0},
   {"global_store_dwordx4", "global_store_dwordx2", "global_store_dword", "global_store_short",
    "global_store_short_d16_hi", "global_store_byte", "global_store_byte_d16_hi"}}};

typedef struct access {
  int glob, store;  /* global memory?, a store? */
  int addr;         /* VGPR with the byte offset */
  int64_t off;      /* the instruction's immediate offset */
  int d, pos;       /* element dword, byte position in it */
  int bytes;        /* vec * elem_bytes */
} access;

/* Print one memory instruction moving the data VGPRs `data`. */
static void mem(gen *g, const access *x, int form, const char *data) {
  char off[SBUF] = "";
  if (x->off) snprintf(off, sizeof off, " offset:%lld", (long long)x->off);
  const char *mn = mnem[x->glob][x->store][form];
  int ptr = x->store ? 10 : 8;
  if (!x->glob && x->store) EMIT(g, "%s v%d, %s%s\n", mn, x->addr, data, off);
  else if (!x->glob) EMIT(g, "%s %s, v%d%s\n", mn, data, x->addr, off);
  else if (x->store) EMIT(g, "%s v%d, %s, s[%d:%d]%s\n", mn, x->addr, data, ptr, ptr + 1, off);
  else EMIT(g, "%s %s, v%d, s[%d:%d]%s\n", mn, data, x->addr, ptr, ptr + 1, off);
}

static int form_of(const access *x) {
  switch (x->bytes) {
  case 16: return 0;
  case 8: return 1;
  case 4: return 2;
  case 2: return x->pos ? 4 : 3;
  default: return x->pos >= 2 ? 6 : 5;
  }
}

static void load(gen *g, const access *x) {
  int c = x->glob ? VM : LGKM, n = x->bytes < 4 ? 1 : x->bytes / 4, v = EBASE + x->d;
  char s[SBUF];
  if (x->bytes == 1) {  /* d16 bytes would clear their neighbour: go through SDWA */
    int tmp = vget(g);
    mem(g, x, 5, vr(s, tmp, 1));
    wait_seq(g, c, issue(g, c));
    settle(g, x->d, 1, -1);
    EMIT(g, "v_mov_b32_sdwa v%d, v%d dst_sel:BYTE_%d dst_unused:UNUSED_PRESERVE "
         "src0_sel:DWORD\n", v, tmp, x->pos);
    EMIT(g, "s_nop 0\n");  /* gfx942: a VALU reading an SDWA result waits 1 */
    vput(g, tmp);
    return;
  }
  settle(g, x->d, n, x->bytes >= 4 ? c : -1);
  mem(g, x, form_of(x), vr(s, v, n));
  int64_t seq = issue(g, c);
  for (int k = x->d; k < x->d + n; k++) g->pend[c][k] = seq;
}

static void store(gen *g, const access *x) {
  int n = x->bytes < 4 ? 1 : x->bytes / 4, v = EBASE + x->d, tmp = -1;
  char s[SBUF];
  settle(g, x->d, n, -1);
  if (x->bytes == 1 && (x->pos & 1)) {  /* bytes 1 and 3: shift them down to 0 and 2 */
    tmp = vget(g);
    EMIT(g, "v_lshrrev_b32 v%d, 8, v%d\n", tmp, v);
    v = tmp;
  }
  mem(g, x, form_of(x), vr(s, v, n));
  issue(g, x->glob ? VM : LGKM);
  /* The data VGPRs of a store of more than 8 bytes are read late: a VALU
  ** may not overwrite them for 1 (gfx90a) or 2 (gfx942) wait states. */
  if (x->glob && x->bytes > 8) EMIT(g, "s_nop 1\n");
  vput(g, tmp);
}

/* LDS writes and reads must have finished before other waves go on; a
** warp's barrier (its exchange stays within a 32-lane warp, so within a
** wave) needs only the wait. */
static void barrier(gen *g, int warp) {
  if (g->done[LGKM] < g->issued[LGKM]) wait_seq(g, LGKM, g->issued[LGKM] - 1);
  if (!warp) EMIT(g, "s_barrier\n");
}

/* ---- register ops: element r sits at byte r*eb of the element dwords;
** SDWA moves a byte or a 16-bit word between places in them ---- */

/* The SDWA selector of an element at byte pos of its dword. */
static const char *sel(char s[SBUF], int eb, int pos) {
  if (eb >= 4) return "DWORD";
  snprintf(s, SBUF, eb == 2 ? "WORD_%d" : "BYTE_%d", eb == 2 ? pos / 2 : pos);
  return s;
}

/* Element dwords of register r, and how many an element spans. */
static int edword(const gen *g, int32_t r) { return (int)((int64_t)r * g->p->elem_bytes / 4); }
static int espan(const gen *g) { return g->p->elem_bytes > 4 ? g->p->elem_bytes / 4 : 1; }

/* Element dst <- the element at byte pos of VGPR v (sub-dword elements). */
static void sdwa_put(gen *g, int32_t dst, int v, int pos) {
  char a[SBUF], b[SBUF];
  int eb = g->p->elem_bytes;
  EMIT(g, "v_mov_b32_sdwa v%d, v%d dst_sel:%s dst_unused:UNUSED_PRESERVE src0_sel:%s\n",
       EBASE + edword(g, dst), v, sel(a, eb, (int)((int64_t)dst * eb % 4)), sel(b, eb, pos));
  EMIT(g, "s_nop 0\n");  /* gfx942: a VALU reading an SDWA result waits 1 */
}

static void move(gen *g, const lytK_op *o) {
  int eb = g->p->elem_bytes, n = espan(g), d = edword(g, o->reg), sd = edword(g, o->src);
  settle(g, d, n, -1);
  settle(g, sd, n, -1);
  exec_pred(g, o->pred);
  if (eb < 4) { sdwa_put(g, o->reg, EBASE + sd, (int)((int64_t)o->src * eb % 4)); return; }
  for (int k = 0; k < n; k++) EMIT(g, "v_mov_b32 v%d, v%d\n", EBASE + d + k, EBASE + sd + k);
}

/* ds_bpermute reads the dword of lane addr/4 of the wave: whole dwords
** go straight to the element's place and are waited for like an LDS load;
** narrower elements go alone through a temporary. */
static void shuffle(gen *g, const lytK_op *o) {
  int eb = g->p->elem_bytes, n = espan(g), d = edword(g, o->reg), sd = edword(g, o->src);
  int a = vget(g);
  exec_launch(g);
  if (isconst(g, o->addr)) EMIT(g, "v_mov_b32 v%d, 0x%x\n", a, (unsigned)((g->kv[o->addr] & 63) << 2));
  else {
    EMIT(g, "v_and_b32 v%d, 63, v%d\n", a, g->reg[o->addr]);
    EMIT(g, "v_lshlrev_b32 v%d, 2, v%d\n", a, a);
  }
  settle(g, sd, n, -1);
  if (eb >= 4) {
    settle(g, d, n, LGKM);
    for (int k = 0; k < n; k++) {
      EMIT(g, "ds_bpermute_b32 v%d, v%d, v%d\n", EBASE + d + k, a, EBASE + sd + k);
      g->pend[LGKM][d + k] = issue(g, LGKM);
    }
  } else {
    int t = vget(g), pos = (int)((int64_t)o->src * eb % 4);
    EMIT(g, "v_bfe_u32 v%d, v%d, %d, %d\n", t, EBASE + sd, 8 * pos, 8 * eb);
    EMIT(g, "ds_bpermute_b32 v%d, v%d, v%d\n", t, a, t);
    wait_seq(g, LGKM, issue(g, LGKM));
    settle(g, d, 1, -1);
    sdwa_put(g, o->reg, t, 0);
    vput(g, t);
  }
  vput(g, a);
}

/* x ^= key on vec elements: the key's low element bits, repeated across a
** dword for narrow elements, masked where the range starts or ends inside
** a dword; 64-bit elements take it in their low dword. */
static void xor_key(gen *g, const lytK_op *o) {
  int eb = g->p->elem_bytes, k = vget(g), t = vget(g);
  uint32_t rep = eb == 1 ? 0x01010101u : eb == 2 ? 0x10001u : 1u, low = eb == 1 ? 0xffu : eb == 2 ? 0xffffu : ~0u;
  char s[SBUF];
  exec_launch(g);
  if (isconst(g, o->addr)) EMIT(g, "v_mov_b32 v%d, 0x%x\n", k, (unsigned)((g->kv[o->addr] & low) * rep));
  else {
    EMIT(g, "v_and_b32 v%d, 0x%x, v%d\n", k, (unsigned)low, g->reg[o->addr]);
    if (rep != 1) EMIT(g, "v_mul_lo_u32 v%d, v%d, %s\n", k, k, vop3k(g, s, rep));
  }
  int64_t lo = (int64_t)o->reg * eb, hi = ((int64_t)o->reg + o->vec) * eb;  /* bytes */
  for (int64_t d = lo / 4; d * 4 < hi; d++) {
    if (eb == 8 && (d & 1)) continue;
    int64_t b0 = d * 4 > lo ? 0 : lo - d * 4, b1 = (d + 1) * 4 < hi ? 4 : hi - d * 4;
    uint32_t mask = (uint32_t)(((UINT64_C(1) << (8 * b1)) - 1) & ~((UINT64_C(1) << (8 * b0)) - 1));
    settle(g, (int)d, 1, -1);
    if (mask != ~0u) EMIT(g, "v_and_b32 v%d, 0x%x, v%d\n", t, (unsigned)mask, k);
    EMIT(g, "v_xor_b32 v%d, v%d, v%d\n", EBASE + (int)d, mask != ~0u ? t : k, EBASE + (int)d);
  }
  vput(g, k), vput(g, t);
}

/* Both ways into a loop's first op find the same state: the launch exec
** and nothing in flight. s13 counts the trips. */
static void loop(gen *g, int32_t j) {
  const lytK_op *o = &g->p->op[j];
  exec_launch(g);
  for (int c = 0; c < 2; c++)
    if (g->done[c] < g->issued[c]) wait_seq(g, c, g->issued[c] - 1);
  if (o->kind == LYTK_LOOP) {
    EMIT(g, "s_mov_b32 s13, %d\n", (int)o->vec);
    lytS_buf_printf(g->b, ".L%s_loop%d:\n", g->p->name, (int)j);
    g->loop = j;
    return;
  }
  EMIT(g, "s_sub_u32 s13, s13, 1\n  s_cmp_lg_u32 s13, 0\n");
  EMIT(g, "s_cbranch_scc1 .L%s_loop%d\n", g->p->name, (int)g->loop);
}

static void emit_op(gen *g, int32_t j) {
  const lytK_op *o = &g->p->op[j];
  int eb = g->p->elem_bytes;
  if (o->kind == LYTK_BAR) { barrier(g, o->vec); return; }
  if (o->kind == LYTK_LOOP || o->kind == LYTK_END) { loop(g, j); return; }
  if (o->kind == LYTK_MOV) { move(g, o); return; }
  if (o->kind == LYTK_SHFL) { shuffle(g, o); return; }
  if (o->kind == LYTK_XORK) { xor_key(g, o); return; }
  if (g->grp[j] < 0) return;
  /* The base first: later ops of the group need it even if this one never runs. */
  access x = {o->kind == LYTK_LDG || o->kind == LYTK_STG,
              o->kind == LYTK_STG || o->kind == LYTK_STS, base(g, j), o->add_k * eb, (int)((int64_t)o->reg * eb / 4),
              (int)((int64_t)o->reg * eb % 4), o->vec * eb};
  if (o->pred >= 0 && isconst(g, o->pred) && g->kv[o->pred]) return;
  exec_pred(g, o->pred);
  int tmp = -1;
  /* GLOBAL offsets are 13-bit signed, DS offsets 16-bit unsigned. */
  int64_t last = x.off + (o->rstep == 1 ? 0 : (int64_t)(o->vec - 1) * eb);  /* split: see below */
  if (x.glob ? (x.off < -4096 || last > 4095) : (x.off < 0 || last > 65535)) {
    char s[SBUF];
    tmp = vget(g);
    EMIT(g, "v_add_u32 v%d, %s, v%d\n", tmp, imm(s, (uint32_t)x.off), x.addr);
    x.addr = tmp;
    x.off = 0;
  }
  /* Registers rstep apart are not one VGPR range: the vector goes one
  ** element at a time, to the same consecutive addresses. */
  for (int32_t i = 0, n = o->rstep == 1 ? 1 : o->vec; i < n; i++) {
    access e = x;
    if (n > 1) {
      int64_t at = ((int64_t)o->reg + (int64_t)i * o->rstep) * eb;
      e.off += (int64_t)i * eb, e.d = (int)(at / 4), e.pos = (int)(at % 4), e.bytes = eb;
    }
    if (e.store) store(g, &e);
    else load(g, &e);
  }
  vput(g, tmp);
}

/* ---- one kernel ---- */

#define ARR(g, f, n) ((g)->f = lytS_alloc((g)->cx, sizeof *(g)->f * (size_t)(n)))

static void plan(gen *g) {
  const lytK_program *p = g->p;
  g->edw = (int)(((int64_t)p->nregs * p->elem_bytes + 3) / 4);
  g->sh = log2u((uint32_t)p->elem_bytes);
  ARR(g, last, p->nnodes + 1), ARR(g, reg, p->nnodes + 1), ARR(g, kv, p->nnodes + 1);
  ARR(g, sreg, p->nnodes + 1);
  for (int32_t i = 0; i < p->nnodes; i++) g->sreg[i] = -1;
  ARR(g, grp, p->nops + 1), ARR(g, gfirst, p->nops + 1), ARR(g, glast, p->nops + 1);
  ARR(g, gbase, p->nops + 1), ARR(g, region, p->nops + 1), ARR(g, end, p->nops + 1);
  for (int32_t j = 0, r = 0, open = -1; j < p->nops; j++) {
    r += p->op[j].kind == LYTK_LOOP || p->op[j].kind == LYTK_END;
    g->region[j] = r, g->end[j] = -1;
    if (p->op[j].kind == LYTK_LOOP) open = j;
    if (p->op[j].kind == LYTK_END) {
      for (int32_t i = open; i <= j; i++) g->end[i] = j;
      open = -1;
    }
  }
  for (int c = 0; c < 2; c++) {
    ARR(g, pend[c], g->edw + 1);
    for (int k = 0; k <= g->edw; k++) g->pend[c][k] = -1;
  }
  g->ref[0] = 1;  /* v0: TID */
  memset(g->ref + EBASE, 1, (size_t)g->edw);
  g->top = EBASE + g->edw;
  g->exec = -1;
  group_ops(g);
  liveness(g);
}

static void body(gen *g) {
  const lytK_program *p = g->p;
  EMIT(g, "s_load_dwordx4 s[8:11], s[%d:%d], 0x0\n", g->t->karg, g->t->karg + 1);
  for (int32_t i = 0; i < p->nnodes; i++)
    if (g->last[i] >= 0) eval_node(g, i);
  EMIT(g, "s_waitcnt lgkmcnt(0)\n");  /* the pointers; SMEM returns out of order */
  for (int32_t j = 0; j < p->nops; j++) {
    emit_op(g, j);
    if (p->op[j].kind == LYTK_END) {  /* what the loop read may go now */
      for (int32_t i = 0; i < p->nnodes; i++) release(g, i, p->nnodes + j);
      continue;
    }
    if (p->op[j].kind >= LYTK_MOV) {
      if (p->op[j].kind == LYTK_SHFL || p->op[j].kind == LYTK_XORK) release(g, p->op[j].addr, p->nnodes + j);
      if (p->op[j].pred != p->op[j].addr) release(g, p->op[j].pred, p->nnodes + j);
      continue;
    }
    if (g->grp[j] < 0) continue;
    int32_t t = p->nnodes + j, a = g->gfirst[g->grp[j]] == j ? p->op[j].addr : -1;
    release(g, a, t);
    if (p->op[j].pred != a) release(g, p->op[j].pred, t);
    if (g->glast[g->grp[j]] == j) vput(g, g->gbase[g->grp[j]]);
  }
  EMIT(g, "s_endpgm\n");
}

static void descriptor(gen *g) {
  const lytK_program *p = g->p;
  lytS_buf_printf(g->b, "\n  .rodata\n  .p2align 6\n  .amdhsa_kernel %s\n", p->name);
  EMIT(g, "  .amdhsa_group_segment_fixed_size %d\n", p->smem_bytes);
  EMIT(g, "  .amdhsa_private_segment_fixed_size 0\n    .amdhsa_kernarg_size 16\n");
  if (g->t->privbuf) EMIT(g, "  .amdhsa_user_sgpr_private_segment_buffer 1\n");
  EMIT(g, "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n");
  EMIT(g, "  .amdhsa_system_sgpr_workgroup_id_x 1\n    .amdhsa_system_vgpr_workitem_id 0\n");
  EMIT(g, "  .amdhsa_next_free_vgpr %d\n    .amdhsa_next_free_sgpr %d\n", g->top, NSGPR);
  /* The unified register file puts AGPRs after accum_offset (a multiple of 4). */
  EMIT(g, "  .amdhsa_accum_offset %d\n.end_amdhsa_kernel\n\n", (g->top + 3) / 4 * 4);
}

static void kernel(gen *g, int idx) {
  const lytK_program *p = g->p;
  const char *nm = p->name;
  check(g);
  plan(g);
  lytS_buf_printf(g->b, "\n  .text\n  .globl %s\n  .p2align 8\n  .type %s,@function\n%s:\n", nm,
                  nm, nm);
  EMIT(g, "; %d blocks x %d threads, %d %s registers, %d LDS bytes\n", p->blocks, p->threads,
       p->nregs, p->elem, p->smem_bytes);
  body(g);
  lytS_buf_printf(g->b, ".Lfunc_end%d:\n  .size %s, .Lfunc_end%d-%s\n", idx, nm, idx, nm);
  descriptor(g);
}

static void metadata(lytS_buf *b, const target *t, const lytK_program *const *progs, int32_t n,
                     const int *nv) {
  lytS_buf_printf(b, "  .amdgpu_metadata\n---\namdhsa.kernels:%s\n", n ? "" : " []");
  for (int32_t i = 0; i < n; i++) {
    const lytK_program *p = progs[i];
    /* !str: a kernel named n or null stays a string (quotes would not).
    ** sgpr_count adds what the descriptor reserves: VCC, FLAT_SCRATCH, XNACK_MASK. */
    lytS_buf_printf(b, "  - .name: !str %s\n    .symbol: !str %s.kd\n    .kernarg_segment_size: 16\n"
                    "    .kernarg_segment_align: 8\n    .group_segment_fixed_size: %d\n"
                    "    .private_segment_fixed_size: 0\n    .wavefront_size: 64\n"
                    "    .sgpr_count: %d\n    .vgpr_count: %d\n"
                    "    .max_flat_workgroup_size: %d\n    .reqd_workgroup_size: [ %d, 1, 1 ]\n",
                    p->name, p->name, p->smem_bytes, NSGPR + 6, nv[i], p->threads, p->threads);
    /* Argument names are not n/y/...: YAML reads a bare n as a boolean. */
    lytS_buf_puts(b, "    .args:\n"
                  "      - { .name: in_ptr, .size: 8, .offset: 0, .value_kind: global_buffer, "
                  ".address_space: global }\n"
                  "      - { .name: out_ptr, .size: 8, .offset: 8, .value_kind: global_buffer, "
                  ".address_space: global }\n");
  }
  lytS_buf_printf(b, "amdhsa.target: amdgcn-amd-amdhsa--%s\namdhsa.version: %s\n...\n"
                  "  .end_amdgpu_metadata\n", t->name, t->mdver);
}

static const target *find_target(lytS_ctx *cx, const char *name) {
  if (!name) return &targets[0];
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
    if (strcmp(targets[i].name, name) == 0) return &targets[i];
  lytS_fail(cx, LYT_ERRRUN, "amdgcn: unknown target '%s' (gfx942 or gfx90a)", name);
}

/* The module is built aside and appended whole, so a failure leaves b as it was. */
static void emit(lytS_ctx *cx, lytS_buf *b, const lytK_program *const *progs, int32_t n,
                 const char *target_name) {
  const target *t = find_target(cx, target_name);
  lytS_buf out;
  if (n < 0) lytS_fail(cx, LYT_ERRRUN, "amdgcn: negative program count");
  lytS_buf_init(&out, cx);
  int *nv = lytS_alloc(cx, sizeof *nv * (size_t)(n + 1));
  lytS_buf_printf(&out, "; lyt amdgcn module: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=%s\n",
                  t->name);
  if (t->cov) lytS_buf_printf(&out, "  .amdhsa_code_object_version %d\n", t->cov);
  lytS_buf_printf(&out, "  .amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", t->name);
  for (int32_t i = 0; i < n; i++) {
    for (int32_t j = 0; j < i; j++)
      if (progs[j]->name && progs[i]->name && strcmp(progs[j]->name, progs[i]->name) == 0)
        lytS_fail(cx, LYT_ERRRUN, "amdgcn: two kernels named '%s'", progs[i]->name);
    gen g = {.cx = cx, .b = &out, .p = lytK_expand_ops(cx, progs[i], 0), .t = t};  /* no ldmatrix */
    kernel(&g, i);
    nv[i] = g.top;
  }
  metadata(&out, t, progs, n, nv);
  lytS_buf_add(b, out.p, out.n);
}

const lytK_backend lytK_backend_amdgcn = {"amdgcn", "gfx942 gfx90a", emit};
