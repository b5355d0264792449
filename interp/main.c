/*
** main.c: the lyt command: run a script, a string, standard input, or
** an interactive session. It uses only lyt.h, as lua.c uses only lua.h.
*/
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <dlfcn.h>
#include <editline/readline.h>  /* its types; the library is opened when a session starts */

#include "interp/lyt.h"

/* What a script prints. Running a script, not a session, it is gathered
** here and written in large pieces (fwrite for each print was 1.5% of the
** instructions of bench.py's layout operations; into a pipe, each write
** can wake the reader, and 8 KiB pieces cost bench.py's script about 3%
** more than 64 KiB ones). It is written before any diagnostic and at the
** end, so the two streams keep their order. */
typedef struct output {
  int quiet;   /* silences the script (--emit prints only code) */
  int batch;   /* gather prints in buf */
  size_t n;
  char buf[65536];
} output;

static void flush_output(output *o) {
  if (o->n) fwrite(o->buf, 1, o->n, stdout);
  o->n = 0;
  fflush(stdout);
}

static void write_stdout(void *ud, const char *s, size_t n) {
  output *o = ud;
  if (o->quiet) return;
  if (o->batch && n > sizeof o->buf - o->n) flush_output(o);
  if (o->batch && n <= sizeof o->buf) {
    memcpy(o->buf + o->n, s, n);
    o->n += n;
    return;
  }
  fwrite(s, 1, n, stdout);
}

static output stdout_text;  /* one per process, as the session's signal flags below are */

static int report(lyt_state *L, int status) {
  if (status != LYT_OK) {
    flush_output(&stdout_text);
    fputs(lyt_diagnostic(L), stderr);
  }
  return status;
}

/* --emit=TARGET[:ARCH] FILE: run FILE quietly, then print its kernels. */
static int emit_file(lyt_state *L, const char *spec, const char *path) {
  char target[32], *arch;
  snprintf(target, sizeof target, "%s", spec);
  arch = strchr(target, ':');
  if (arch) *arch++ = 0;
  stdout_text.quiet = 1;
  int status = report(L, lyt_dofile(L, path));
  stdout_text.quiet = 0;
  return status == LYT_OK ? report(L, lyt_emit(L, target, arch)) : status;
}

/* --explain[=text|json|html] FILE: what lyt_explain makes of a TTGIR dump. */
static int explain_file(lyt_state *L, const char *format, const char *path, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "lyt: %s: %s\n", path, strerror(errno)); return LYT_ERRFILE; }
  size_t n = 0, size = 1 << 16;
  char *buf = malloc(size);
  while (buf) {
    n += fread(buf + n, 1, size - n, f);
    if (n < size || size > cap) break;
    char *nb = realloc(buf, size * 2);
    if (!nb) { free(buf); buf = NULL; break; }
    buf = nb;
    size *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad || n >= size) {
    fprintf(stderr, "lyt: %s: %s\n", path, !buf ? "out of memory" : bad ? "read error"
                                             : "larger than --max-memory allows");
    free(buf);
    return LYT_ERRFILE;
  }
  int status = report(L, lyt_explain(L, buf, n, path, format));
  free(buf);
  const char *s;
  size_t len;
  if (status == LYT_OK && lyt_to_string(L, -1, &s, &len) == LYT_OK) write_stdout(&stdout_text, s, len);
  return status;
}

