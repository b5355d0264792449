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
** base/status.h); this header stands alone, so it is the one installed. */
#define LYT_OK        0  /* success */
#define LYT_ERRSYNTAX 1  /* lexical or grammatical error */
#define LYT_ERRRUN    2  /* evaluation error: type, arity, algebra, range */
#define LYT_ERRMEM    3  /* allocation failed or memory limit reached */
#define LYT_ERRFILE   4  /* a file could not be read */
#define LYT_ERRLIMIT  5  /* a resource limit (depth, steps, size) was hit */

/* realloc-like: nsize 0 frees ptr; osize is ptr's size (0 when new). */
typedef void *(*lyt_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

#define LYT_VERSION "0.1.0"

/* What a shared library exports: these functions and nothing else (the
** library is built with hidden visibility). */
#if defined(__GNUC__) || defined(__clang__)
#define LYT_API __attribute__((visibility("default")))
#else
#define LYT_API
#endif

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
  const char *stdlib_path; /* the stdlib's folder, where `import` looks last;
                              default: LYT_STDLIB_DIR; copied */
  size_t mem_limit;        /* bytes one statement may allocate; default 1 GiB */
  size_t max_memory;       /* bytes the whole state may hold (code, bindings,
                              the host stack, the running statement); default
                              4 GiB, 0 none */
  int max_depth;           /* nested calls of lyt functions; default 200,000 (they
                              use the scratch arena, not the C stack) */
  int64_t max_steps;       /* evaluation steps per top-level statement;
                              default 100 million */
  int no_file_writes;      /* nonzero: svg() and other writers refuse; for
                              untrusted scripts (fuzzing, services) */
  size_t max_stack;        /* bytes of C stack an entry point may use below
                              its own frame for nesting (expressions, calls,
                              nested values); default (and 0) 256 KiB, which
                              a host thread with a 512 KiB stack can afford
                              (1 MiB in an AddressSanitizer build) */
  const char *path;        /* folders `import` searches after the importing
                              file's and before stdlib_path, separated by ':'
                              (the lyt command's LYT_PATH); default none;
                              copied */
  size_t template_memory;  /* bytes for templates: a script's line that differs
                              from two earlier ones only in its numbers runs
                              their statement's code, not parsed again;
                              default 1 MiB, 0 none; none either when
                              max_memory is under 64 times this */
} lyt_config;

/* Fill [c] with the defaults documented above. */
LYT_API void lyt_config_init(lyt_config *c);

/* ======================================================================
** States
** ==================================================================== */

/* A new state with the builtins loaded; [c] may be NULL for defaults and
** is copied. NULL only when memory cannot be had. */
LYT_API lyt_state *lyt_open(const lyt_config *c);

/* Free everything the state holds. NULL is allowed. */
LYT_API void lyt_close(lyt_state *L);

/* ======================================================================
** Running code
** ==================================================================== */

/* Run [src] (NUL-terminated; copied) as a chunk called [name] (used in
** messages; NULL means "<string>"). Returns LYT_OK or an LYT_ERR code;
** statements before the failing one keep their effects. */
LYT_API int lyt_dostring(lyt_state *L, const char *src, const char *name);

/* As lyt_dostring, for [len] bytes at [buf], which need not end in NUL:
** a NUL byte inside is a located syntax error, not the end of the text. */
LYT_API int lyt_dobuffer(lyt_state *L, const char *buf, size_t len, const char *name);

/* Run the file at [path]. LYT_ERRFILE when it cannot be read. */
LYT_API int lyt_dofile(lyt_state *L, const char *path);

/* One line typed at a REPL: as lyt_dostring, but the value of a bare
** expression statement is written out. A line that leaves a statement
** unfinished (an open bracket, a trailing operator) returns LYT_ERRSYNTAX
** with lyt_incomplete(L) set, and the state keeps it: the next call's line
** continues it. Pass each line once, not the lines so far; a statement of
** n lines costs time in proportion to its length. src NULL drops the lines
** of an unfinished statement (a REPL's Ctrl-C) and returns LYT_OK. */
LYT_API int lyt_doline(lyt_state *L, const char *src, const char *name);

