/*
** eval/load.c: chunks, files, and imports as modules (each file's globals
** apart). A syntax error anywhere stops a chunk before anything runs;
** then it runs one top-level statement at a time, each with its own
** scratch-arena mark (parse_and_run). Sources stay in the code arena:
** functions, messages and help() read them.
*/
/* realpath() is X/Open, beyond the POSIX base the build asks for. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/image.h"
#include "lang/parse.h"
#include "parser.h"
#include "interp/eval/code.h"
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

#ifdef LYT_VERIFY_TEMPLATES
const lytP_node *lytI_parse_line(lyt_state *L, const lytL_src *src, const char *at, int n,
                                 int32_t line) {
  lytL_src *view = lytS_alloc(&L->cx, sizeof *view);
  char *text = lytS_alloc(&L->cx, (size_t)n + 1);
  memcpy(text, at, (size_t)n);
  text[n] = 0;
  *view = *src;
  view->text = text, view->len = (size_t)n, view->first_line = line;
  lytP_ctx p;
  lex_init(&p, L, view);
  p.line = line;
  return lytP_parse(&p) == LYT_OK ? p.stmts.head : NULL;
}
#endif

/* line: a REPL line, which decided itself whether more lines may come, so
** a text that ends early is no longer "incomplete" (lyt_incomplete). */
static const lytP_node *parse(lyt_state *L, const lytL_src *src, int line) {
  lytP_ctx p;
  lex_init(&p, L, src);
  /* the tree outlives the statement; L->cx itself allocates it, so running
  ** out of memory reaches lytI_protect with its code (which resets the arena) */
  lytA_arena *was = L->cx.arena;
  L->cx.arena = &L->code;
  int st = lytP_parse(&p);
  L->cx.arena = was;
  if (st == LYT_OK) return p.stmts.head;
  L->incomplete = p.incomplete && !line;
  L->errloc = p.errloc;
  L->cx.code = LYT_ERRSYNTAX;
  snprintf(L->cx.msg, sizeof L->cx.msg, "%s", p.errmsg);
  L->diag_pending = p.diag.p;  /* every error, already formatted */
  longjmp(*L->cx.jb, 1);
}

/* s, with its code (NULL: compiled here) */
static void exec(lyt_state *L, const lytP_node *s, const lytC_code *code) {
  lytA_mark m = lytA_getmark(&L->scratch);
  if (L->stmts == 0) L->steps = 0;
  L->errloc = s->loc;
  L->stmts++;
  lytI_exec(L, s, code);
  L->stmts--;
  lytA_release(&L->scratch, m);
}

/* on_stmt: a statement the parser made; line: the line it fills */
static void run_statement(void *ud, const lytP_node *s, const char *line) {
  lyt_state *L = ud;
  const lytC_code *code = NULL;
  const lytP_node *t = line ? lytI_template_make(L, s, line, &code) : NULL;
  exec(L, t ? t : s, code);
}

/* on_line: a line whose statement a template has */
static int run_template(void *ud, const lytL_src *src, const char *at, int32_t line,
                        lytL_key *key) {
  lyt_state *L = ud;
  const lytC_code *code = NULL;
  int len = 0;
  const lytP_node *s = lytI_template_find(L, src, at, line, key, &code, &len);
  if (!s) return 0;
  exec(L, s, code);
  return len;
}

static void run_statements(lyt_state *L, const lytP_node *first) {
  for (const lytP_node *s = first; s; s = s->next) exec(L, s, NULL);
}

