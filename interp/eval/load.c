/*
** eval/load.c: chunks, files and imports. A chunk is parsed whole (so a
** syntax error anywhere stops it before anything runs), then run one
** top-level statement at a time, each with its own scratch-arena mark.
** Sources stay in the code arena: functions and messages point into them.
*/
/* realpath() is X/Open, beyond the POSIX base the build asks for. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/parse.h"
#include "interp/eval/state.h"

#define LYT_MAX_FILE (16u << 20)  /* larger inputs are not layout scripts */

static void *scratch(lyt_state *L, size_t n) {
  return lytS_alloc(&L->cx, n);
}

static const char *intern_cb(void *ud, const char *s, size_t n) {
  return lytI_intern((lyt_state *)ud, s, n);
}

static void lex_init(lytP_ctx *p, lyt_state *L, const lytL_src *src) {
  memset(p, 0, sizeof *p);
  p->cx = &L->cx;
  p->src = src;
  p->intern = intern_cb;
  p->intern_ud = L;
  p->cur = p->linestart = src->text;
  p->line = 1;
  lytS_buf_init(&p->diag, &L->cx);
}

static const lytP_node *parse(lyt_state *L, const lytL_src *src) {
  lytP_ctx p;
  lex_init(&p, L, src);
  /* the tree outlives the statement; L->cx itself allocates it, so running
  ** out of memory reaches lytI_protect with its code (which resets the arena) */
  lytA_arena *was = L->cx.arena;
  L->cx.arena = &L->code;
  int st = lytP_parse(&p);
  L->cx.arena = was;
  if (st == LYT_OK) return p.stmts.head;
  L->incomplete = p.incomplete;
  L->errloc = p.errloc;
  L->cx.code = LYT_ERRSYNTAX;
  snprintf(L->cx.msg, sizeof L->cx.msg, "%s", p.errmsg);
  L->diag_pending = p.diag.p;  /* every error, already formatted */
  longjmp(*L->cx.jb, 1);
}

static void run_statements(lyt_state *L, const lytP_node *first) {
  for (const lytP_node *s = first; s; s = s->next) {
    lytA_mark m = lytA_getmark(&L->scratch);
    if (L->stmts == 0) L->steps = 0;
    L->errloc = s->loc;
    L->stmts++;
    lytI_exec(L, s);
    L->stmts--;
    lytA_release(&L->scratch, m);
  }
}

lytL_src *lytI_new_src(lyt_state *L, const char *name, const char *text, size_t len) {
  lytL_src *src = lytA_alloc(&L->code, sizeof *src);
  char *t = lytA_alloc(&L->code, len + 1);
  char *nm = lytA_alloc(&L->code, strlen(name) + 1);
  if (!src || !t || !nm) lytI_code_fail(L, L->errloc);
  memcpy(t, text, len);
  t[len] = 0;
  *src = (lytL_src){ strcpy(nm, name), t, len, 0, 0 };
  return src;
}

void lytI_run_src(lyt_state *L, const char *name, const char *text, size_t len) {
  const lytL_src *src = lytI_new_src(L, name, text, len);
  run_statements(L, parse(L, src));
}

/* ---------------------------------------------------------------------
** lyt_doline: a statement typed over several lines. Each line is added to
** the pending text and only its own tokens are lexed and run through the
** parser's automaton (lytP_probe); the text is parsed for real once, when
** the automaton would accept its end or refuses a token. So n lines cost
** time and memory in proportion to their length, where parsing the whole
** text again after every line cost its square.
** ------------------------------------------------------------------- */

/* The pending text with [line] added, after a newline if it continues. */
static void pend_append(lyt_state *L, int cont, const char *name, const char *line) {
  struct lytI_pending *pd = &L->pend;
  size_t n = strlen(line), sep = cont ? 1 : 0;
  if (!cont) {
    lytA_free(&pd->arena);
    char *nm = lytA_alloc(&pd->arena, strlen(name) + 1);
    if (!nm) lytS_fail_alloc(&L->cx, &pd->arena);
    pd->src = (lytL_src){ strcpy(nm, name), "", 0, 0, 0 };
    pd->cap = pd->cur = pd->linestart = 0;
    pd->line = 1, pd->depth = 0;
    lytP_probe_init(&pd->probe);
  }
  if (n > LYT_MAX_FILE - pd->src.len - sep)
    lytS_fail(&L->cx, LYT_ERRLIMIT, "lyt_doline: a statement longer than 16 MiB");
  size_t need = pd->src.len + sep + n + 1;
  if (need > pd->cap) {
    size_t cap = need > 2 * pd->cap ? need : 2 * pd->cap;
    char *t = lytA_alloc(&pd->arena, cap);
    if (!t) lytS_fail_alloc(&L->cx, &pd->arena);
    memcpy(t, pd->src.text, pd->src.len);
    pd->src.text = t, pd->cap = cap;
  }
  char *t = (char *)pd->src.text;
  if (sep) t[pd->src.len] = '\n';
  memcpy(t + pd->src.len + sep, line, n + 1);
  pd->src.len += sep + n;
}