/* Ask the running code to stop: its next evaluation step fails with
** LYT_ERRLIMIT "interrupted" (located), and the state goes on. Safe to call
** from a signal handler or another thread (it only sets a flag); a request
** made while nothing runs is dropped when the next entry point starts. */
LYT_API void lyt_interrupt(lyt_state *L);

/* The names a REPL may complete: each name bound at the top level (the
** script's globals, then the builtins) that starts with [prefix], passed to
** fn; a prefix "ns.f" gives "ns." and each field of the record bound to
** ns (a namespace: import "triton" as ns) that starts with f. Returns how
** many, or -1 when L or fn is NULL. Allocates nothing, runs nothing. */
typedef void (*lyt_name_fn)(void *ud, const char *name);
LYT_API int lyt_names(lyt_state *L, const char *prefix, lyt_name_fn fn, void *ud);

/* After LYT_ERRSYNTAX: 1 when the only problem was that the input ended
** early (an open bracket, a dangling operator), so more lines may
** complete it; also 1 while lyt_doline holds such lines. */
LYT_API int lyt_incomplete(const lyt_state *L);

/* ======================================================================
** Kernels
** ==================================================================== */

/* Write, through the write callback, the code of every kernel bound to a
** global (ordered by kernel name) for [target]: "c", "ptx", "amdgcn", or
** "expect" (what each kernel must leave in its output, for test
** harnesses). [arch] picks the target's variant ("sm_80", "gfx942"; NULL:
** the default). LYT_ERRRUN when there is no kernel or the target is
** unknown. */
LYT_API int lyt_emit(lyt_state *L, const char *target, const char *arch);

/* Explain a TTGIR module (the text of a Triton 3.6 dump; [name] is what
** diagnostics call it): push a record of its encodings, its
** convert_layouts with the mechanism Triton's lowering chooses, its
** shared-memory and global accesses and what lyt does not know; with
** [format] "text" or "json", push that form as a string instead. A
** malformed line is an error located in [text]. */
LYT_API int lyt_explain(lyt_state *L, const char *text, size_t len, const char *name,
                        const char *format);

/* The i-th code generator (from 0): its name ("ptx") and its variants,
** the default first ("sm_90 sm_80"). 0 past the last. */
LYT_API int lyt_target(int i, const char **name, const char **archs);

/* ======================================================================
** Values: the stack
**
** Values cross the boundary on a stack, as in Lua. Index 1 is the bottom
** of the current frame, -1 the top. Pushed values are copies: they stay
** valid, and pointers read from them stay valid, until they are popped.
** Every function returns a status; on failure the stack is as before the
** call and lyt_error says why (one exception: running out of memory while
** the result itself is pushed, see docs/embedding.md). Inside a C function called from lyt the
** frame holds just its arguments, 1..nargs.
** ==================================================================== */

/* What lyt_type reports. */
#define LYT_TNONE     (-1) /* not a valid index */
#define LYT_TNIL      0
#define LYT_TBOOL     1
#define LYT_TINT      2
#define LYT_TSTRING   3
#define LYT_TTUPLE    4
#define LYT_TRECORD   5    /* {name: value, ...}; Triton encodings are records */
#define LYT_TLAYOUT   6    /* a stride layout, swizzled or not */
#define LYT_TLINEAR   7    /* a linear layout over GF(2) */
#define LYT_TAXE      8
#define LYT_TNESTED   9    /* an IREE nested layout */
#define LYT_TKERNEL   10
#define LYT_TFUNCTION 11   /* lyt, builtin or C */
#define LYT_TOTHER    12   /* swizzle functors, index values, iters, ... */

LYT_API int lyt_gettop(const lyt_state *L);
/* Pop down to [n] values (n >= 0), or push nils up to n. */
LYT_API int lyt_settop(lyt_state *L, int n);
#define lyt_pop(L, n) lyt_settop((L), lyt_gettop(L) - (n))
LYT_API int lyt_type(const lyt_state *L, int idx);
/* The kind's name as lyt's messages say it ("linear layout"). */
LYT_API const char *lyt_typename(const lyt_state *L, int idx);

