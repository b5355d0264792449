/*
** lib_interop.c: layouts exchanged with other tools as text: Triton's
** attributes, CuTe's C++ expressions, IREE's nested-layout attribute and
** JSON, written out and read back.
*/
#include "state.h"

const lytI_builtin lytI_interop_lib[] = {
  { NULL, NULL, 0, 0, { NULL }, NULL },
};
