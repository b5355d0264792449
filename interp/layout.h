/*
** layout.h: CuTe layouts, swizzles and composed layouts (stride core).
**
** A layout is a pair of congruent IntTuples, shape and stride, read as
** the function coordinate -> index (colexicographic: first mode fastest).
** The algebra follows CuTe C++ with static integers, and checks
** admissibility fully where CuTe does not (see docs/language.md).
*/
#ifndef LYT_LAYOUT_H
#define LYT_LAYOUT_H

#include "inttuple.h"

typedef struct lytS_layout {
  lytS_tup *shape;
  lytS_tup *stride;  /* congruent with shape */
} lytS_layout;

/* Swizzle<B,M,S>: x ^ ((x & yyy) >> S), see docs/language.md. */
typedef struct lytS_swizzle {
  int32_t b, m, s;
} lytS_swizzle;

/* swizzle o offset o inner: c -> sw(offset + inner(c)). */
typedef struct lytS_composed {
  lytS_swizzle sw;
  int64_t offset;
  lytS_layout inner;
} lytS_composed;

/* A tiler element: a layout, `_` (keep the mode) or a nested tiler. */
enum { LYT_TILE_LAYOUT, LYT_TILE_UNDER, LYT_TILE_NEST };
typedef struct lytS_tiler lytS_tiler;
struct lytS_tiler {
  uint8_t kind;      /* LYT_TILE_*; the root is always LYT_TILE_NEST */
  lytS_layout lay;   /* LYT_TILE_LAYOUT */
  int32_t n;         /* LYT_TILE_NEST: number of elements */
  lytS_tiler *e;     /* LYT_TILE_NEST: elements */
};

#endif
