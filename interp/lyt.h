/*
** lyt.h: the embedding API of lyt, a language for tensor layouts.
**
** A host opens a state, runs source text or files in it, and reads back
** the status and, on failure, the error. The library never prints,
** exits or aborts on its own: output goes through the write callback of
** the config, errors come back as status codes. States share nothing,
** so two states may be used from two threads at once.
*/
#ifndef LYT_H
#define LYT_H

#include <stddef.h>
#include <stdint.h>

/* Status codes of every entry point (the cores use them too, through
** status.h); this header stands alone, so it is the one installed. */
#define LYT_OK        0  /* success */
#define LYT_ERRSYNTAX 1  /* lexical or grammatical error */
#define LYT_ERRRUN    2  /* evaluation error: type, arity, algebra, range */
#define LYT_ERRMEM    3  /* allocation failed or memory limit reached */
#define LYT_ERRFILE   4  /* a file could not be read */
#define LYT_ERRLIMIT  5  /* a resource limit (depth, steps, size) was hit */

/* realloc-like: nsize 0 frees ptr; osize is ptr's size (0 when new). */
typedef void *(*lyt_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

#define LYT_VERSION "0.1.0"

typedef struct lyt_state lyt_state;

/* Receives the text of print and show. [s] is not NUL-terminated and is
** valid only during the call. */
typedef void (*lyt_write_fn)(void *ud, const char *s, size_t n);

/* ======================================================================
** Configuration
** ==================================================================== */

typedef struct lyt_config {
  lyt_alloc_fn alloc;      /* default: realloc/free */
  void *alloc_ud;
  lyt_write_fn write;      /* default: NULL, output is discarded */
  void *write_ud;
  const char *stdlib_path; /* where `import` looks after the importing file's
                              folder; default: LYT_STDLIB_DIR; copied */
  size_t mem_limit;        /* bytes one statement may allocate; default 1 GiB */
  int max_depth;           /* nested calls; default 200 */
  int64_t max_steps;       /* evaluation steps per top-level statement;
                              default 100 million */
} lyt_config;

/* Fill [c] with the defaults documented above. */
void lyt_config_init(lyt_config *c);

/* ======================================================================
** States
** ==================================================================== */

/* A new state with the builtins loaded; [c] may be NULL for defaults and
** is copied. NULL only when memory cannot be had. */
lyt_state *lyt_open(const lyt_config *c);

/* Free everything the state holds. NULL is allowed. */
void lyt_close(lyt_state *L);

/* ======================================================================
** Running code
** ==================================================================== */

/* Run [src] (NUL-terminated; copied) as a chunk called [name] (used in
** messages; NULL means "<string>"). Returns LYT_OK or an LYT_ERR code;
** statements before the failing one keep their effects. */
int lyt_dostring(lyt_state *L, const char *src, const char *name);

/* Run the file at [path]. LYT_ERRFILE when it cannot be read. */
int lyt_dofile(lyt_state *L, const char *path);

/* As lyt_dostring, but the value of a bare expression statement is
** written out, as a REPL does. */
int lyt_doline(lyt_state *L, const char *src, const char *name);

/* After LYT_ERRSYNTAX: 1 when the only problem was that the input ended
** early (an open bracket, a dangling operator), so more lines may
** complete it. */
int lyt_incomplete(const lyt_state *L);

/* ======================================================================
** Kernels
** ==================================================================== */

/* Write, through the write callback, the code of every kernel bound to a
** global (ordered by kernel name) for [target]: "c", "ptx", "amdgcn", or
** "expect" (what each kernel must leave in its output, for test
** harnesses). [arch] picks the target's variant ("sm_80", "gfx942"; NULL:
** the default). LYT_ERRRUN when there is no kernel or the target is
** unknown. */
int lyt_emit(lyt_state *L, const char *target, const char *arch);

/* ======================================================================
** Errors
** ==================================================================== */

/* The message of the last error, without location; "" if none. Any of
** [file], [line], [col] may be NULL; the file is "" when unknown. Valid
** until the next call on [L]. */
const char *lyt_error(const lyt_state *L, const char **file, int *line, int *col);

/* The last error formatted for a person: "file:line:col: error: msg",
** the source line and a caret, for every error of a syntax failure.
** Valid until the next call on [L]. */
const char *lyt_diagnostic(const lyt_state *L);

#endif