void lytI_run_line(lyt_state *L, const char *name, const char *line) {
  struct lytI_pending *pd = &L->pend;
  int cont = pd->active;
  pd->active = 0;  /* again only if the statement stays unfinished: an error drops it */
  pend_append(L, cont, name, line);
  lytP_ctx p;
  lytP_token t;
  lex_init(&p, L, &pd->src);
  p.cur = pd->src.text + pd->cur, p.linestart = pd->src.text + pd->linestart;
  p.line = pd->line, p.depth = pd->depth;
  do lytL_lex(&p, &t);
  while (!p.nerr && t.type && lytP_probe_feed(&pd->probe, t.type));
  if (!p.nerr && t.type == 0 && !lytP_probe_ends(&pd->probe)) {
    pd->cur = (size_t)(p.cur - pd->src.text), pd->linestart = (size_t)(p.linestart - pd->src.text);
    pd->line = p.line, pd->depth = p.depth;
    pd->active = L->incomplete = 1;
    pd->tail = (lytL_src){ pd->src.name, p.linestart, pd->src.len - pd->linestart, p.line, 0 };
    t.loc.src = &pd->tail;
    lytI_error(L, t.loc, LYT_ERRSYNTAX, "unexpected end of input");
  }
  /* Whole, or wrong somewhere: the one real parse runs it or says why. */
  const lytL_src *src = lytI_new_src(L, pd->src.name, pd->src.text, pd->src.len);
  lytA_free(&pd->arena);
  run_statements(L, parse(L, src));
}

/* The value of a chunk that is one expression (lyt_eval). */
lyt_value lytI_eval_src(lyt_state *L, const char *name, const char *text, size_t len) {
  const lytP_node *s = parse(L, lytI_new_src(L, name, text, len));
  if (!s || s->kind != N_EXPRSTMT || s->next)
    lytI_error(L, s ? s->loc : L->errloc, LYT_ERRSYNTAX, "lyt_eval: the text must be one expression");
  L->errloc = s->loc;
  return lytI_eval_expr(L, s->a);
}

/* Opened without blocking (a FIFO or a device would wait for a writer
** forever), and only if it is a regular file. */
static FILE *open_regular(const char *path, const char **why) {
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) { *why = "cannot open"; return NULL; }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    *why = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file";
    return NULL;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) { close(fd); *why = "cannot open"; }
  return f;
}

/* Read a whole file into the scratch arena; NULL with errno-style reason. */
static char *read_file(lyt_state *L, const char *path, size_t *len, const char **why) {
  FILE *f = open_regular(path, why);
  if (!f) return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      if (ncap > LYT_MAX_FILE + 1) ncap = LYT_MAX_FILE + 1;
      if (ncap == cap) { fclose(f); *why = "file too large (limit 16 MiB)"; return NULL; }
      char *nb = lytA_alloc(&L->scratch, ncap);
      if (!nb) {  /* close before the error unwinds */
        fclose(f);
        lytS_fail_alloc(&L->cx, &L->scratch);
      }
      if (n) memcpy(nb, buf, n);
      buf = nb;
      cap = ncap;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { *why = "read error"; return NULL; }
  *len = n;
  return buf;
}

/* [name] is what messages call the file: a stdlib file is "stdlib/x.lyt"
** wherever it is installed, so diagnostics do not depend on the machine. */
static int run_file_as(lyt_state *L, const char *path, const char *name, int lib, lyt_loc at) {
  size_t len;
  const char *why = NULL;
  lytA_mark m = lytA_getmark(&L->scratch);
  char *text = read_file(L, path, &len, &why);
  if (!text) lytI_error(L, at, LYT_ERRFILE, "%s: %s", path, why);
  lytL_src *src = lytI_new_src(L, name, text, len);
  src->lib = lib;
  lytA_release(&L->scratch, m);
  run_statements(L, parse(L, src));
  return LYT_OK;
}

