/*
** image.h: syntax trees made at build time. The stdlib is the same text
** in every run, and parsing it was most of a script's start-up (5.3M of
** `import "triton"`'s 6.4M instructions), so lang/mkimage.c parses each
** stdlib file when lyt is built and writes its tree as arrays; a load
** turns them into nodes. An image is used only for the very text it was
** made from (compared byte for byte): an edited or other stdlib is parsed.
*/
#ifndef LYT_IMAGE_H
#define LYT_IMAGE_H

#include <stddef.h>

#include "lang/parse.h"

#define LYTP_NONE (-1)  /* no node, no string */

/* A node as lytP_node holds it, its pointers as indices into the image. */
typedef struct lytP_inode {
  uint8_t kind, op;
  uint8_t name;          /* str is an index into names (an interned name), else
                            an offset into strs (a decoded text) */
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
  int32_t nnode, root;      /* root: the first statement, or LYTP_NONE */
  const char *strs;         /* strings back to back, each NUL-terminated */
  const int32_t *names;     /* offsets into strs of the names to intern */
  int32_t nnames;
} lytP_image;

extern const lytP_image *const lytP_images[];  /* NULL-terminated (build/gen/image.c) */

/* The statements of src, from the image made from its text: 1 and *first
** set (NULL for an empty file), or 0 when no image was made from this
** text. Nodes are allocated through cx, names interned through intern. */
int lytP_image_load(lytS_ctx *cx, const lytL_src *src, lytP_intern_fn intern, void *ud,
                    const lytP_node **first);

#endif