/* Push a copy of the value at idx. */
LYT_API int lyt_pushvalue(lyt_state *L, int idx);
LYT_API int lyt_push_nil(lyt_state *L);
LYT_API int lyt_push_bool(lyt_state *L, int b);
LYT_API int lyt_push_int(lyt_state *L, int64_t i);
LYT_API int lyt_push_string(lyt_state *L, const char *s);
/* Pop n values, push the tuple of them (the first popped is the last). */
LYT_API int lyt_push_tuple(lyt_state *L, int n);
/* Pop n values, push the record {names[0]: ..., names[n-1]: ...}. */
LYT_API int lyt_push_record(lyt_state *L, int n, const char *const *names);
/* Push shape:stride with rank flat modes. */
LYT_API int lyt_push_layout(lyt_state *L, int rank, const int64_t *shape, const int64_t *stride);
/* Pop a stride and a shape (ints or nested tuples, congruent); push the
** layout shape:stride. */
LYT_API int lyt_make_layout(lyt_state *L);

/* A linear layout in Triton's terms: in-dims and out-dims (minor first)
** with log2 sizes, and the image of every input bit. Bits are numbered
** flat: in[0]'s bits first, lowest first. */
#define LYT_LINEAR_MAXDIMS 16
#define LYT_LINEAR_MAXBITS 64
typedef struct lyt_linear {
  int nin, nout;
  const char *in[LYT_LINEAR_MAXDIMS];
  int in_log2[LYT_LINEAR_MAXDIMS];
  const char *out[LYT_LINEAR_MAXDIMS];
  int out_log2[LYT_LINEAR_MAXDIMS];
  int64_t basis[LYT_LINEAR_MAXBITS][LYT_LINEAR_MAXDIMS];  /* [bit][out dim] */
} lyt_linear;
/* Checked as Triton checks (sizes, components, names); need not be
** surjective. */
LYT_API int lyt_push_linear(lyt_state *L, const lyt_linear *d);

/* An Axe layout (D, R, O): shard iters most significant first, replica
** iters, and one offset per axis. An axis NULL or "m" is memory. */
#define LYT_AXE_MAXITERS 32
#define LYT_AXE_MAXAXES 16
typedef struct lyt_iter { int64_t extent, stride; const char *axis; } lyt_iter;
typedef struct lyt_axe {
  int nshard, nreplica, noffset;
  lyt_iter shard[LYT_AXE_MAXITERS];
  lyt_iter replica[LYT_AXE_MAXITERS];
  const char *offset_axis[LYT_AXE_MAXAXES];
  int64_t offset[LYT_AXE_MAXAXES];
} lyt_axe;
LYT_API int lyt_push_axe(lyt_state *L, const lyt_axe *d);

