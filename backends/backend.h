/*
** backend.h: a code generator is one table of function pointers, one
** file per target (backends/NAME.c defining `lytK_backend_NAME`), one
** row for it in the table of targets.c.
**
** emit prints a module holding every program of progs into b; it fails
** through lytS_fail (LYT_ERRRUN) when a program cannot be lowered to the
** target (e.g. too many registers), never prints partial output on its
** own. The options are the target's, e.g. "sm_80" or "gfx942"; NULL
** means the default.
*/
#ifndef LYT_BACKEND_H
#define LYT_BACKEND_H

#include "interp/base/context.h"
#include "interp/base/inttuple.h"  /* lytS_buf */
#include "backends/program.h"

typedef struct lytK_backend {
  const char *name;     /* "c", "ptx", "amdgcn" */
  const char *targets;  /* the accepted targets, first the default: "sm_90 sm_80" */
  void (*emit)(lytS_ctx *cx, lytS_buf *b, const lytK_program *const *progs, int32_t n,
               const char *target);
} lytK_backend;

/* P with the ops a target lacks as plain accesses (expand.c): every
** stmatrix; unless only_stmatrix, every ldmatrix and every vector whose
** registers are in another order (rstep 0). */
const lytK_program *lytK_expand_ops(lytS_ctx *cx, const lytK_program *P, int only_stmatrix);

/* The table of targets (targets.c): NULL-terminated. */
extern const lytK_backend *const lytK_backends[];
const lytK_backend *lytK_find_backend(const char *name);  /* NULL if none */
const lytK_backend *lytK_get_backend(lytS_ctx *cx, const char *name);  /* or an error */
void lytK_target_list(lytS_buf *b);  /* "c, ptx, amdgcn", for messages */

#endif
