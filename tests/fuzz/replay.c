/*
** replay.c: main() for a fuzz target outside libFuzzer. Runs every input
** file named on the command line (a folder: every file in it) through
** LLVMFuzzerTestOneInput once, so that `make test` (and its ASan+UBSan
** build) replays the checked-in corpus and every past crash as regression
** tests. A finding aborts, which fails the run; otherwise it ends with
** "N passed, 0 failed".
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return perror(path), 0;
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      uint8_t *p = realloc(buf, cap = 2 * cap + 4096);
      if (!p) return free(buf), fclose(f), 0;
      buf = p;
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    if (!k) break;
    n += k;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 1;
}

int main(int argc, char **argv) {
  long passed = 0, failed = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) { perror(argv[i]), failed++; continue; }
    if (!S_ISDIR(st.st_mode)) { run_file(argv[i]) ? passed++ : failed++; continue; }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      char path[4096];
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      run_file(path) ? passed++ : failed++;
    }
    if (d) closedir(d);
  }
  printf("%ld passed, %ld failed\n", passed, failed);
  return failed != 0;
}
