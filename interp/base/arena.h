/*
** base/arena.h: bump allocation in chunks taken from the host allocator.
**
** Values of one top-level statement live in a scratch arena that is
** released wholesale when the statement ends; bindings that outlive it
** are copied into a persistent arena. Nothing is freed piecemeal, so an
** error that unwinds by longjmp can never leak.
*/
#ifndef LYT_ARENA_H
#define LYT_ARENA_H

#include <stddef.h>

#include "interp/lyt.h"  /* lyt_alloc_fn: realloc-like, nsize 0 frees */

typedef struct lytA_block lytA_block;

/* What all the arenas of one state may hold together (max_memory): blocks
** taken from the host count until they are given back. */
typedef struct lytA_budget {
  size_t used, limit;  /* limit 0: none */
} lytA_budget;

typedef struct lytA_arena {
  lyt_alloc_fn alloc;  /* host allocator */
  void *ud;            /* its user data */
  lytA_block *head;    /* newest block; older ones chained behind */
  char *next, *end;    /* the head block's free bytes (NULL without one) */
  lytA_block *spare;   /* one released block kept for reuse (see lytA_release) */
  size_t total;        /* bytes held in blocks */
  size_t limit;        /* refuse to grow past this many bytes (0: none) */
  lytA_budget *budget; /* shared with the state's other arenas (NULL: none) */
  int refused;         /* why the last allocation failed: LYTA_* */
} lytA_arena;

enum { LYTA_HOST = 1, LYTA_LIMIT, LYTA_BUDGET };

/* A position to roll back to: everything allocated after it goes. */
typedef struct lytA_mark {
  lytA_block *block;
  size_t used;
} lytA_mark;

void lytA_init(lytA_arena *a, lyt_alloc_fn f, void *ud, size_t limit);

void *lytA_alloc_slow(lytA_arena *a, size_t n);

/* NULL when out of memory. Inline, since a statement makes hundreds of
** allocations: the head block's free bytes are always a multiple of the
** alignment, so n fits when its rounding does. */
static inline void *lytA_alloc(lytA_arena *a, size_t n) {
  const size_t al = sizeof(max_align_t);
  if (n - 1 < (size_t)(a->end - a->next)) {  /* 1 <= n <= free bytes */
    void *p = a->next;
    a->next += (n + al - 1) & ~(al - 1);
    return p;
  }
  return lytA_alloc_slow(a, n);
}
lytA_mark lytA_getmark(const lytA_arena *a);
void lytA_release(lytA_arena *a, lytA_mark m);
void lytA_free(lytA_arena *a);                    /* give every block back */
void *lytA_default_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

#endif
