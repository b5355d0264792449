/*
** axe/values.h: axis strides (4@lane), iters and Axe layouts in the
** interpreter: the library of builtins and the operations the table of
** kinds (interp/kinds.c) names for them.
*/
#ifndef LYT_AXE_VALUES_H
#define LYT_AXE_VALUES_H

#include "interp/axe/axe.h"
#include "interp/eval/state.h"

extern const lytI_builtin lytI_axe_lib[];

lyt_value lytI_copy_axis(lytS_ctx *cx, lyt_value v);
lyt_value lytI_copy_axe(lytS_ctx *cx, lyt_value v);     /* iters and Axe layouts */
int lytI_equal_axis(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_axe(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_axis(lytS_buf *b, const lyt_value *v);
void lytI_print_iters(lytS_buf *b, const lyt_value *v);
void lytI_print_axe(lytS_buf *b, const lyt_value *v);   /* the call that makes it */
/* axe(v): the shard an Axe layout starts from, exactly. */
lytX_layout *lytI_iters_to_axe(lytI_call *c, const lyt_value *v);  /* iters, Axe */
lytX_layout *lytI_layout_to_axe(lytI_call *c, const lyt_value *v);
lytX_layout *lytI_linear_to_axe(lytI_call *c, const lyt_value *v);

#endif
