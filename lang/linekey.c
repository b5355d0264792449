/*
** linekey.c: line keys (lang/parse.h). A line is read into words of 8
** bytes, each holding its first byte lowest whatever the host's byte
** order, its digits zeroed: lines with one key have the same zeroed words,
** since they differ only in the digits of their literals, and a line has
** a key when its zeroed words are the key's and its runs of digits that
** are not literals are the key's too. x86-64 reads 16 bytes at a time.
*/
#include <string.h>

#include "lang/parse.h"

#define FNV_BASIS 14695981039346656037u  /* FNV-1a, a word at a time */
#define FNV_PRIME 1099511628211u

#if defined(__SSE2__) && defined(__x86_64__) && !defined(LYT_NO_SIMD)
#include <emmintrin.h>

/* 16 bytes at a time: the same words and hash as the loop below. */
int lytL_line_read(const char *s, const char *end, lytL_line *l) {
  const __m128i newline = _mm_set1_epi8('\n'), below = _mm_set1_epi8('0' - 1),
                above = _mm_set1_epi8('9' + 1), zeros = _mm_set1_epi8('0'),
                index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  uint64_t h = FNV_BASIS;
  for (int i = 0; i < LYTL_KEY_MAX; i += 16) {
    __m128i v;
    if (end - (s + i) >= 16) {
      v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    } else {  /* bytes past the end read as NUL, which ends no line */
      char tail[16] = { 0 };
      if (end > s + i) memcpy(tail, s + i, (size_t)(end - (s + i)));
      v = _mm_loadu_si128((const __m128i *)(const void *)tail);
    }
    unsigned nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline));
    int k = nl ? __builtin_ctz(nl) : 16;  /* the newline's byte */
    if (nl) v = _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8((char)(k + 1)), index));
    __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmpgt_epi8(above, v));
    __m128i z = _mm_or_si128(_mm_andnot_si128(d, v), _mm_and_si128(d, zeros));
    _mm_storeu_si128((__m128i *)(void *)&l->z[i >> 3], z);
    h = (h ^ (uint64_t)_mm_cvtsi128_si64(z)) * FNV_PRIME;
    if (k >= 8) h = (h ^ (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(z, z))) * FNV_PRIME;
    if (nl) {
      l->hash = (uint32_t)(h ^ (h >> 32));
      return l->n = i + k + 1;
    }
  }
  return l->n = 0;
}
#else
#define ONES 0x0101010101010101u
#define HIGH 0x8080808080808080u

static uint64_t load_le(const char *s) {
  uint64_t w;
  memcpy(&w, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  return w;
}

/* The high bit of each byte of w that is ASCII in [lo, hi] (the low
** seven bits add without a carry out of their byte). */
static inline uint64_t bytes_in(uint64_t w, unsigned lo, unsigned hi) {
  uint64_t x = w & ~HIGH;
  return (x + (0x80 - lo) * ONES) & ~(x + (0x7F - hi) * ONES) & ~w & HIGH;
}

static inline uint64_t zero_digits(uint64_t w) {
  uint64_t m = (bytes_in(w, '0', '9') >> 7) * 0xFF;
  return (w & ~m) | ('0' * ONES & m);
}

static inline int first_byte(uint64_t m) {
#if defined(__GNUC__)
  return __builtin_ctzll(m) >> 3;
#else
  int i = 0;
  while (!(m & 0xFF)) m >>= 8, i++;
  return i;
#endif
}

int lytL_line_read(const char *s, const char *end, lytL_line *l) {
  uint64_t h = FNV_BASIS;
  for (int i = 0; i < LYTL_KEY_MAX; i += 8) {
    uint64_t w;
    if (end - (s + i) >= 8) {
      w = load_le(s + i);
    } else {  /* bytes past the end read as NUL, which ends no line */
      char tail[8] = { 0 };
      if (end > s + i) memcpy(tail, s + i, (size_t)(end - (s + i)));
      w = load_le(tail);
    }
    uint64_t nl = bytes_in(w, '\n', '\n');
    if (nl) {
      int k = first_byte(nl);
      if (k < 7) w &= ((uint64_t)1 << 8 * (k + 1)) - 1;
      l->n = i + k + 1;
    }
    l->z[i >> 3] = zero_digits(w);
    h = (h ^ l->z[i >> 3]) * FNV_PRIME;
    if (nl) {
      l->hash = (uint32_t)(h ^ (h >> 32));
      return l->n;
    }
  }
  return l->n = 0;
}
#endif

int lytL_line_key(const char *s, const char *end, lytL_key *k) {
  int n = lytL_line_read(s, end, &k->line);
  k->nlit = k->nraw = k->lines = 0;
  k->user = NULL;
  if (!n) return 0;
  k->text = s;
  for (int i = 0; i < n; i++) {
    if (!lytL_digit(s[i])) continue;
    int j = i;
    while (lytL_digit(s[j])) j++;  /* the newline ends the run */
    int lit = (i == 0 || !lytL_name_char(s[i - 1])) && j - i <= LYTL_SAFE_DIGITS &&
              !lytL_name_char(s[j]);
    if (lit) k->at[k->nlit++] = (uint8_t)i;
    else k->at[LYTL_KEY_LITS - ++k->nraw] = (uint8_t)i;
    i = j;
  }
  return n;
}

int lytL_line_is(const lytL_key *k, const lytL_line *l, const char *s) {
  if (l->n != k->line.n) return 0;
  for (int i = 0; i < (l->n + 7) >> 3; i++)
    if (l->z[i] != k->line.z[i]) return 0;
  for (int r = 1; r <= k->nraw; r++)
    for (int i = k->at[LYTL_KEY_LITS - r]; lytL_digit(k->text[i]); i++)
      if (s[i] != k->text[i]) return 0;
  return 1;
}

void lytL_line_values(const lytL_key *k, const char *s, int64_t *v) {
  for (int i = 0; i < k->nlit; i++) v[i] = lytL_literal(k, s, i);
}
