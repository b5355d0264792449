/*
** eval/state.h: the interpreter's private state. Everything mutable in lyt
** hangs off one lyt_state; there are no globals.
*/
#ifndef LYT_STATE_H
#define LYT_STATE_H

#include <stdatomic.h>

#include "lang/ast.h"
#include "lang/parse.h"
#include "interp/eval/builtin.h"
#include "interp/lyt.h"

/* A binding in a table (globals, interned names) or a frame (locals). */
typedef struct lytI_slot {
  const char *name;         /* interned; NULL: empty slot */
  lyt_value v;
} lytI_slot;

typedef struct lytI_table {
  lytI_slot *slot;
  uint32_t cap, count;      /* cap is a power of two */
} lytI_table;

/* The interned names: each text once, so that names compare as pointers.
** A slot keeps its text's hash and length, so a lookup compares texts
** only where both agree and growing never hashes again. */
typedef struct lytI_name {
  const char *s;            /* NULL: an empty slot */
  uint32_t hash, len;
} lytI_name;

typedef struct lytI_names {
  lytI_name *slot;
  uint32_t cap, count;      /* cap is a power of two */
} lytI_names;

/* A user-defined function: its definition lives in the code arena. Its
** free names are looked up in the globals of the module that defined it,
** so what a script binds cannot change what a library function computes. */
typedef struct lytI_func {
  const char *name;
  lytI_table *mod;          /* its module's globals */
  const lytP_node *def;     /* N_FNDEF or N_FUNC: what it prints as */
  const lytP_node *params;  /* chain of N_PARAM */
  int32_t nparams;
  const char *const *pnames;  /* their names, for matching a call's arguments */
  const struct lytC_code *code;  /* its parameters and body, compiled (eval/code.h) at
                                    its first call; NULL before */
  lyt_loc loc;
  int inner;                /* made in a call: it does not see the caller's locals */
} lytI_func;

/* A call of a user function: its locals in order of binding, and where
** it was called (eval/eval.c's activation record runs its code). */
typedef struct lytI_frame {
  struct lytI_frame *up;    /* the caller's frame, NULL at top level */
  const lytI_func *fn;
  lyt_loc at;               /* where it was called: the notes of an error */
  lytI_slot *local;
  int32_t n, cap;
} lytI_frame;

/* A host function (lyt_push_cfunction); lives in the code arena. */
typedef struct lytI_cfunc {
  const char *name;
  lyt_cfunction fn;
  void *ud;
} lytI_cfunc;

/* An imported file: its top-level bindings, apart from every other
** file's. A file runs once per state; importing it again (from another
** file, or around a cycle) binds what it has so far. */
typedef struct lytI_module {
  const char *key;          /* its real path, interned */
  lytI_table globals;
  struct lytI_module *next;
} lytI_module;

struct lyt_state {
  lyt_config cfg;
  lytA_budget budget;       /* what the arenas below hold together (max_memory) */
  lytA_arena code;          /* sources, AST, names: for the life of the state */
  lytA_arena perm;          /* values bound to global names */
  lytA_arena scratch;       /* temporaries of the running top-level statement */
  lytS_ctx cx;              /* core context; its arena is the scratch arena */
  lytI_table globals;       /* the main script's names -> values (the REPL's, the host's) */
  lytI_table builtins;      /* the builtins, seen after any module's own names */
  lytI_names names;         /* interned names */
  lytI_table *mod;          /* globals of the code running: &globals or a module's */
  lytI_frame *frame;        /* innermost user call, NULL at top level */
  lytI_module *modules;     /* files imported */
  lytI_module *loading;     /* files being imported, innermost first */
  struct lytI_alias {       /* "#name = #ttg...." statements, in order */
    const char *name, *text;
    struct lytI_alias *next;
  } *aliases;
  struct lytI_templates *templates;  /* lines' shared code (eval/template.c); NULL until a
                                        script's second line */
  int depth;                /* nested user calls */
  int64_t steps;            /* evaluation steps of this top-level statement */
  atomic_int interrupted;   /* lyt_interrupt, from a signal handler or another
                               thread: stop at the next step */
  int stmts;                /* statements running: an import's or a host's nested
                               statements count against the outermost one's steps */
  int echo;                 /* write the value of bare expressions */
  int incomplete;
  lyt_loc errloc;           /* where the last error points */
  char *diag;               /* formatted last error (host allocator) */
  size_t diagcap;
  const char *diag_pending; /* a syntax failure's formatted errors */
  /* The host's value stack (eval/api_stack.c): values live in their own arena;
  ** a slot keeps the arena's mark before its value, so popping is a release. */
  lytA_arena host;
  struct lytI_hostslot { lyt_value v; lytA_mark mark; } *stk;
  int top, cap, base;       /* base: first slot of the current C frame */
  char cmsg[LYT_MSG_MAX];   /* a C function's error (lyt_seterror) */
  /* lyt_doline's unfinished statement (eval/load.c): its lines so far, where
  ** the lexer stopped in them and the parser's automaton there, so that a
  ** line costs its own length, not the whole statement's. */
  struct lytI_pending {
    int active;             /* lines are waiting for the rest of a statement */
    lytA_arena arena;       /* the text's blocks; given back when it ends */
    lytL_src src;           /* src.text: the lines so far, newline-separated */
    lytL_src tail;          /* a view of src from the last line on, for the caret */
    size_t cap;
    size_t cur, linestart;  /* the lexer's position, as offsets into the text */
    int32_t line, depth;
    int32_t braces;         /* blocks and records still open */
    int fn;                 /* a `fn` so far: its body may follow on the next line */
    lytP_probe probe;
  } pend;
};

