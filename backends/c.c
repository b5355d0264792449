/*
** c.c: the C backend. One function per program, `void NAME(const void
** *in, void *out)`, that simulates the blocks and threads: the ops
** between two barriers run as one loop over the threads (exact for
** barrier-synchronized code: no thread reads what another writes in the
** same phase). A run of shuffles is a phase of its own, so every thread
** has made the values it sends before any reads them, and reads them
** before it makes the next. Registers live in a heap array, vector accesses are
** memcpy, and an assert models the GPU's alignment fault. A table
** `lyt_kernels` lists the functions for test harnesses. The L2 hints of a
** program have no cache to steer here and are left out.
*/
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"

static void node_expr(lytS_buf *b, const lytK_program *P, int32_t i) {
  const lytK_node *n = &P->node[i];
  lytS_buf_printf(b, "    const uint32_t n%d = ", (int)i);
  if (n->op == LYTK_TID) lytS_buf_puts(b, "tid");
  else if (n->op == LYTK_CTAID) lytS_buf_puts(b, "cta");
  else if (n->op == LYTK_CONST) lytS_buf_printf(b, "%lldu", (long long)n->k);
  else lytS_buf_printf(b, "n%d %s n%d", (int)n->a, lytK_opsym(n->op), (int)n->b);
  lytS_buf_printf(b, "; (void)n%d;\n", (int)i);
}

static void access(lytS_buf *b, const lytK_program *P, const lytK_op *o) {
  int eb = P->elem_bytes, bytes = o->vec * eb, load = o->kind == LYTK_LDG || o->kind == LYTK_LDS;
  const char *mem = o->kind == LYTK_LDG ? "in" : o->kind == LYTK_STG ? "out" : "smem";
  lytS_buf_printf(b, "    { %sunsigned char *a = %s + (size_t)((n%d ^ %lldu) + %lldu) * %d;\n",
                  load ? "const " : "", mem, (int)o->addr, (long long)o->xor_k,
                  (long long)o->add_k, eb);
  lytS_buf_printf(b, "      unsigned char *r = reg + ((size_t)tid * %d + %d) * %d;\n",
                  (int)P->nregs, (int)o->reg, eb);
  lytS_buf_printf(b, "      assert((uintptr_t)a %% %d == 0);\n", bytes);
  if (o->rstep == 1) {
    lytS_buf_printf(b, "      memcpy(%s, %d); }\n", load ? "r, a" : "a, r", bytes);
    return;
  }
  for (int32_t i = 0; i < o->vec; i++) {  /* registers apart: one element at a time */
    int32_t d = (lytK_elem_reg(o, i) - o->reg) * eb;
    lytS_buf_printf(b, "      memcpy(%s + %d, %s + %d, %d);\n", load ? "r" : "a", load ? d : i * eb,
                    load ? "a" : "r", load ? i * eb : d, eb);
  }
  lytS_buf_puts(b, "    }\n");
}

/* The register ops: a move within the thread, from another thread, or
** every byte of vec registers XORed with the key's byte at its place. */
static void reg_op(lytS_buf *b, const lytK_program *P, const lytK_op *o) {
  int eb = P->elem_bytes;
  lytS_buf_printf(b, "    { unsigned char *r = reg + ((size_t)tid * %d + %d) * %d;\n", (int)P->nregs,
                  (int)o->reg, eb);
  if (o->kind == LYTK_XORK) {
    lytS_buf_printf(b, "      for (int i = 0; i < %d; i++) r[i] ^= (unsigned char)(i %% %d < 4 ? "
                    "n%d >> 8 * (i %% %d) & 255u : 0u); }\n", (int)o->vec * eb, eb, (int)o->addr, eb);
    return;
  }
  char who[16] = "tid";  /* a shuffle reads thread node[addr] */
  if (o->kind == LYTK_SHFL) snprintf(who, sizeof who, "n%d", (int)o->addr);
  lytS_buf_printf(b, "      memmove(r, reg + ((size_t)%s * %d + %d) * %d, %d); }\n", who,
                  (int)P->nregs, (int)o->src, eb, eb);
}

static void phase_open(lytS_buf *b, const lytK_program *P, uint8_t *m);

