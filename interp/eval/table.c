/*
** eval/table.c: the hash tables of a state: interned names (keyed by
** text) and bindings (the builtins, the main script's globals, each
** module's; keyed by interned pointer, so a lookup is a pointer
** comparison). Open addressing, power-of-two capacity; slots
** live in the code arena, which is why a grown table's old slots are
** simply abandoned rather than freed.
*/
#include <string.h>

#include "interp/eval/state.h"

/* FNV-1a over 8 bytes at a time, then the rest byte by byte; the upper
** half folded in, since a product's low bits see only its factors' low
** bits. Every name a script uses is hashed as it is read. */
static uint32_t hash_text(const char *s, size_t n) {
  uint64_t h = 14695981039346656037u;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 1099511628211u;
  }
  for (; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return (uint32_t)(h ^ (h >> 32));
}

static uint32_t hash_ptr(const char *p) {
  uintptr_t x = (uintptr_t)p;
  return (uint32_t)((x >> 4) ^ (x >> 20)) * 2654435761u;
}

static void grow(lyt_state *L, lytI_table *t) {
  uint32_t ncap = t->cap ? t->cap * 2 : 64;
  lytI_slot *ns = lytA_alloc(&L->code, sizeof *ns * ncap);
  if (!ns) lytI_code_fail(L, L->errloc);
  memset(ns, 0, sizeof *ns * ncap);
  for (uint32_t i = 0; i < t->cap; i++) {
    const char *k = t->slot[i].name;
    if (!k) continue;
    uint32_t j = hash_ptr(k) & (ncap - 1);
    while (ns[j].name) j = (j + 1) & (ncap - 1);
    ns[j] = t->slot[i];
  }
  t->slot = ns;
  t->cap = ncap;
}

static void grow_names(lyt_state *L, lytI_names *t) {
  uint32_t ncap = t->cap ? t->cap * 2 : 256;
  lytI_name *ns = lytA_alloc(&L->code, sizeof *ns * ncap);
  if (!ns) lytI_code_fail(L, L->errloc);
  memset(ns, 0, sizeof *ns * ncap);
  for (uint32_t i = 0; i < t->cap; i++) {
    if (!t->slot[i].s) continue;
    uint32_t j = t->slot[i].hash & (ncap - 1);
    while (ns[j].s) j = (j + 1) & (ncap - 1);
    ns[j] = t->slot[i];
  }
  t->slot = ns;
  t->cap = ncap;
}

/* ASCII, as the lexer reads names, whatever the host's locale says. */
static int name_char(char c, int first) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

int lytI_is_name(const char *s) {
  if (!s || !name_char(s[0], 1)) return 0;
  for (const char *p = s + 1; *p; p++)
    if (!name_char(*p, 0)) return 0;
  return 1;
}

const char *lytI_api_name(lyt_state *L, const char *api, const char *name) {
  if (!lytI_is_name(name))
    lytS_fail(&L->cx, LYT_ERRRUN, "%s: \"%.64s\" is not a name lyt can write (letters, digits "
              "and _, not first a digit)", api, name ? name : "(NULL)");
  const char *r = lytI_intern(L, name, strlen(name));
  if (!r) lytS_fail_alloc(&L->cx, &L->code);
  return r;
}

void lytI_code_fail(lyt_state *L, lyt_loc at) {
  L->errloc = at;
  lytS_fail_alloc(&L->cx, &L->code);
}

const char *lytI_intern(lyt_state *L, const char *s, size_t n) {
  lytI_names *t = &L->names;
  if ((t->count + 1) * 2 > t->cap) grow_names(L, t);
  uint32_t h = hash_text(s, n), j = h & (t->cap - 1);
  for (; t->slot[j].s; j = (j + 1) & (t->cap - 1))
    if (t->slot[j].hash == h && t->slot[j].len == n && memcmp(t->slot[j].s, s, n) == 0)
      return t->slot[j].s;
  if (n > UINT32_MAX) return NULL;
  char *copy = lytA_alloc(&L->code, n + 1);
  if (!copy) return NULL;
  memcpy(copy, s, n);
  copy[n] = 0;
  t->slot[j] = (lytI_name){ copy, h, (uint32_t)n };
  t->count++;
  return copy;
}

lyt_value *lytI_tget(const lytI_table *t, const char *name) {
  if (!t->cap) return NULL;
  for (uint32_t j = hash_ptr(name) & (t->cap - 1); t->slot[j].name;
       j = (j + 1) & (t->cap - 1))
    if (t->slot[j].name == name) return &t->slot[j].v;
  return NULL;
}

void lytI_tset(lyt_state *L, lytI_table *t, const char *name, lyt_value v) {
  lyt_value *old = lytI_tget(t, name);
  if (old) { *old = v; return; }
  if ((t->count + 1) * 2 > t->cap) grow(L, t);
  uint32_t j = hash_ptr(name) & (t->cap - 1);
  while (t->slot[j].name) j = (j + 1) & (t->cap - 1);
  t->slot[j].name = name;
  t->slot[j].v = v;
  t->count++;
}

lyt_value *lytI_getglobal(lyt_state *L, const char *name) {
  lyt_value *v = lytI_tget(&L->globals, name);
  return v ? v : lytI_tget(&L->builtins, name);
}

void lytI_setglobal(lyt_state *L, const char *name, lyt_value v) {
  lytI_tset(L, &L->globals, name, v);
}
