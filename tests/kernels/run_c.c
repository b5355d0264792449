/*
** run_c.c: runs the kernels that lyt's C backend emitted (linked in with
** their `lyt_kernels` table) and checks every output element against
** the expect file (lyt --emit=expect), which lyt computes from the src
** and dst layouts alone. Input element i holds bits of i; elements of 1
** or 2 bytes take several passes (bits 0-7, 8-15, ...) so that every
** element is told apart. Ends with "N passed, M failed".
**
**   run_c EXPECT
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lyt_kernel { const char *name; void (*fn)(const void *, void *); };
extern const struct lyt_kernel lyt_kernels[];

static int64_t next_int(FILE *f) {
  int64_t v;
  if (fscanf(f, "%lld", (long long *)&v) != 1) { fprintf(stderr, "run_c: bad expect file\n"); exit(2); }
  return v;
}

static void fill(unsigned char *p, int64_t n, int eb, int pass) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = pass * 8 * eb < 64 ? (uint64_t)i >> (pass * 8 * eb) : 0;
    memcpy(p + i * eb, &v, (size_t)eb);  /* little-endian low bytes */
  }
}

static int check(const char *name, int eb, int64_t nin, int64_t nout, const int64_t *e) {
  const struct lyt_kernel *k = lyt_kernels;
  while (k->name && strcmp(k->name, name)) k++;
  if (!k->name) { printf("FAIL %s: not in the C module\n", name); return 0; }
  unsigned char *in = aligned_alloc(16, (size_t)((nin * eb + 15) / 16 * 16));
  unsigned char *out = aligned_alloc(16, (size_t)((nout * eb + 15) / 16 * 16));
  unsigned char *want = malloc((size_t)(eb > 0 ? eb : 1));
  int ok = in && out && want, bits = 0;
  while ((INT64_C(1) << bits) < nin) bits++;
  for (int pass = 0; ok && pass * 8 * eb < (bits ? bits : 1); pass++) {
    fill(in, nin, eb, pass);
    memset(out, 0xAB, (size_t)(nout * eb));
    k->fn(in, out);
    for (int64_t i = 0; i < nout && ok; i++) {
      if (e[i] >= 0) memcpy(want, in + e[i] * eb, (size_t)eb);
      else memset(want, 0xAB, (size_t)eb);
      if (memcmp(out + i * eb, want, (size_t)eb)) {
        printf("FAIL %s: out[%lld] is wrong (pass %d, expected in[%lld])\n", name, (long long)i,
               pass, (long long)e[i]);
        ok = 0;
      }
    }
  }
  if (ok) printf("ok %s\n", name);
  free(in), free(out), free(want);
  return ok;
}

int main(int argc, char **argv) {
  FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
  if (!f) { fprintf(stderr, "usage: run_c EXPECT\n"); return 2; }
  char line[256], name[128];
  int pass = 0, fail = 0;
  while (fgets(line, sizeof line, f)) {
    int eb, blocks, threads, smem;
    long long nin, nout;
    if (sscanf(line, "kernel %127s %d %lld %lld %d %d %d", name, &eb, &nin, &nout, &blocks,
               &threads, &smem) != 7) continue;
    int64_t *e = malloc(sizeof *e * (size_t)nout);
    if (!e) return 2;
    for (long long i = 0; i < nout; i++) e[i] = next_int(f);
    if (check(name, eb, nin, nout, e)) pass++;
    else fail++;
    free(e);
  }
  fclose(f);
  printf("%d passed, %d failed\n", pass, fail);
  return fail != 0;
}