int lytI_run_file(lyt_state *L, const char *path, lyt_loc at) {
  return run_file_as(L, path, path, 0, at);
}

/* Whether something is there to import (reading it says what it is). */
static int readable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The importing file's folder first, then the stdlib folder; *name is
** how messages will call the file, *in_lib whether it is the stdlib's. */
static const char *resolve(lyt_state *L, const lytP_node *s, const char **name, int *in_lib) {
  const char *from = s->loc.src ? s->loc.src->name : "";
  const char *slash = strrchr(from, '/');
  size_t dl = slash ? (size_t)(slash - from + 1) : 0;
  char *p = scratch(L, dl + (size_t)s->len + 1);
  memcpy(p, from, dl);
  memcpy(p + dl, s->str, (size_t)s->len + 1);
  if (s->str[0] == '/' || readable(p)) return *name = s->str[0] == '/' ? s->str : p;
  const char *lib = L->cfg.stdlib_path ? L->cfg.stdlib_path : "";
  size_t ll = strlen(lib);
  p = scratch(L, ll + (size_t)s->len + 2);
  snprintf(p, ll + (size_t)s->len + 2, "%s/%s", lib, s->str);
  if (ll && readable(p)) {
    size_t nl = (size_t)s->len + 8;
    char *shown = lytA_alloc(&L->code, nl);
    if (!shown) lytI_code_fail(L, s->loc);
    snprintf(shown, nl, "stdlib/%s", s->str);
    *name = shown;
    *in_lib = 1;
    return p;
  }
  lytI_error(L, s->loc, LYT_ERRFILE, "cannot find '%s' to import", s->str);
}

void lytI_do_import(lyt_state *L, const lytP_node *s) {
  if (L->frame) lytI_error(L, s->loc, LYT_ERRRUN, "'import' is only allowed at the top level");
  const char *shown = NULL;
  int lib = 0;
  const char *path = resolve(L, s, &shown, &lib);
  /* One file, however its path is spelled (a.lyt, ./sub/../a.lyt, a link). */
  char *real = realpath(path, NULL);
  const char *key = lytI_intern(L, real ? real : path, strlen(real ? real : path));
  free(real);
  if (!key) lytI_code_fail(L, s->loc);
  for (lytI_import *i = L->imports; i; i = i->next)
    if (i->path == key) return;  /* once only: also ends import cycles */
  lytI_import *imp = lytA_alloc(&L->code, sizeof *imp);
  if (!imp) lytI_code_fail(L, s->loc);
  imp->path = key;
  imp->next = L->imports;
  L->imports = imp;
  int echo = L->echo;
  L->echo = 0;  /* an imported file is a library, not REPL input */
  run_file_as(L, path, shown, lib, s->loc);
  L->echo = echo;
}

/* The stdlib defines Triton's encodings; a builtin or a host that needs
** one of its functions imports the file when the script has not: from the
** stdlib's own folder (a file of that name beside the script is not it),
** and at the top level even from inside a call, as if the script had
** written the import first. An error inside unwinds the whole statement,
** which leaves no frame behind anyway. */
lyt_value *lytI_stdlib_global(lyt_state *L, const char *name, const char *file) {
  const char *key = lytI_intern(L, name, strlen(name));
  if (!key) lytI_code_fail(L, L->errloc);
  lyt_value *f = lytI_getglobal(L, key);
  if (f) return f;
  const char *dir = L->cfg.stdlib_path && *L->cfg.stdlib_path ? L->cfg.stdlib_path : ".";
  char *chunk = scratch(L, strlen(dir) + strlen(file) + 32);
  char *src = scratch(L, strlen(file) + 16);
  sprintf(chunk, "%s/<import %s>", dir, file);
  int n = sprintf(src, "import \"%s\"\n", file);
  lytI_frame *frame = L->frame;
  L->frame = NULL;
  lytI_run_src(L, chunk, src, (size_t)n);
  L->frame = frame;
  return lytI_getglobal(L, key);
}