/* eval/api.c: run fn under the state's error escape; nests, so a C function
** may call back into the API. One request block serves every protected
** body: each uses the fields it names. */
typedef struct lytI_req {
  int idx, n, nin;
  int64_t i;
  const void *p;
  const char *s, *name;
  void *out;
  lyt_value v;
  lyt_cfunction fn;
  const int64_t *in;
  int *nout;
  const char *target, *arch;  /* lyt_emit: the code generator */
  char *buf;
  size_t cap, len;
} lytI_req;
typedef void (*lytI_protected)(lyt_state *L, lytI_req *q);
int lytI_protect(lyt_state *L, lytI_protected fn, lytI_req *q);

/* eval/api_stack.c */
void lytI_push(lyt_state *L, lyt_value v);           /* copies v into the host arena */
const lyt_value *lytI_at(lyt_state *L, int idx, const char *api);
void lytI_cut(lyt_state *L, int top);
lyt_value *lytI_take(lyt_state *L, int n, const char *api);  /* copies of the top n */
void lytI_replace(lyt_state *L, int n, lyt_value v);        /* pop n, push v */
lyt_value lytI_call_cfunc(lyt_state *L, const lytI_cfunc *f, int argc, const lyt_value *argv,
                          const char *const *kw, const lyt_loc *argloc, lyt_loc at);

/* eval/load.c: a source text kept for the life of the state (diagnostics
** reprint its lines). */
lytL_src *lytI_new_src(lyt_state *L, const char *name, const char *text, size_t len);
/* eval/load.c: the globals of the stdlib file [file] ("triton.lyt"), and
** its global [name] (NULL if it defines none), imported from the stdlib
** folder if need be. */
const lytI_table *lytI_stdlib_module(lyt_state *L, const char *file);
lyt_value *lytI_stdlib_global(lyt_state *L, const char *name, const char *file);
/* eval/eval.c */
void lytI_run_src(lyt_state *L, const char *name, const char *text, size_t len);
/* lyt_doline: one line, continuing an unfinished statement's lines. */
void lytI_run_line(lyt_state *L, const char *name, const char *line);
int lytI_run_file(lyt_state *L, const char *path, lyt_loc at);

/* eval/eval.c / eval/load.c */
lyt_value lytI_eval_expr(lyt_state *L, const lytP_node *n);
lyt_value lytI_eval_src(lyt_state *L, const char *name, const char *text, size_t len);
/* Statement s, compiled (code NULL) or its code already. */
void lytI_exec(lyt_state *L, const lytP_node *s, const struct lytC_code *code);
/* eval/template.c: the statement and code of the top-level line at [at],
** from the template for its key (key: the line's key, which the check
** read, or NULL), with the line's numbers and place, and its length in
** *len; NULL if there is none yet. lytI_template_make: the
** template made of s, a statement filling the line that find last left
** to the parser, when its key was seen before; NULL when there is none. */
typedef struct lytI_template lytI_template;
typedef struct lytI_templates lytI_templates;
const lytP_node *lytI_template_find(lyt_state *L, const lytL_src *src, const char *at,
                                    int32_t line, lytL_key *key, const struct lytC_code **code,
                                    int *len);
const lytP_node *lytI_template_make(lyt_state *L, const lytP_node *s, const char *line,
                                    const struct lytC_code **code);
