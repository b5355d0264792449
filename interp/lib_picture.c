/*
** lib_picture.c: layouts drawn: text pictures, SVG files and TikZ.
*/
#include "state.h"

const lytI_builtin lytI_picture_lib[] = {
  { NULL, NULL, 0, 0, { NULL }, NULL },
};