/* ldmatrix/stmatrix as the hardware does them: a phase in which every
** thread gives its row's offset (aux[tid]), then one in which each thread
** moves its elements at the rows the threads of its warp gave. */
static void matrix_op(lytS_buf *b, const lytK_program *P, const lytK_op *o, uint8_t *m) {
  int eb = P->elem_bytes, load = o->kind == LYTK_LDSM;
  lytS_buf_printf(b, "    aux[tid] = (n%d ^ %lldu) + %lldu;\n  }\n", (int)o->addr, (long long)o->xor_k,
                  (long long)o->add_k);
  memset(m, 0, (size_t)P->nnodes);
  if (o->pred >= 0) m[o->pred] = 1;
  phase_open(b, P, m);
  if (o->pred >= 0) lytS_buf_printf(b, "    if (n%d == 0)\n", (int)o->pred);
  int per = o->rbit[0] ? 2 : 1;  /* elements of a word */
  lytS_buf_printf(b, "    for (uint32_t k = 0; k < %du; k++) {\n", (int)lytK_matrix_elems(o));
  lytS_buf_printf(b, "      uint32_t i = k / %du, h = k %% %du, l = tid & 31u;\n", per, per);
  if (o->trans)
    lytS_buf_puts(b, "      uint32_t at = aux[(tid & ~31u) | (i * 8u + 2u * (l & 3u) + h)] + (l >> 2);\n");
  else
    lytS_buf_printf(b, "      uint32_t at = aux[(tid & ~31u) | (i * 8u + (l >> 2))] + %du * (l & 3u) + h;\n", per);
  lytS_buf_printf(b, "      uint32_t r = %du ^ (h ? %du : 0u) ^ (i & 1u ? %du : 0u) ^ (i & 2u ? %du : 0u);\n",
                  (int)o->reg, (int)o->rbit[0], (int)o->rbit[1], (int)o->rbit[2]);
  lytS_buf_printf(b, "      unsigned char *e = reg + ((size_t)tid * %d + r) * %d, *m = smem + (size_t)at * %d;\n",
                  (int)P->nregs, eb, eb);
  lytS_buf_printf(b, "      memcpy(%s, %d);\n    }\n  }\n", load ? "e, m" : "m, e", eb);
}

/* Does op i start a phase of its own: a barrier, a loop's ends, a matrix
** op, the first or the last of a run of shuffles? */
static int boundary(const lytK_program *P, int32_t i) {
  const lytK_op *o = &P->op[i];
  int shfl = o->kind == LYTK_SHFL, was = i > 0 && P->op[i - 1].kind == LYTK_SHFL;
  return o->kind == LYTK_BAR || o->kind == LYTK_LOOP || o->kind == LYTK_END ||
         o->kind == LYTK_LDSM || o->kind == LYTK_STSM || shfl != was;
}

/* Marks in m the nodes the ops of the phase from op i on read. */
static void phase_nodes(const lytK_program *P, int32_t i, uint8_t *m) {
  memset(m, 0, (size_t)P->nnodes);
  for (int32_t j = i; j < P->nops && (j == i || !boundary(P, j)); j++) {
    const lytK_op *o = &P->op[j];
    if (o->kind == LYTK_BAR || o->kind == LYTK_LOOP || o->kind == LYTK_END || o->kind == LYTK_LDSM ||
        o->kind == LYTK_STSM)
      break;
    if (o->kind != LYTK_MOV && o->addr >= 0) m[o->addr] = 1;
    if (o->pred >= 0) m[o->pred] = 1;
  }
}

/* A loop over the threads, with the nodes marked in m and those they read
** (only these: a phase may be one of hundreds). */
static void phase_open(lytS_buf *b, const lytK_program *P, uint8_t *m) {
  for (int32_t i = P->nnodes - 1; i >= 0; i--)
    if (m[i] && P->node[i].op >= LYTK_ADD) m[P->node[i].a] = m[P->node[i].b] = 1;
  lytS_buf_printf(b, "  for (uint32_t tid = 0; tid < %du; tid++) {\n", (int)P->threads);
  for (int32_t i = 0; i < P->nnodes; i++)
    if (m[i]) node_expr(b, P, i);
}

