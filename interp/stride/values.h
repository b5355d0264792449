/*
** stride/values.h: the stride family's values in the interpreter:
** layouts, swizzles, composed layouts, tilers and basis elements.
** Constructors and argument readers for builtins, and the operations the
** table of kinds (interp/kinds.c) names for these kinds.
*/
#ifndef LYT_STRIDE_VALUES_H
#define LYT_STRIDE_VALUES_H

#include "interp/eval/builtin.h"
#include "interp/stride/layout.h"

lyt_value lytI_layout(lytS_ctx *cx, lytS_layout l);    /* copies l's pair into cx */
lyt_value lytI_swizzle(lytS_ctx *cx, lytS_swizzle sw);
lyt_value lytI_composed(const lytS_composed *cp);

lytS_layout lytI_getlayout(lytI_call *c, int i);  /* a layout (an int is not one: error) */
lytS_tiler *lytI_gettiler(lytI_call *c, int i);   /* a tiler, a layout, or a shape */

extern const lytI_builtin lytI_stride_lib[];

/* Calling a layout, a composed layout or a swizzle: L(i), L(i,j), L(crd). */
lyt_value lytI_apply_layout(lytI_call *c);

/* Kind operations (interp/kinds.c). */
lyt_value lytI_copy_layout(lytS_ctx *cx, lyt_value v);
lyt_value lytI_copy_swizzle(lytS_ctx *cx, lyt_value v);
lyt_value lytI_copy_composed(lytS_ctx *cx, lyt_value v);
lyt_value lytI_copy_basis(lytS_ctx *cx, lyt_value v);
int lytI_equal_layout(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_swizzle(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_composed(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
int lytI_equal_basis(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_layout(lytS_buf *b, const lyt_value *v);
void lytI_print_swizzle(lytS_buf *b, const lyt_value *v);
void lytI_print_composed(lytS_buf *b, const lyt_value *v);
void lytI_print_basis(lytS_buf *b, const lyt_value *v);

#endif
