/*
** targets.c: the table of code generators. Everything that lists
** targets (--emit=, emit(), lyt_emit, the help text, the tests) reads this
** table, so adding a target is its own file and one row here.
*/
#include <string.h>

#include "backends/backend.h"

extern const lytK_backend lytK_backend_c, lytK_backend_ptx, lytK_backend_amdgcn;

/* In the order messages and the help list them. */
const lytK_backend *const lytK_backends[] = {
  &lytK_backend_c,
  &lytK_backend_ptx,
  &lytK_backend_amdgcn,
  NULL,
};

const lytK_backend *lytK_find_backend(const char *name) {
  for (int i = 0; lytK_backends[i]; i++)
    if (strcmp(lytK_backends[i]->name, name) == 0) return lytK_backends[i];
  return NULL;
}
