/*
** nested/values.h: IREE nested layouts in the interpreter: the library
** of builtins and the operations the table of kinds (interp/kinds.c)
** names for them.
*/
#ifndef LYT_NESTED_VALUES_H
#define LYT_NESTED_VALUES_H

#include "interp/eval/state.h"
#include "interp/nested/nested.h"

extern const lytI_builtin lytI_nested_lib[];

lyt_value lytI_copy_nested(lytS_ctx *cx, lyt_value v);
int lytI_equal_nested(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_nested(lytS_buf *b, const lyt_value *v);
const lytG_ll *lytI_nested_to_linear(lytI_call *c, const lyt_value *v, const char *out);
lytX_layout *lytI_nested_to_axe(lytI_call *c, const lyt_value *v);

#endif