/* The targets come from the table of code generators (lyt_target). */
static void usage(FILE *f) {
  fputs("usage: lyt [--max-memory=BYTES] [--max-steps=N] [file.lyt | -e source | - |\n"
        "           --emit=TARGET file.lyt | --explain[=FORMAT] file.ttgir]\n"
        "  --max-memory=BYTES  what the whole state may hold (default 4 GiB)\n"
        "  --max-steps=N       evaluation steps per statement (default 100 million)\n"
        "  file.lyt   run a script\n"
        "  --emit=TARGET[:ARCH] file.lyt\n"
        "             run a script quietly and print the code of its kernels for\n"
        "             TARGET:", f);
  const char *name, *archs;
  for (int i = 0; lyt_target(i, &name, &archs); i++) {
    fprintf(f, " %s", name);
    if (strchr(archs, ' ')) {  /* variants to choose from, the default first */
      fputs(" (", f);
      for (const char *p = archs; *p; p++)
        if (*p == ' ') fputs(", ", f);
        else fputc(*p, f);
      fputs(")", f);
    }
    fputs(",", f);
  }
  fputs(" expect\n"
        "  --explain[=text|json] file.ttgir\n"
        "             a Triton IR dump's encodings as linear layouts, and what Triton\n"
        "             does for each ttg.convert_layout (none, registers, shuffle, shared)\n"
        "  -e source  run the given text (-e may be repeated: each runs in turn)\n"
        "  -          read a script from standard input\n"
        "  -i         interactive session even when standard input is not a terminal\n"
        "  (none)     interactive session on a terminal, else standard input\n"
        "  --version  print the version\n", f);
}

/* --max-memory=BYTES, --max-steps=N: a positive decimal number. */
static int limit_option(const char *arg, const char *name, unsigned long long *out) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0 || arg[n] != '=') return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(arg + n + 1, &end, 10);
  if (errno || end == arg + n + 1 || *end || v == 0 || arg[n + 1] == '-') {
    fprintf(stderr, "lyt: %s needs a positive number, got '%s'\n", name, arg + n + 1);
    exit(1);
  }
  *out = v;
  return 1;
}

/* The REPL's Ctrl-C: while a line is being typed, it drops the line (and
** the earlier lines of an unfinished statement) and prompts again; while
** code runs, it stops that code (lyt_interrupt). The session goes on. The
** jump leaves libedit inside read(); its next readline() starts afresh. */
static lyt_state *running;
static sigjmp_buf prompt_jb;
static volatile sig_atomic_t at_prompt;
static void on_interrupt(int sig) {
  (void)sig;
  if (at_prompt) {
    at_prompt = 0;
    siglongjmp(prompt_jb, 1);
  }
  if (running) lyt_interrupt(running);
}

/* Read all of standard input into a buffer of *len bytes (NUL bytes and
** all: the script must see them); NULL when it cannot be had. */
static char *slurp_stdin(size_t *len) {
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n - 1, stdin);
    n += r;
    if (r == 0) break;
    if (n + 1 == cap) {
      char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
      if (!nb) { free(buf); return NULL; }
      buf = nb;
      cap *= 2;
    }
  }
  *len = n;
  return buf;
}

static int run_stdin(lyt_state *L) {
  size_t len;
  char *src = slurp_stdin(&len);
  if (!src) { fputs("lyt: cannot read standard input\n", stderr); return LYT_ERRFILE; }
  int s = report(L, lyt_dobuffer(L, src, len, "<stdin>"));
  free(src);
  return s;
}

static const char repl_help[] =
  "Type a statement or an expression; an expression's value is printed.\n"
  "  L = (4,2):(2,1)     bind a layout      show L      draw it as a table\n"
  "  help()              list the builtins  help(\"composition\")  one of them\n"
  "  :load FILE          run a file         :reset      forget every binding\n"
  "  :quit               leave (or Ctrl-D)  :help       this text\n"
  "Tab completes names (ns.<Tab> a namespace's); an open bracket or block\n"
  "continues on the next line; Ctrl-C drops the line or stops what runs.\n";

#define LYT_HISTORY_LINES 1000

/* Where the history lives: $LYT_HISTORY (empty: none), else ~/.lyt_history. */
static const char *history_path(char *buf, size_t n) {
  const char *p = getenv("LYT_HISTORY"), *home = getenv("HOME");
  if (p) return *p ? p : NULL;
  if (!home || !*home || (size_t)snprintf(buf, n, "%s/.lyt_history", home) >= n) return NULL;
  return buf;
}

