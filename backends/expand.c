/*
** backends/expand.c: ops a target lacks, as the plain accesses they amount
** to: ldmatrix/stmatrix as 16-bit shared accesses (AMDGCN; stmatrix before
** sm_90), vectors of registers in any order (rstep 0) as one access per
** element (AMDGCN, whose vectors are VGPR ranges). The data ends up where
** the original op puts it.
*/
#include "backends/backend.h"

/* Does the target lack op o? */
static int lacks(const lytK_op *o, int only_stmatrix) {
  if (o->kind == LYTK_STSM) return 1;
  return !only_stmatrix && (o->kind == LYTK_LDSM || (o->kind <= LYTK_STS && o->rstep == 0));
}

/* The plain accesses op o becomes. */
static int32_t parts(const lytK_op *o) {
  return o->kind == LYTK_LDSM || o->kind == LYTK_STSM ? lytK_matrix_elems(o) : o->vec;
}

const lytK_program *lytK_expand_ops(lytS_ctx *cx, const lytK_program *P, int only_stmatrix) {
  int32_t n = 0, any = 0;
  for (int32_t i = 0; i < P->nops; i++) {
    int l = lacks(&P->op[i], only_stmatrix);
    any |= l;
    n += l ? parts(&P->op[i]) : 1;
  }
  if (!any) return P;
  lytK_program *Q = lytS_dup(cx, P, sizeof *Q);
  lytK_op *op = lytS_alloc(cx, sizeof *op * (size_t)n);
  n = 0;
  for (int32_t i = 0; i < P->nops; i++) {
    const lytK_op *o = &P->op[i];
    if (!lacks(o, only_stmatrix)) {
      op[n++] = *o;
      continue;
    }
    for (int32_t k = 0; k < parts(o); k++, n++) {
      if (o->kind == LYTK_LDSM || o->kind == LYTK_STSM) {
        op[n] = lytK_matrix_elem(o, k);
        continue;
      }
      op[n] = *o;
      op[n].vec = 1, op[n].rstep = 1, op[n].reg = lytK_elem_reg(o, k), op[n].add_k += k;
    }
  }
  Q->op = op, Q->nops = n;
  return Q;
}
