/*
** source.h: source texts and positions in them.
**
** Every token and AST node carries a lyt_loc; a diagnostic reprints the
** line it points into, so a source stays alive as long as its state.
*/
#ifndef LYT_SOURCE_H
#define LYT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct lytL_src {
  const char *name;  /* chunk name: a file path, "<string>", "stdin" */
  const char *text;  /* NUL-terminated */
  size_t len;
  int32_t first_line;  /* the number of text's first line; 0 means 1 (a view
                          of a longer text's tail, so a caret need not
                          scan what comes before) */
  int32_t lib;         /* a stdlib file: its errors are reported at the
                          user's call into it */
  const struct lytP_imaged *image;  /* made from a build-time tree (lang/image.h):
                                       what its functions' bodies are made from */
} lytL_src;

typedef struct lyt_loc {
  const lytL_src *src;  /* NULL: no location known */
  int32_t line, col;    /* 1-based; col counts bytes */
} lyt_loc;

#endif