/* Tab completion: the names lyt_names gives, collected on the first call. */
static struct { char **v; int n, cap, next; } cands;
static void add_cand(void *ud, const char *name) {
  (void)ud;
  if (cands.n == cands.cap) {
    int cap = cands.cap ? 2 * cands.cap : 64;
    char **v = realloc(cands.v, sizeof *v * (size_t)cap);
    if (!v) return;
    cands.v = v, cands.cap = cap;
  }
  char *c = strdup(name);
  if (c) cands.v[cands.n++] = c;
}
static char *complete(const char *text, int state) {
  if (state == 0) {
    while (cands.n) free(cands.v[--cands.n]);
    cands.next = 0;
    lyt_names(running, text, add_cand, NULL);
  }
  return cands.next < cands.n ? strdup(cands.v[cands.next++]) : NULL;
}

/* The line editor. libedit is opened when a session starts, not linked:
** every run would pay for loading it and the three libraries it needs
** (a quarter of a millisecond, a third of `lyt -e 'print 1'`). Without
** it, or with LYT_NO_LIBEDIT set, a session reads plain lines, with no
** editing or history. */
static struct {
  char *(*readline)(const char *);
  int (*add_history)(const char *);
  int (*read_history)(const char *);
  int (*write_history)(const char *);
} ed;

static char *plain_readline(const char *prompt) {
  if (isatty(0)) {  /* as libedit: lines piped in get no prompts */
    fputs(prompt, stdout);
    fflush(stdout);
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) { free(line); return NULL; }
  if (n > 0 && line[n - 1] == '\n') line[n - 1] = 0;
  return line;
}

static int no_history(const char *path) { (void)path; return 0; }

/* libedit's functions, or plain lines and no history where it cannot be
** had whole. */
static void open_editor(void) {
  ed.readline = plain_readline;
  ed.add_history = ed.read_history = ed.write_history = no_history;
  const char *off = getenv("LYT_NO_LIBEDIT");
  void *h = off && *off ? NULL : dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!h) return;
  rl_compentry_func_t **entry = dlsym(h, "rl_completion_entry_function");
  const char **brk = dlsym(h, "rl_basic_word_break_characters");
  void (*stifle)(int) = (void (*)(int))dlsym(h, "stifle_history");
  char *(*rd)(const char *) = (char *(*)(const char *))dlsym(h, "readline");
  int (*add)(const char *) = (int (*)(const char *))dlsym(h, "add_history");
  int (*load)(const char *) = (int (*)(const char *))dlsym(h, "read_history");
  int (*save)(const char *) = (int (*)(const char *))dlsym(h, "write_history");
  if (!entry || !brk || !stifle || !rd || !add || !load || !save) return;
  ed.readline = rd, ed.add_history = add, ed.read_history = load, ed.write_history = save;
  *entry = complete;
  *brk = " \t\n\"\\'`@$><=;|&{}()[],+-*/%^~:!#";
  stifle(LYT_HISTORY_LINES);
}

/* :load FILE, :reset (a fresh state), :help, :quit. 1 if the line was one. */
static int repl_command(lyt_state **L, const lyt_config *cfg, const char *line, int *quit) {
  if (line[0] != ':') return 0;
  if (strcmp(line, ":quit") == 0 || strcmp(line, ":q") == 0) *quit = 1;
  else if (strcmp(line, ":help") == 0 || strcmp(line, ":h") == 0) fputs(repl_help, stdout);
  else if (strncmp(line, ":load ", 6) == 0) report(*L, lyt_dofile(*L, line + 6));
  else if (strcmp(line, ":reset") == 0) {
    lyt_state *fresh = lyt_open(cfg);
    if (!fresh) { fputs("lyt: cannot create a state (out of memory); nothing was reset\n", stderr); return 1; }
    lyt_close(*L);
    running = *L = fresh;
  } else {
    fprintf(stderr, "unknown command '%s' (try :help)\n", line);
  }
  return 1;
}

