/*
** backends/program_text.c: a memory-operation program as text, for people and
** golden tests: the nodes as assignments, then one line per op.
*/
#include "backends/kernel.h"

/* Constants print inline: `n7 = n5 >> 2`. */
static void operand(lytS_buf *b, const lytK_program *P, int32_t i) {
  if (P->node[i].op == LYTK_CONST) lytS_buf_printf(b, "%lld", (long long)P->node[i].k);
  else lytS_buf_printf(b, "n%d", (int)i);
}

static void node(lytS_buf *b, const lytK_program *P, int32_t i) {
  const lytK_node *n = &P->node[i];
  if (n->op == LYTK_CONST) return;
  lytS_buf_printf(b, "  n%d = ", (int)i);
  if (n->op == LYTK_TID) lytS_buf_puts(b, "tid");
  else if (n->op == LYTK_CTAID) lytS_buf_puts(b, "ctaid");
  else {
    operand(b, P, n->a);
    lytS_buf_printf(b, " %s ", lytK_opsym(n->op));
    operand(b, P, n->b);
  }
  lytS_buf_puts(b, "\n");
}

/* " [n3 ^ 64 + 8] if n5 == 0" and the line's end: an access's address
** and predicate. */
static void where(lytS_buf *b, const lytK_program *P, const lytK_op *o, int address) {
  if (address) {
    lytS_buf_puts(b, " [");
    operand(b, P, o->addr);
    if (o->xor_k) lytS_buf_printf(b, " ^ %lld", (long long)o->xor_k);
    if (o->add_k) lytS_buf_printf(b, " + %lld", (long long)o->add_k);
    lytS_buf_puts(b, "]");
  }
  if (o->pred >= 0) lytS_buf_printf(b, " if n%d == 0", (int)o->pred);
  lytS_buf_puts(b, "\n");
}

/* One op: what it moves (registers, then where). */
static void op_text(lytS_buf *b, const lytK_program *P, const lytK_op *o) {
  static const char *const kind[] = { "ld.global", "st.global", "ld.shared", "st.shared", "barrier",
                                      "mov", "shfl", "xor", "loop", "end", "ldmatrix",
                                      "stmatrix" };
  lytS_buf_printf(b, "  %s", kind[o->kind]);
  switch (o->kind) {
  case LYTK_BAR: case LYTK_END: lytS_buf_puts(b, o->vec ? " warp\n" : "\n"); return;
  case LYTK_LOOP: lytS_buf_printf(b, " %d times\n", (int)o->vec); return;
  case LYTK_XORK:
    lytS_buf_printf(b, " r%d..r%d ^= ", (int)o->reg, (int)(o->reg + o->vec - 1));
    operand(b, P, o->addr);
    lytS_buf_puts(b, "\n");
    return;
  case LYTK_MOV: case LYTK_SHFL:
    lytS_buf_printf(b, " r%d <- r%d", (int)o->reg, (int)o->src);
    if (o->kind == LYTK_SHFL) {
      lytS_buf_puts(b, " of thread ");
      operand(b, P, o->addr);
    }
    where(b, P, o, 0);
    return;
  case LYTK_LDSM: case LYTK_STSM:
    lytS_buf_printf(b, ".x%d%s", (int)o->vec, o->trans ? ".trans" : "");
    for (int32_t e = 0; e < lytK_matrix_elems(o); e++)
      lytS_buf_printf(b, "%sr%d", e ? "," : " ", (int)lytK_matrix_elem(o, e).reg);
    where(b, P, o, 1);
    return;
  default:
    lytS_buf_printf(b, ".v%d r%d", (int)o->vec, (int)o->reg);
    for (int32_t e = 1; o->rstep != 1 && e < o->vec; e++)
      lytS_buf_printf(b, ",r%d", (int)lytK_elem_reg(o, e));
    where(b, P, o, 1);
  }
}

void lytK_print_program(lytS_buf *b, const lytK_program *P) {
  lytS_buf_printf(b, "%s: %s, %d blocks x %d threads, %d registers, %d bytes shared", P->name,
                  P->elem, (int)P->blocks, (int)P->threads, (int)P->nregs, (int)P->smem_bytes);
  if (P->l2_load) lytS_buf_printf(b, ", loads L2::%s", lytK_l2_name(P->l2_load));
  if (P->l2_store) lytS_buf_printf(b, ", stores L2::%s", lytK_l2_name(P->l2_store));
  lytS_buf_puts(b, "\n");
  if (P->mechanism)
    lytS_buf_printf(b, "  conversion: %s%s%s, %d time%s", P->mechanism,
                    P->mechanism_back ? " there, back by " : "", P->mechanism_back ? P->mechanism_back : "",
                    (int)P->conversions, P->conversions == 1 ? "" : "s");
  if (P->mechanism && P->rounds > 1) lytS_buf_printf(b, ", staged in %d rounds", (int)P->rounds);
  if (P->mechanism && P->buffers > 1) lytS_buf_printf(b, ", %d scratch buffers", (int)P->buffers);
  if (P->mechanism) lytS_buf_puts(b, "\n");
  for (int32_t i = 0; i < P->nnodes; i++) node(b, P, i);
  for (int32_t i = 0; i < P->nops; i++) op_text(b, P, &P->op[i]);
}
