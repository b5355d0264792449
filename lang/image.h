/*
** image.h: syntax trees made at build time. The stdlib is the same text
** in every run, and parsing it was most of a script's start-up (5.3M of
** `import "triton"`'s 6.4M instructions), so lang/mkimage.c parses each
** stdlib file when lyt is built and writes its tree as arrays; a load
** turns them into nodes. An image is used only for the very text it was
** made from (compared byte for byte): an edited or other stdlib is parsed.
**
** A load makes the top-level statements and the parameters of the
** functions they define; a function's body is made when something first
** needs it (lytP_body): a library defines hundreds of functions and a
** script calls a few.
*/
#ifndef LYT_IMAGE_H
#define LYT_IMAGE_H

#include <stddef.h>

#include "lang/parse.h"

#define LYTP_NONE (-1)  /* no node, no string */

/* A node as lytP_node holds it, its pointers as indices into the image.
** The image numbers the top-level statements and what a load makes of
** them first (node[0..nskel)), then each function body left for later,
** its nodes a range of their own: such a function's node has lazy set,
** and a and c the range. */
typedef struct lytP_inode {
  uint8_t kind, op;
  uint8_t name;          /* str is an index into names (an interned name), else
                            an offset into strs (a decoded text) */
  uint8_t lazy;
  int32_t line, col;
  int64_t ival;
  int32_t str, len, n;
  int32_t a, b, c, list, next;
} lytP_inode;

typedef struct lytP_image {
  const char *file;         /* the stdlib file's base name */
  const char *text;         /* the source it was made from */
  size_t len;
  const lytP_inode *node;
  int32_t nskel, root;      /* root: the first statement, or LYTP_NONE */
  const char *strs;         /* strings back to back, each NUL-terminated */
  const int32_t *names;     /* offsets into strs of the names to intern */
} lytP_image;

extern const lytP_image *const lytP_images[];  /* NULL-terminated (build/gen/image.c) */

/* What a source made from an image needs to make its bodies later: nodes
** go in arena (failing through cx), names through intern. */
typedef struct lytP_imaged {
  const lytP_image *im;
  lytS_ctx *cx;
  lytA_arena *arena;
  lytP_intern_fn intern;
  void *ud;
} lytP_imaged;

/* The image made from src's text, or NULL. */
const lytP_image *lytP_image_of(const lytL_src *src);
/* The statements of src (NULL for an empty file) from its image, src's
** image set to *z, which must live as long as src. */
const lytP_node *lytP_image_load(lytL_src *src, lytP_imaged *z);
/* fn (N_FNDEF or N_FUNC) with its body made: what reads fn->a calls this. */
const lytP_node *lytP_body(const lytP_node *fn);

#endif