/* Each line goes to lyt_doline, which keeps the lines of an unfinished
** statement (an open bracket or block) until it is whole. */
static void repl(lyt_state **L, const lyt_config *cfg) {
  int quit = 0;
  char hbuf[4096];
  open_editor();
  /* only a person's lines: lines piped into -i are no history */
  const char *hist = isatty(0) ? history_path(hbuf, sizeof hbuf) : NULL;
  running = *L;
  if (hist) ed.read_history(hist);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  printf("lyt %s  (:help for help, :quit to leave)\n", LYT_VERSION);
  while (!quit) {
    if (sigsetjmp(prompt_jb, 1)) {  /* Ctrl-C at the prompt */
      fputs("\n", stdout);
      lyt_doline(*L, NULL, "<repl>");
    }
    int more = lyt_incomplete(*L);
    at_prompt = 1;
    char *line = ed.readline(more ? "...> " : "lyt> ");
    at_prompt = 0;
    if (!line) break;
    if (!more && repl_command(L, cfg, line, &quit)) { free(line); continue; }
    if (*line) {
      ed.add_history(line);
      if (hist) ed.write_history(hist);  /* at most LYT_HISTORY_LINES, per line a person types */
    }
    int s = lyt_doline(*L, line, "<repl>");
    free(line);
    if (s == LYT_ERRSYNTAX && lyt_incomplete(*L)) continue;
    report(*L, s);
    fflush(stdout);
  }
  while (cands.n) free(cands.v[--cands.n]);
  free(cands.v);
  putchar('\n');
}

/* -e TEXT [-e TEXT ...]: each in turn, in one state, until one fails. */
static int run_strings(lyt_state *L, int n, char **arg) {
  for (int i = 0; i < n; i += 2)
    if (strcmp(arg[i], "-e") != 0 || i + 1 == n) {
      usage(stderr);
      return LYT_ERRRUN;
    }
  int status = LYT_OK;
  for (int i = 0; i < n && status == LYT_OK; i += 2) status = report(L, lyt_dostring(L, arg[i + 1], "<string>"));
  return status;
}

int main(int argc, char **argv) {
  lyt_config cfg;
  lyt_config_init(&cfg);
  unsigned long long v;
  while (argc > 1) {  /* limits first, then what to run */
    if (limit_option(argv[1], "--max-memory", &v)) cfg.max_memory = (size_t)v;
    else if (limit_option(argv[1], "--max-steps", &v)) cfg.max_steps = (int64_t)(v > INT64_MAX ? INT64_MAX : v);
    else break;
    argv[1] = argv[0];
    argv++;
    argc--;
  }
  cfg.write = write_stdout;
  cfg.write_ud = &stdout_text;
  /* The command runs on the main thread, whose stack is the soft limit:
  ** nesting may use half of it. */
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    cfg.max_stack = (size_t)(rl.rlim_cur / 2);
  cfg.path = getenv("LYT_PATH");
  lyt_state *L = lyt_open(&cfg);
  if (!L) { fputs("lyt: cannot create a state (out of memory)\n", stderr); return 1; }
  int status = LYT_OK;
  /* a script's prints are gathered; a session's are written as they come */
  stdout_text.batch = !(argc == 1 && isatty(0)) && !(argc == 2 && strcmp(argv[1], "-i") == 0);
  if (argc > 1 && strcmp(argv[1], "--version") == 0) printf("lyt %s\n", LYT_VERSION);
  else if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) usage(stdout);
  else if (argc == 3 && strncmp(argv[1], "--explain", 9) == 0 && (!argv[1][9] || argv[1][9] == '='))
    status = explain_file(L, argv[1][9] ? argv[1] + 10 : "text", argv[2], cfg.max_memory);
  else if (argc == 3 && strncmp(argv[1], "--emit=", 7) == 0)
    status = emit_file(L, argv[1] + 7, argv[2]);
  else if (argc > 2 && strcmp(argv[1], "-e") == 0) status = run_strings(L, argc - 1, argv + 1);
  else if (argc == 2 && strcmp(argv[1], "-") == 0) status = run_stdin(L);
  else if (argc == 2 && argv[1][0] != '-') status = report(L, lyt_dofile(L, argv[1]));
  else if (argc == 1 && isatty(0)) repl(&L, &cfg);
  else if (argc == 2 && strcmp(argv[1], "-i") == 0) repl(&L, &cfg);
  else if (argc == 1) status = run_stdin(L);
  else { usage(stderr); status = LYT_ERRRUN; }
  lyt_close(L);
  flush_output(&stdout_text);
  return status == LYT_OK ? 0 : 1;
}
