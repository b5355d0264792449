/*
** axisinfo/values.h: index values with their AxisInfo in the
** interpreter: the library of builtins and the operations the table of
** kinds (interp/kinds.c) names for them.
*/
#ifndef LYT_AXISINFO_VALUES_H
#define LYT_AXISINFO_VALUES_H

#include "interp/axisinfo/axisinfo.h"
#include "interp/eval/state.h"

extern const lytI_builtin lytI_axisinfo_lib[];

lyt_value lytI_copy_index(lytS_ctx *cx, lyt_value v);
int lytI_equal_index(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_index(lytS_buf *b, const lyt_value *v);

#endif