static void emit_one(lytS_ctx *cx, lytS_buf *b, const lytK_program *P) {
  lytS_buf_printf(b, "\n/* %s: %d blocks of %d threads, %d %s registers each, %d bytes of "
                  "shared memory */\n", P->name, (int)P->blocks, (int)P->threads, (int)P->nregs,
                  P->elem, (int)P->smem_bytes);
  lytS_buf_printf(b, "static void %s_block(const unsigned char *in, unsigned char *out, "
                  "unsigned char *smem, unsigned char *reg, uint32_t *aux, uint32_t cta) {\n", P->name);
  lytS_buf_puts(b, "  (void)in, (void)out, (void)smem, (void)aux, (void)cta;\n");
  uint8_t *m = lytS_alloc(cx, (size_t)P->nnodes + 1);
  phase_nodes(P, 0, m);
  phase_open(b, P, m);
  for (int32_t i = 0; i < P->nops; i++) {
    const lytK_op *o = &P->op[i];
    if (o->kind == LYTK_LDSM || o->kind == LYTK_STSM) {  /* phases of their own */
      lytS_buf_puts(b, "  }\n");
      memset(m, 0, (size_t)P->nnodes);
      m[o->addr] = 1;
      phase_open(b, P, m);
      matrix_op(b, P, o, m);
      phase_nodes(P, i + 1, m);
      phase_open(b, P, m);
      continue;
    }
    if (i > 0 && boundary(P, i)) {
      lytS_buf_puts(b, "  }\n");  /* a phase ends at a barrier, a loop's ends and shuffles' */
      if (o->kind == LYTK_LOOP) lytS_buf_printf(b, "  for (int it = 0; it < %d; it++) {\n", (int)o->vec);
      if (o->kind == LYTK_END) lytS_buf_puts(b, "  }\n");
      int own = o->kind == LYTK_BAR || o->kind == LYTK_LOOP || o->kind == LYTK_END;
      phase_nodes(P, i + own, m);
      phase_open(b, P, m);
      if (own) continue;
    }
    if (o->pred >= 0) lytS_buf_printf(b, "    if (n%d == 0)\n", (int)o->pred);
    if (o->kind >= LYTK_MOV && o->kind <= LYTK_XORK) reg_op(b, P, o);
    else access(b, P, o);
  }
  lytS_buf_puts(b, "  }\n}\n\n");
  lytS_buf_printf(b, "void %s(const void *in, void *out);\n", P->name);
  lytS_buf_printf(b, "void %s(const void *in, void *out) {\n", P->name);
  lytS_buf_printf(b, "  _Alignas(16) unsigned char smem[%d];\n", P->smem_bytes ? P->smem_bytes : 16);
  lytS_buf_printf(b, "  unsigned char *reg = calloc((size_t)%d * %d, %d);\n", (int)P->threads,
                  (int)P->nregs, (int)P->elem_bytes);
  lytS_buf_printf(b, "  uint32_t *aux = calloc(%d, sizeof *aux);\n", (int)P->threads);
  lytS_buf_puts(b, "  if (!reg || !aux) abort();\n");
  lytS_buf_printf(b, "  for (uint32_t cta = 0; cta < %du; cta++)\n", (int)P->blocks);
  lytS_buf_printf(b, "    %s_block(in, out, smem, reg, aux, cta);\n", P->name);
  lytS_buf_puts(b, "  free(reg);\n  free(aux);\n}\n");
}

static void emit(lytS_ctx *cx, lytS_buf *b, const lytK_program *const *progs, int32_t n,
                 const char *target) {
  (void)target;
  lytS_buf_puts(b, "/* Generated by lyt: portable C for the kernels' memory operations. */\n"
                   "#include <assert.h>\n#include <stdint.h>\n#include <stdlib.h>\n"
                   "#include <string.h>\n");
  for (int32_t i = 0; i < n; i++) emit_one(cx, b, progs[i]);
  lytS_buf_puts(b, "\nstruct lyt_kernel { const char *name; void (*fn)(const void *, void *); };\n"
                   "const struct lyt_kernel lyt_kernels[] = {\n");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(b, "  { \"%s\", %s },\n", progs[i]->name, progs[i]->name);
  lytS_buf_puts(b, "  { 0, 0 },\n};\n");
}

const lytK_backend lytK_backend_c = { "c", "c11", emit };
