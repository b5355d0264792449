/*
** eval/builtin.h: how C functions are exposed to lyt code.
**
** A library is a NULL-terminated array of lytI_builtin. The evaluator
** matches keyword arguments to the declared parameter names, checks the
** argument count, fills missing optional parameters with nil, and then
** calls fn with every argument positional. A builtin reports a bad
** argument with lytI_argerr (the caret goes under that argument); a
** failure inside a core (lytS_fail on lytI_cx) is reported at the call.
** Both unwind by longjmp: a builtin never returns an error value.
*/
#ifndef LYT_BUILTIN_H
#define LYT_BUILTIN_H

#include "lang/source.h"
#include "interp/eval/value.h"

typedef struct lyt_state lyt_state;

#define LYT_MAX_PARAMS 20
#define LYTI_VARIADIC (-1)

typedef struct lytI_call {
  lyt_state *L;
  int argc;                /* number of parameter slots (declared params) */
  lyt_value *argv;         /* argv[i]: argument for params[i], nil if absent */
  const lyt_loc *argloc;   /* argloc[i]: where it was written (the call if absent) */
  int nextra;              /* variadic builtins: total positional count, see below */
  const char *const *kw;   /* layout calls only: keyword of each argument, or NULL */
  lyt_loc loc;             /* the call itself */
  const struct lytI_builtin *self;
} lytI_call;

typedef lyt_value (*lytI_cfn)(lytI_call *c);

typedef struct lytI_builtin {
  const char *name;                        /* lyt name */
  lytI_cfn fn;
  int8_t nreq;                             /* required parameters */
  int8_t npos;                             /* how many arguments may come by position:
                                              0 every parameter, n the first n (the rest
                                              only by name), LYTI_VARIADIC any number
                                              (argv then holds them all) */
  const char *params[LYT_MAX_PARAMS + 1];  /* names, NULL-terminated */
  const char *doc;                         /* one line for help() */
  const char *example;                     /* an expression that calls it (a test runs each) */
} lytI_builtin;

/* eval/help.c: the builtin help(). */
lyt_value lytI_help(lytI_call *c);

/* Errors. */
_Noreturn void lytI_argerr(lytI_call *c, int i, const char *fmt, ...) LYT_PRINTF(3, 4);
_Noreturn void lytI_callerr(lytI_call *c, const char *fmt, ...) LYT_PRINTF(2, 3);
lytS_ctx *lytI_cx(lytI_call *c);           /* the core context of the call */

/* Building and reading values (all allocation in the statement arena). */
lyt_value lytI_int(int64_t i);
lyt_value lytI_bool(int b);
lyt_value lytI_nil(void);
lyt_value lytI_under(void);
lyt_value lytI_str(lytI_call *c, const char *s);
lyt_value lytI_tuple(lytI_call *c, int32_t n);   /* elements set to nil */
lyt_value lytI_ints_val(lytI_call *c, const int64_t *v, int32_t n);  /* a tuple of n ints */
/* A record with these n field names (interned here: field lookup compares
** pointers), every value nil; the caller fills u.rec.e. */
lyt_value lytI_record(lytI_call *c, int32_t n, const char *const *names);
const char *lytI_kindname(lyt_vkind k);
const char *lytI_article(lyt_vkind k);       /* "a" or "an" */

/* Argument conversion: each fails with lytI_argerr naming what was expected. */
int64_t lytI_getint(lytI_call *c, int i);
int64_t lytI_getposint_opt(lytI_call *c, int i);  /* a positive int, or 0 when absent */
lytS_tup *lytI_gettup(lytI_call *c, int i);      /* int, `_` or nested tuple of them */
/* An int or a flat tuple of min..max ints into out[]; returns the count. */
int32_t lytI_getints(lytI_call *c, int i, int64_t *out, int32_t min, int32_t max);
int lytI_isnil(lytI_call *c, int i);
const char *lytI_param_name(lytI_call *c, int i);  /* for messages: "argument" if unnamed */

/* Converting between interpreter values and core tuples. */
lytS_tup *lytI_val2tup(lytS_ctx *cx, const lyt_value *v, const char **why);  /* NULL + why */
lyt_value lytI_tup2val(lytS_ctx *cx, const lytS_tup *t);

/* Printing in CuTe's notation (no spaces, no static markers). */
void lytI_print_value(lytS_buf *b, const lyt_value *v);

#endif