/* A chunk that parses is run a statement at a time as it is parsed, each
** statement's tree in the scratch arena and given back when it has run
** (one that makes a function is copied to the code arena first): memory
** in proportion to the longest statement, not to the file, and each tree
** still in the cache when it runs. Whether it parses is decided first by
** the parser's automaton alone, since no statement may run before an
** error further on is reported; one that does not is parsed whole, which
** reports every error. */
static void parse_and_run(lyt_state *L, const lytL_src *src) {
  lytP_ctx p;
  lytA_mark m = lytA_getmark(&L->scratch);
  lex_init(&p, L, src);
  p.keys = 1;
  int ok = lytP_valid(&p);
  if (!ok) {
    lytA_release(&L->scratch, m);
    run_statements(L, parse(L, src, 0));
    return;
  }
  lytP_line_keys keys = p.line_keys;  /* they stay while the text runs */
  lex_init(&p, L, src);
  p.on_stmt = run_statement;
  p.on_line = run_template;
  p.on_stmt_ud = L;
  p.keep = &L->code;
  p.line_keys = keys;
  /* an error here would be lytP_valid's mistake: the whole parse reports it */
  if (lytP_parse(&p) != LYT_OK) parse(L, src, 0);
  lytA_release(&L->scratch, m);
}

/* A source whose text t[0..len] (ending in a 0) is in the code arena. */
static lytL_src *src_of(lyt_state *L, const char *name, const char *t, size_t len) {
  lytL_src *src = lytA_alloc(&L->code, sizeof *src);
  char *nm = lytA_alloc(&L->code, strlen(name) + 1);
  if (!src || !nm) lytI_code_fail(L, L->errloc);
  *src = (lytL_src){ strcpy(nm, name), t, len, 0, 0, NULL };
  return src;
}

lytL_src *lytI_new_src(lyt_state *L, const char *name, const char *text, size_t len) {
  char *t = lytA_alloc(&L->code, len + 1);
  if (!t) lytI_code_fail(L, L->errloc);
  memcpy(t, text, len);
  t[len] = 0;
  return src_of(L, name, t, len);
}

void lytI_run_src(lyt_state *L, const char *name, const char *text, size_t len) {
  parse_and_run(L, lytI_new_src(L, name, text, len));
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
    pd->src = (lytL_src){ strcpy(nm, name), "", 0, 0, 0, NULL };
    pd->cap = pd->cur = pd->linestart = 0;
    pd->line = 1, pd->depth = pd->braces = pd->fn = 0;
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
  do {
    lytL_lex(&p, &t);
    pd->braces += t.type == TK_LBRACE ? 1 : t.type == TK_RBRACE && pd->braces > 0 ? -1 : 0;
    pd->fn |= t.type == TK_FN;
  } while (!p.nerr && t.type && lytP_probe_feed(&pd->probe, t.type));
  /* More lines only while a bracket or a block is open, or a function
  ** is being written (fn f(x) = on one line, its body on the next): a
  ** statement that ends early otherwise (x = 1 +) is an error now. */
  if (!p.nerr && t.type == 0 && !lytP_probe_ends(&pd->probe)
      && (p.depth > 0 || pd->braces > 0 || pd->fn)) {
    pd->cur = (size_t)(p.cur - pd->src.text), pd->linestart = (size_t)(p.linestart - pd->src.text);
    pd->line = p.line, pd->depth = p.depth;
    pd->active = L->incomplete = 1;
    pd->tail = (lytL_src){ pd->src.name, p.linestart, pd->src.len - pd->linestart, p.line, 0,
                          NULL };
    t.loc.src = &pd->tail;
    lytI_error(L, t.loc, LYT_ERRSYNTAX, "unexpected end of input");
  }
  /* Whole, or wrong somewhere: the one real parse runs it or says why. */
  const lytL_src *src = lytI_new_src(L, pd->src.name, pd->src.text, pd->src.len);
  lytA_free(&pd->arena);
  run_statements(L, parse(L, src, 1));
}

/* The value of a chunk that is one expression (lyt_eval). */
lyt_value lytI_eval_src(lyt_state *L, const char *name, const char *text, size_t len) {
  const lytP_node *s = parse(L, lytI_new_src(L, name, text, len), 0);
  /* `fn f(x) = ...` alone is a definition only as a statement */
  int fn = s && s->kind == N_FNDEF;
  if (!s || (s->kind != N_EXPRSTMT && !fn) || s->next)
    lytI_error(L, s ? s->loc : L->errloc, LYT_ERRSYNTAX, "lyt_eval: the text must be one expression");
  L->errloc = s->loc;
  return lytI_eval_expr(L, fn ? s : s->a);
}

