/*
** base/arena.c: chunked bump allocator (see base/arena.h for why).
*/
#include "interp/base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN 8192  /* small blocks would make every statement pay */

struct lytA_block {
  lytA_block *prev;  /* older block */
  size_t size;       /* usable bytes in data[], a multiple of the alignment */
  max_align_t data[];
};

/* The head block's free bytes become the arena's free range. */
static void enter(lytA_arena *a, lytA_block *b, size_t used) {
  a->head = b;
  a->next = b ? (char *)b->data + used : NULL;
  a->end = b ? (char *)b->data + b->size : NULL;
}

void *lytA_default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) { free(ptr); return NULL; }
  return realloc(ptr, nsize);
}

void lytA_init(lytA_arena *a, lyt_alloc_fn f, void *ud, size_t limit) {
  a->alloc = f ? f : lytA_default_alloc;
  a->ud = ud;
  enter(a, NULL, 0);
  a->spare = NULL;
  a->total = 0;
  a->limit = limit;
  a->budget = NULL;
  a->refused = 0;
}

static int over_budget(const lytA_arena *a, size_t n) {
  const lytA_budget *g = a->budget;
  return g && g->limit && (n > g->limit || g->used > g->limit - n);
}

/* Reuse the spare block when it is big enough: a loop that allocates
** across a block boundary and rolls back must not malloc every time. */
static lytA_block *take_spare(lytA_arena *a, size_t n) {
  lytA_block *b = a->spare;
  if (!b || b->size < n) return NULL;
  if (a->limit && a->total + b->size > a->limit) return NULL;
  a->spare = NULL;
  b->prev = a->head;
  enter(a, b, 0);
  a->total += b->size;
  return b;
}

static lytA_block *grow(lytA_arena *a, size_t n) {
  lytA_block *s = take_spare(a, n);
  if (s) return s;
  size_t size = n > BLOCK_MIN ? n : BLOCK_MIN;
  if (a->head && a->head->size * 2 > size && a->head->size < (1u << 20))
    size = a->head->size * 2;  /* geometric growth keeps the chain short */
  if (size > SIZE_MAX / 2 - sizeof(lytA_block)) { a->refused = LYTA_LIMIT; return NULL; }
  if (a->limit && a->total + size > a->limit) {
    if (a->total + n > a->limit) { a->refused = LYTA_LIMIT; return NULL; }
    size = n;
  }
  if (over_budget(a, sizeof(lytA_block) + size)) {
    if (over_budget(a, sizeof(lytA_block) + n)) { a->refused = LYTA_BUDGET; return NULL; }
    size = n;
  }
  lytA_block *b = a->alloc(a->ud, NULL, 0, sizeof(lytA_block) + size);
  if (!b) { a->refused = LYTA_HOST; return NULL; }
  if (a->budget) a->budget->used += sizeof(lytA_block) + size;
  b->prev = a->head;
  b->size = size;
  enter(a, b, 0);
  a->total += size;
  return b;
}

/* What lytA_alloc's fast path leaves: a request of 0 bytes, or more than
** the head block has free. The bytes left in that block are dropped. */
void *lytA_alloc_slow(lytA_arena *a, size_t n) {
  const size_t al = sizeof(max_align_t);
  if (n > SIZE_MAX - al) { a->refused = LYTA_LIMIT; return NULL; }
  n = (n + al - 1) / al * al;
  if (n == 0) n = al;
  if (n > (size_t)(a->end - a->next) && !grow(a, n)) return NULL;
  void *p = a->next;
  a->next += n;
  return p;
}

lytA_mark lytA_getmark(const lytA_arena *a) {
  lytA_mark m = { a->head, a->head ? (size_t)(a->next - (char *)a->head->data) : 0 };
  return m;
}

static void free_block(lytA_arena *a, lytA_block *b) {
  if (a->budget) a->budget->used -= sizeof(lytA_block) + b->size;
  a->alloc(a->ud, b, sizeof(lytA_block) + b->size, 0);
}

/* Unlink the newest block; keep the larger of it and the spare. */
static void drop_block(lytA_arena *a, int keep) {
  lytA_block *b = a->head;
  enter(a, b->prev, b->prev ? b->prev->size : 0);  /* a mark says how much of it is used */
  a->total -= b->size;
  if (!keep) { free_block(a, b); return; }
  if (a->spare && a->spare->size >= b->size) { free_block(a, b); return; }
  if (a->spare) free_block(a, a->spare);
  a->spare = b;
}

void lytA_release(lytA_arena *a, lytA_mark m) {
  while (a->head && a->head != m.block) drop_block(a, 1);
  if (a->head) a->next = (char *)a->head->data + m.used;
}

void lytA_free(lytA_arena *a) {
  while (a->head) drop_block(a, 0);
  if (a->spare) free_block(a, a->spare);
  a->spare = NULL;
}