/* A C function lyt code can call: its arguments are the frame, 1..nargs.
** It returns LYT_OK with its result pushed last (nothing pushed: nil), or
** an error code, usually `return lyt_seterror(L, ...)`. */
typedef int (*lyt_cfunction)(lyt_state *L, int nargs, void *ud);
LYT_API int lyt_push_cfunction(lyt_state *L, const char *name, lyt_cfunction fn, void *ud);
/* Set the message a failing C function reports; returns LYT_ERRRUN. */
LYT_API int lyt_seterror(lyt_state *L, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reading. Each fails (LYT_ERRRUN) when the value is of another kind. */
LYT_API int lyt_to_int(lyt_state *L, int idx, int64_t *i);
LYT_API int lyt_to_bool(lyt_state *L, int idx, int *b);
LYT_API int lyt_to_string(lyt_state *L, int idx, const char **s, size_t *len);
/* Elements of a tuple, fields of a record, bytes of a string. */
LYT_API int lyt_len(lyt_state *L, int idx, int64_t *n);
LYT_API int lyt_get_index(lyt_state *L, int idx, int64_t i);           /* push t[i], 0-based */
LYT_API int lyt_get_field(lyt_state *L, int idx, const char *name);    /* push r.name */
/* A stride layout's flattened modes; [cap] is the room in shape/stride. */
LYT_API int lyt_to_layout(lyt_state *L, int idx, int cap, int *rank, int64_t *shape, int64_t *stride);
LYT_API int lyt_to_linear(lyt_state *L, int idx, lyt_linear *d);
LYT_API int lyt_to_axe(lyt_state *L, int idx, lyt_axe *d);
/* Push the printed form of a value (as `print` writes it) and point [s]
** at it. */
LYT_API int lyt_tostring(lyt_state *L, int idx, const char **s, size_t *len);

/* Globals and calls. */
LYT_API int lyt_getglobal(lyt_state *L, const char *name);  /* LYT_ERRRUN if unbound */
LYT_API int lyt_setglobal(lyt_state *L, const char *name);  /* pops the value */
/* The stack holds f, then nargs arguments: pop them, push f(args...). */
LYT_API int lyt_call(lyt_state *L, int nargs);
/* Push the value of one expression, e.g. "(4,2):(1,4)". */
LYT_API int lyt_eval(lyt_state *L, const char *expr, const char *name);

/* ======================================================================
** The cores, without source text
** ==================================================================== */

/* Apply the layout at [idx] (stride, swizzled or linear) to nin inputs: a
** stride layout takes one index or one coordinate per flat mode, a linear
** layout one value per in-dim. Writes *nout outputs (cap: room in out).
** Coordinates out of range are errors. */
LYT_API int lyt_apply(lyt_state *L, int idx, int nin, const int64_t *in, int cap, int *nout,
              int64_t *out);
/* Pop B, then A; push A o B (x -> A(B(x))). Stride layouts compose as
** CuTe's composition(A, B), linear layouts as Triton's B.compose(A). */
LYT_API int lyt_compose(lyt_state *L);
/* Pop A, push its inverse: a linear layout must be invertible, a stride
** layout a bijection onto [0, size). */
LYT_API int lyt_invert(lyt_state *L);
/* Pop a value, push its linear layout: a stride, Axe or nested layout
** converts exactly; a Triton encoding record (blocked(...), ...) is laid
** over [shape] by the stdlib's to_linear (imported if not yet). */
LYT_API int lyt_linear_of(lyt_state *L, int rank, const int64_t *shape);

/* What AxisInfo knows about the offsets of an access, per dim. */
#define LYT_AXIS_MAXRANK 4
typedef struct lyt_axisinfo {
  int rank;
  int64_t contiguity[LYT_AXIS_MAXRANK];
  int64_t divisibility[LYT_AXIS_MAXRANK];  /* a power of two */
  int64_t constancy[LYT_AXIS_MAXRANK];
} lyt_axisinfo;
/* The info of an index value (index_of(...), make_range(...)); exact:
** from its values rather than Triton's rules. */
LYT_API int lyt_to_axisinfo(lyt_state *L, int idx, int exact, lyt_axisinfo *info);
/* Elements one ld/st may move along [dim] (see vector_width in
** docs/language.md); elems_per_thread 0 means no limit. */
LYT_API int lyt_vector_width(lyt_state *L, const lyt_axisinfo *info, int dim, int elem_bytes,
                     int ptr_align, int64_t elems_per_thread, int64_t *width);
/* The code of the kernel at [idx] for [target] ("c", "ptx", "amdgcn")
** written into buf, NUL-terminated; *len gets its length. LYT_ERRLIMIT,
** with nothing written, when cap is too small: call with cap 0 to size. */
LYT_API int lyt_emit_kernel(lyt_state *L, int idx, const char *target, const char *arch, char *buf,
                    size_t cap, size_t *len);

/* ======================================================================
** Errors
** ==================================================================== */

/* The message of the last error, without location; "" if none. Any of
** [file], [line], [col] may be NULL; the file is "" when unknown. Valid
** until the next call on [L]. */
LYT_API const char *lyt_error(const lyt_state *L, const char **file, int *line, int *col);

/* The last error formatted for a person: "file:line:col: error: msg",
** the source line and a caret, for every error of a syntax failure.
** Valid until the next call on [L]. */
LYT_API const char *lyt_diagnostic(const lyt_state *L);

#endif
