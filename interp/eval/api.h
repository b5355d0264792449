/*
** eval/api.h: what the C API's entry points share (eval/api_stack.c,
** eval/api_core.c and each family's api.c).
**
** Every entry runs its body under lytI_protect with one argument block;
** a body reads the host's stack with lytI_at/lytI_at_kind and reaches a
** core through the builtin a script would call, found in the library
** tables rather than among the globals, so a script that rebinds a name
** cannot change what the host gets.
*/
#ifndef LYT_API_H
#define LYT_API_H

#include "interp/eval/state.h"

/* The value at idx, which must be of kind k ("<api>: value 2 is ..."). */
const lyt_value *lytI_at_kind(lyt_state *L, int idx, lyt_vkind k, const char *api);
/* Runs fn with a block holding idx and out: the readers lyt_to_*. */
int lytI_read_into(lyt_state *L, lytI_protected fn, int idx, void *out, const char *api);
/* Calls the builtin of that name (from lytI_libs), or any callable value. */
lyt_value lytI_api_builtin(lyt_state *L, const char *name, int argc, lyt_value *argv);
lyt_value lytI_api_call(lyt_state *L, lyt_value f, int argc, lyt_value *argv);
_Noreturn void lytI_api_wrong(lyt_state *L, const char *api, const lyt_value *v, const char *want);

#endif