/* Opened without blocking (a FIFO or a device would wait for a writer
** forever), and only if it is a regular file. *size: its size when
** opened, a first guess of what reading it gives. */
static int open_regular(const char *path, const char **why, size_t *size) {
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) { *why = "cannot open"; return -1; }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    *why = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file";
    return -1;
  }
  *size = st.st_size > 0 ? (size_t)st.st_size : 0;
  return fd;
}

/* Bytes read into buf[0..cap) until it is full or the file ends; -1 on
** an error. */
static ssize_t fill(int fd, char *buf, size_t cap) {
  size_t n = 0;
  while (n < cap) {
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    n += (size_t)r;
  }
  return (ssize_t)n;
}

/* Read a whole file. Its text goes straight into the code arena, where a
** script's text stays while it runs, when the file holds no more than
** its size said: a page is then written once, not read into a buffer
** and copied (on a virtual machine a page's first touch costs about as
** much as running five lines). A file that grows while it is read, or
** whose size reads 0 (/proc), goes on into the scratch arena, *kept is 0
** and the code arena is given back what it took; so it is when reading
** fails, and a file that says it is too large takes nothing. NULL with a
** reason. */
static char *read_file(lyt_state *L, const char *path, size_t *len, const char **why,
                       int *kept) {
  size_t size = 0;
  int fd = open_regular(path, why, &size);
  if (fd < 0) return NULL;
  static const char too_large[] = "file too large (limit 16 MiB)";
  if (size > LYT_MAX_FILE) { close(fd); *why = too_large; return NULL; }
  lytA_mark at = lytA_getmark(&L->code);
  size_t cap = size + 1;
  char *buf = lytA_alloc(&L->code, cap);
  if (!buf) {  /* close before the error unwinds */
    close(fd);
    lytI_code_fail(L, L->errloc);
  }
  ssize_t r = fill(fd, buf, cap);
  size_t n = r > 0 ? (size_t)r : 0;
  *kept = 1;
  while (r >= 0 && n == cap) {
    size_t ncap = cap < 4096 ? 4096 : cap * 2;
    if (ncap > LYT_MAX_FILE + 1) ncap = LYT_MAX_FILE + 1;
    char *nb = ncap == cap ? NULL : lytA_alloc(&L->scratch, ncap);
    if (nb) memcpy(nb, buf, n);
    if (*kept) lytA_release(&L->code, at);
    *kept = 0;
    if (!nb) {  /* close before the error unwinds */
      close(fd);
      if (ncap == cap) { *why = too_large; return NULL; }
      lytS_fail_alloc(&L->cx, &L->scratch);
    }
    buf = nb;
    cap = ncap;
    r = fill(fd, buf + n, cap - n);
    n += r > 0 ? (size_t)r : 0;
  }
  close(fd);
  if (r < 0) {
    if (*kept) lytA_release(&L->code, at);
    *why = "read error";
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

/* A stdlib file's tree comes from its build-time image when its text is
** the one the image was made from (lang/image.h). */
static const lytP_node *from_image(lyt_state *L, lytL_src *src) {
  const lytP_image *im = lytP_image_of(src);
  if (!im) return parse(L, src, 0);
  lytP_imaged *z = lytA_alloc(&L->code, sizeof *z);
  if (!z) lytI_code_fail(L, L->errloc);
  *z = (lytP_imaged){ im, &L->cx, &L->code, intern_cb, L };
  return lytP_image_load(src, z);
}

/* [name] is what messages call the file: a stdlib file is "stdlib/x.lyt"
** wherever it is installed, so diagnostics do not depend on the machine. */
static int run_file_as(lyt_state *L, const char *path, const char *name, int lib, lyt_loc at) {
  size_t len;
  const char *why = NULL;
  lytA_mark m = lytA_getmark(&L->scratch);
  int kept;
  char *text = read_file(L, path, &len, &why, &kept);
  if (!text) lytI_error(L, at, LYT_ERRFILE, "%s: %s", path, why);
  lytL_src *src = kept ? src_of(L, name, text, len) : lytI_new_src(L, name, text, len);
  src->lib = lib;
  lytA_release(&L->scratch, m);
  if (lib) run_statements(L, from_image(L, src));
  else parse_and_run(L, src);
  return LYT_OK;
}

int lytI_run_file(lyt_state *L, const char *path, lyt_loc at) {
  return run_file_as(L, path, path, 0, at);
}

/* [dir]/[name], or [dir]/[name].lyt when there is no such file: a file
** found, or a name that is there but no file (reading it says what it is). */
static const char *try_in(lyt_state *L, const char *dir, size_t dl, const lytP_node *s) {
  size_t n = (size_t)s->len;
  char *p = scratch(L, dl + n + 6);
  memcpy(p, dir, dl);
  if (dl && dir[dl - 1] != '/') p[dl++] = '/';
  memcpy(p + dl, s->str, n + 1);
  struct stat st;
  int there = stat(p, &st) == 0;
  if (there && !S_ISDIR(st.st_mode)) return p;
  if (n < 4 || strcmp(s->str + n - 4, ".lyt") != 0) {
    char *q = scratch(L, dl + n + 6);
    memcpy(q, p, dl + n);
    memcpy(q + dl + n, ".lyt", 5);
    if (stat(q, &st) == 0) return q;
  }
  return there ? p : NULL;
}

/* A stdlib file is called "stdlib/x.lyt" wherever it is installed. */
static const char *lib_name(lyt_state *L, const char *path, lyt_loc at) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t nl = strlen(base) + 8;
  char *shown = lytA_alloc(&L->code, nl);
  if (!shown) lytI_code_fail(L, at);
  snprintf(shown, nl, "stdlib/%s", base);
  return shown;
}

static const char *in_stdlib(lyt_state *L, const lytP_node *s, const char *p, const char **name,
                             int *in_lib) {
  *name = lib_name(L, p, s->loc);
  *in_lib = 1;
  return p;
}

/* The importing file's folder (a stdlib file's is the stdlib folder), then
** each folder of L->cfg.path, then the stdlib folder. *name is how
** messages will call the file, *in_lib whether it is the stdlib's. */
static const char *resolve(lyt_state *L, const lytP_node *s, const char **name, int *in_lib) {
  if (s->str[0] == '/') return *name = s->str;
  const lytL_src *src = s->loc.src;
  const char *lib = L->cfg.stdlib_path, *p;
  if (src && src->lib) {
    if ((p = try_in(L, lib, strlen(lib), s))) return in_stdlib(L, s, p, name, in_lib);
  } else {
    const char *from = src ? src->name : "", *slash = strrchr(from, '/');
    if ((p = try_in(L, from, slash ? (size_t)(slash - from + 1) : 0, s))) return *name = p;
  }
  for (const char *d = L->cfg.path; *d;) {
    size_t dl = strcspn(d, ":");
    if (dl && (p = try_in(L, d, dl, s))) return *name = p;
    d += dl + (d[dl] == ':');
  }
  if (*lib && (p = try_in(L, lib, strlen(lib), s))) return in_stdlib(L, s, p, name, in_lib);
  lytI_error(L, s->loc, LYT_ERRFILE, "cannot find '%s' to import", s->str);
}

static lytI_module *find_module(lytI_module *m, const char *key) {
  while (m && m->key != key) m = m->next;
  return m;
}

/* The module of the file at [path], run now if it has not been: at the top
** level, with globals of its own, quietly (a library, not REPL input).
** One file, however its path is spelled (a.lyt, ./sub/../a.lyt, a link).
** A file that is still running (an import cycle) gives what it has bound
** so far; one that failed is forgotten, so importing it again runs it. */
static lytI_module *load_module(lyt_state *L, const char *path, const char *shown, int lib,
                                lyt_loc at) {
  char *real = realpath(path, NULL);
  const char *key = lytI_intern(L, real ? real : path, strlen(real ? real : path));
  free(real);
  if (!key) lytI_code_fail(L, at);
  lytI_module *m = find_module(L->modules, key);
  if (!m) m = find_module(L->loading, key);
  if (m) return m;
  if (!(m = lytA_alloc(&L->code, sizeof *m))) lytI_code_fail(L, at);
  memset(m, 0, sizeof *m);
  m->key = key;
  m->next = L->loading;
  L->loading = m;
  lytI_frame *frame = L->frame;
  lytI_table *mod = L->mod;
  int echo = L->echo;
  L->frame = NULL, L->mod = &m->globals, L->echo = 0;
  run_file_as(L, path, shown, lib, at);
  L->frame = frame, L->mod = mod, L->echo = echo;
  L->loading = m->next;
  m->next = L->modules;
  L->modules = m;
  return m;
}

/* Names starting with _ are the module's own. */
static int public_name(const char *name) { return name && name[0] != '_'; }

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* `import "f" as ns`: a record of the module's public names, in
** alphabetical order (ns.blocked(...)). */
static lyt_value namespace_of(lyt_state *L, const lytI_module *m) {
  const lytI_table *t = &m->globals;
  lyt_value r = { .kind = LYT_VRECORD };
  r.u.rec.name = scratch(L, sizeof *r.u.rec.name * (t->count + 1));
  r.u.rec.e = scratch(L, sizeof *r.u.rec.e * (t->count + 1));
  for (uint32_t i = 0; i < t->cap; i++)
    if (public_name(t->slot[i].name)) r.u.rec.name[r.u.rec.n++] = t->slot[i].name;
  qsort((void *)r.u.rec.name, (size_t)r.u.rec.n, sizeof *r.u.rec.name, by_name);
  for (int32_t i = 0; i < r.u.rec.n; i++) r.u.rec.e[i] = *lytI_tget(t, r.u.rec.name[i]);
  return r;
}

/* import "f": the module's public names bound in the importer's globals
** (their functions still see the module's own); import "f" as ns: ns. */
void lytI_do_import(lyt_state *L, const lytP_node *s) {
  if (L->frame) lytI_error(L, s->loc, LYT_ERRRUN, "'import' is only allowed at the top level");
  const char *shown = NULL;
  int lib = 0;
  const char *path = resolve(L, s, &shown, &lib);
  const lytI_module *m = load_module(L, path, shown, lib, s->loc);
  if (s->b) {
    lytI_tset(L, L->mod, s->b->str, lytI_copy_to(L, &L->perm, namespace_of(L, m)));
    return;
  }
  const lytI_table *t = &m->globals;
  for (uint32_t i = 0; i < t->cap; i++)
    if (public_name(t->slot[i].name)) lytI_tset(L, L->mod, t->slot[i].name, t->slot[i].v);
}

/* The stdlib defines Triton's encodings; a builtin or a host that needs
** one of its functions gets it from the stdlib's own module (a file of
** that name beside the script is not it, and what the script binds does
** not change it), importing the file if nothing has yet. */
const lytI_table *lytI_stdlib_module(lyt_state *L, const char *file) {
  const char *dir = *L->cfg.stdlib_path ? L->cfg.stdlib_path : ".";
  size_t n = strlen(dir) + strlen(file) + 16;
  char *path = scratch(L, n);
  snprintf(path, n, "%s/%s", dir, file);
  return &load_module(L, path, lib_name(L, path, L->errloc), 1, L->errloc)->globals;
}

lyt_value *lytI_stdlib_global(lyt_state *L, const char *name, const char *file) {
  const char *key = lytI_intern(L, name, strlen(name));
  if (!key) lytI_code_fail(L, L->errloc);
  return lytI_tget(lytI_stdlib_module(L, file), key);
}
