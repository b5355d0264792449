/*
** backends/values.h: kernel descriptions in the interpreter: the library
** of builtins (kernel, program, emit, ...) and the operations the table
** of kinds (interp/kinds.c) names for kernels.
*/
#ifndef LYT_BACKENDS_VALUES_H
#define LYT_BACKENDS_VALUES_H

#include "backends/kernel.h"
#include "interp/eval/state.h"

extern const lytI_builtin lytI_kernel_lib[];

lyt_value lytI_copy_kernel(lytS_ctx *cx, lyt_value v);
int lytI_equal_kernel(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_kernel(lytS_buf *b, const lyt_value *v);

#endif