void lytI_templates_free(lyt_state *L);
#ifdef LYT_VERIFY_TEMPLATES
/* eval/load.c: the statements of the line at [at], of n bytes, parsed by
** themselves, their locations in a copy of the line numbered [line]; NULL
** if it does not parse (what a template is checked against). */
const lytP_node *lytI_parse_line(lyt_state *L, const lytL_src *src, const char *at, int n,
                                 int32_t line);
#endif
void lytI_do_import(lyt_state *L, const lytP_node *s);
_Noreturn void lytI_error(lyt_state *L, lyt_loc loc, int code, const char *fmt, ...)
    LYT_PRINTF(4, 5);
const char *lytI_intern(lyt_state *L, const char *s, size_t n);
/* Whether s is a name lyt can write: letters, digits and _, not first a
** digit (what names in values must be, so that they print back). */
int lytI_is_name(const char *s);
/* [name] interned, if it is one lyt can write (letters, digits, _); else an
** error that names the API call. */
const char *lytI_api_name(lyt_state *L, const char *api, const char *name);
/* An allocation from the code arena failed: the budget or the host, at `at`. */
_Noreturn void lytI_code_fail(lyt_state *L, lyt_loc at);
/* Tables of bindings (eval/table.c); [v] must live in an arena that
** outlasts the statement. */
lyt_value *lytI_tget(const lytI_table *t, const char *name);
void lytI_tset(lyt_state *L, lytI_table *t, const char *name, lyt_value v);
/* The main script's globals, then the builtins: what the host sees. */
void lytI_setglobal(lyt_state *L, const char *name, lyt_value v);
lyt_value *lytI_getglobal(lyt_state *L, const char *name);
/* argloc NULL (and loc {NULL, 0, 0}): a call from the host, without source. */
/* The builtin of that name (from lytI_libs); argloc NULL: a host's call. */
lyt_value lytI_call_builtin(lyt_state *L, const char *name, int argc, lyt_value *argv,
                            const lyt_loc *argloc, lyt_loc loc);
lyt_value lytI_call_value(lyt_state *L, lyt_value f, int argc, lyt_value *argv,
                          const lyt_loc *argloc, lyt_loc loc);

/* eval/value.c */
lyt_value lytI_copy(lytS_ctx *cx, lyt_value v);   /* deep copy into cx's arena */
/* A deep copy of v into arena a (globals, the host stack: they outlive the
** statement). L->cx itself allocates it, so an error inside reaches
** lytI_protect with its code and message (which also resets the arena). */
lyt_value lytI_copy_to(lyt_state *L, lytA_arena *a, lyt_value v);
int lytI_equal(lytS_ctx *cx, const lyt_value *a, const lyt_value *b);

/* `show v` (through the kind's row). */
void lytI_show(lyt_state *L, const lyt_value *v, lyt_loc loc);

/* interp/libs.c: every library of builtins, NULL-terminated, in the
** order help() lists them. */
extern const lytI_builtin *const lytI_libs[];
extern const char *const lytI_lib_names[];
extern const lytI_builtin lytI_core_lib[];  /* eval/builtins.c */

/* The notations the evaluator reads but a family evaluates: the
** evaluator calls these without knowing the family's types.
**   shape:stride, checked (stride/values.c); L[k], mode k of a layout, an
**   error at kloc when there is none (stride/values.c); iters, a
**   shape:stride with axis tags (axe/builtins.c); arithmetic on index values,
**   op a TK_ token (axisinfo/builtins.c); {ins} -> {outs} and A * B of
**   linear layouts (linear/builtins.c). */
/* into *out, where the value is wanted: a value returned is copied from
** where it was written piecewise, a stall (stride/layout.h); checked: by
** the caller, as make_layout would */
void lytI_layout_literal(lyt_state *L, const lytS_tup *shape, const lytS_tup *stride,
                         int checked, lyt_value *out);
lyt_value lytI_layout_mode(lyt_state *L, const lyt_value *v, int64_t k, lyt_loc kloc, lyt_loc at);
lyt_value lytI_iters(lyt_state *L, lyt_loc at, const lyt_value *shape, const lyt_value *stride);
lyt_value lytI_index_arith(lyt_state *L, int op, lyt_loc at, const lyt_value *a,
                           const lyt_value *b);
lyt_value lytI_linear_literal(lyt_state *L, lyt_loc at, const lyt_value *ins, lyt_loc inloc,
                              const lyt_value *outs, lyt_loc outloc);
lyt_value lytI_linear_mul(lyt_state *L, lyt_loc at, const lyt_value *a, const lyt_value *b);

#endif
