/*
** backends.c: looking up a code generator by name in the generated
** registry (see backends/backend.h).
*/
#include <string.h>

#include "backends/backend.h"

const lytK_backend *lytK_find_backend(const char *name) {
  for (int i = 0; lytK_backends[i]; i++)
    if (strcmp(lytK_backends[i]->name, name) == 0) return lytK_backends[i];
  return NULL;
}
