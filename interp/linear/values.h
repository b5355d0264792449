/*
** linear/values.h: linear layouts over GF(2) in the interpreter: the
** library of builtins, calling and showing a linear layout, and the
** operations the table of kinds (interp/kinds.c) names for them.
*/
#ifndef LYT_LINEAR_VALUES_H
#define LYT_LINEAR_VALUES_H

#include "interp/eval/state.h"
#include "interp/linear/linear.h"

extern const lytI_builtin lytI_linear_lib[];

lyt_value lytI_apply_linear(lytI_call *c);  /* L(register=.., lane=..) */
/* show.c: Triton's get_distributed_view / get_shared_view text of a
** linear layout; hw 0 is `show`'s (Triton's False), hw 1 the per-slot list. */
void lytI_show_linear(lyt_state *L, const lyt_value *v, lyt_loc at);
void lytI_linear_view(lyt_state *L, lytS_buf *b, const lytG_ll *ll, int hw, lyt_loc at);

lyt_value lytI_copy_linear(lytS_ctx *cx, lyt_value v);
int lytI_equal_linear(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);
void lytI_print_linear(lytS_buf *b, const lyt_value *v);
/* linear(v): exactly, from a layout, a composed layout or itself. */
const lytG_ll *lytI_layout_to_linear(lytI_call *c, const lyt_value *v, const char *out);
const lytG_ll *lytI_composed_to_linear(lytI_call *c, const lyt_value *v, const char *out);
const lytG_ll *lytI_linear_to_linear(lytI_call *c, const lyt_value *v, const char *out);

#endif
