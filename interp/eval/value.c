/*
** eval/value.c: building, converting, copying, comparing and printing
** interpreter values, and the argument helpers builtins use. Copying,
** equality and printing go through the table of kinds (eval/kind.h);
** the operations of the evaluator's own kinds (scalars, strings, tuples,
** records, functions) are here.
*/
#include <stdio.h>
#include <string.h>

#include "lang/image.h"
#include "interp/eval/kind.h"
#include "interp/eval/state.h"

/* Values are returned as compound literals: built in a local and then
** returned, GCC writes them piecewise and reads them back 16 bytes at a
** time, which the store buffer cannot forward (a stall on every value). */
lyt_value lytI_int(int64_t i) { return (lyt_value){ .kind = LYT_VINT, .u.i = i }; }
lyt_value lytI_bool(int b) { return (lyt_value){ .kind = LYT_VBOOL, .u.i = b != 0 }; }
lyt_value lytI_nil(void) { return (lyt_value){ .kind = LYT_VNIL }; }
lyt_value lytI_under(void) { return (lyt_value){ .kind = LYT_VUNDER }; }

lyt_value lytI_str(lytI_call *c, const char *s) {
  size_t n = strlen(s);
  char *p = lytS_alloc(lytI_cx(c), n + 1);
  memcpy(p, s, n + 1);
  lyt_value v = { .kind = LYT_VSTR };
  v.u.str.s = p;
  v.u.str.len = (int64_t)n;
  return v;
}

lyt_value lytI_tuple(lytI_call *c, int32_t n) {
  lyt_value v = { .kind = LYT_VTUP };
  v.u.tup.n = n;
  v.u.tup.e = lytS_alloc(lytI_cx(c), sizeof(lyt_value) * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) v.u.tup.e[i] = lytI_nil();
  return v;
}

lyt_value lytI_ints_val(lytI_call *c, const int64_t *v, int32_t n) {
  lyt_value t = lytI_tuple(c, n);
  for (int32_t i = 0; i < n; i++) t.u.tup.e[i] = lytI_int(v[i]);
  return t;
}

lyt_value lytI_record(lytI_call *c, int32_t n, const char *const *names) {
  lyt_value v = { .kind = LYT_VRECORD };
  size_t k = (size_t)(n ? n : 1);
  v.u.rec.n = n;
  v.u.rec.name = lytS_alloc(lytI_cx(c), sizeof *v.u.rec.name * k);
  v.u.rec.e = lytS_alloc(lytI_cx(c), sizeof *v.u.rec.e * k);
  for (int32_t i = 0; i < n; i++) {
    v.u.rec.name[i] = lytI_intern(c->L, names[i], strlen(names[i]));
    if (!v.u.rec.name[i]) lytS_fail_alloc(lytI_cx(c), &c->L->code);
    v.u.rec.e[i] = lytI_nil();
  }
  return v;
}

const char *lytI_kindname(lyt_vkind k) {
  return (unsigned)k < LYT_NKINDS ? lytI_kinds[k].name : "value";
}

const char *lytI_article(lyt_vkind k) {
  return strchr("aeiou", lytI_kindname(k)[0]) ? "an" : "a";
}

/* ---------------------------------------------------------------------
** Errors and the core context
** ------------------------------------------------------------------- */

lytS_ctx *lytI_cx(lytI_call *c) { return &c->L->cx; }

void lytI_argerr(lytI_call *c, int i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->L->errloc = (i >= 0 && i < c->argc && c->argloc) ? c->argloc[i] : c->loc;
  lytS_vfail(&c->L->cx, LYT_ERRRUN, fmt, ap);
}

void lytI_callerr(lytI_call *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->L->errloc = c->loc;
  lytS_vfail(&c->L->cx, LYT_ERRRUN, fmt, ap);
}

/* ---------------------------------------------------------------------
** Values <-> core tuples
** ------------------------------------------------------------------- */

lytS_tup *lytI_val2tup(lytS_ctx *cx, const lyt_value *v, const char **why) {
  lytS_check_stack(cx);
  switch (v->kind) {
    case LYT_VINT: return lytS_int(cx, v->u.i);
    case LYT_VUNDER: return lytS_under(cx);
    case LYT_VBASIS: return lytS_dup(cx, v->u.basis, sizeof *v->u.basis);
    case LYT_VTUP: {
      lytS_tup *t = lytS_newtup(cx, v->u.tup.n);
      for (int32_t i = 0; i < t->n; i++)
        if (!(t->e[i] = lytI_val2tup(cx, &v->u.tup.e[i], why))) return NULL;
      return t;
    }
    default:
      *why = lytI_kindname(v->kind);
      return NULL;
  }
}

lyt_value lytI_tup2val(lytS_ctx *cx, const lytS_tup *t) {
  lytS_check_stack(cx);
  lyt_value v;
  switch (t->kind) {
    case LYTS_INT: return lytI_int(t->v);
    case LYTS_UNDER: return lytI_under();
    case LYTS_BASIS: v.kind = LYT_VBASIS; v.u.basis = t; return v;
    default:
      v.kind = LYT_VTUP;
      v.u.tup.n = t->n;
      v.u.tup.e = lytS_alloc(cx, sizeof(lyt_value) * (size_t)(t->n ? t->n : 1));
      for (int32_t i = 0; i < t->n; i++) v.u.tup.e[i] = lytI_tup2val(cx, t->e[i]);
      return v;
  }
}

/* ---------------------------------------------------------------------
** Argument conversion
** ------------------------------------------------------------------- */

int lytI_isnil(lytI_call *c, int i) {
  return i >= c->argc || c->argv[i].kind == LYT_VNIL;
}

const char *lytI_param_name(lytI_call *c, int i) {
  return c->self && c->self->npos != LYTI_VARIADIC && c->self->params[i] ? c->self->params[i]
                                                                         : "argument";
}

int64_t lytI_getint(lytI_call *c, int i) {
  if (i >= c->argc || c->argv[i].kind != LYT_VINT)
    lytI_argerr(c, i, "%s: '%s' must be an integer, got %s", c->self ? c->self->name : "call",
                lytI_param_name(c, i), i < c->argc ? lytI_kindname(c->argv[i].kind) : "nothing");
  return c->argv[i].u.i;
}

int64_t lytI_getposint_opt(lytI_call *c, int i) {
  if (lytI_isnil(c, i)) return 0;
  int64_t v = lytI_getint(c, i);
  if (v < 1) lytI_argerr(c, i, "%s: %s must be positive, got %lld", c->self->name,
                         c->self->params[i], (long long)v);
  return v;
}

lytS_tup *lytI_gettup(lytI_call *c, int i) {
  const char *why = NULL;
  lytS_tup *t = i < c->argc ? lytI_val2tup(lytI_cx(c), &c->argv[i], &why) : NULL;
  if (!t)
    lytI_argerr(c, i, "%s: '%s' must be an integer or a tuple of integers, got %s",
                c->self ? c->self->name : "call", lytI_param_name(c, i), why ? why : "nothing");
  return t;
}

int32_t lytI_getints(lytI_call *c, int i, int64_t *out, int32_t min, int32_t max) {
  const lyt_value *v = i < c->argc ? &c->argv[i] : NULL;
  if (v && v->kind == LYT_VINT && min <= 1 && max >= 1) { out[0] = v->u.i; return 1; }
  if (!v || (v->kind != LYT_VTUP && v->kind != LYT_VTILER) || v->u.tup.n < min || v->u.tup.n > max)
    lytI_argerr(c, i, "%s: '%s' must be an integer or a flat tuple of %d to %d integers",
                c->self ? c->self->name : "call", lytI_param_name(c, i), (int)min, (int)max);
  for (int32_t k = 0; k < v->u.tup.n; k++) {
    if (v->u.tup.e[k].kind != LYT_VINT)
      lytI_argerr(c, i, "%s: '%s' must hold integers, not %s", c->self ? c->self->name : "call",
                  lytI_param_name(c, i), lytI_kindname(v->u.tup.e[k].kind));
    out[k] = v->u.tup.e[k].u.i;
  }
  return v->u.tup.n;
}

/* ---------------------------------------------------------------------
** Copying, equality, printing: through the table of kinds
** ------------------------------------------------------------------- */

lyt_value lytI_copy_to(lyt_state *L, lytA_arena *a, lyt_value v) {
  lytA_arena *was = L->cx.arena;
  L->cx.arena = a;
  v = lytI_copy(&L->cx, v);
  L->cx.arena = was;
  return v;
}

/* Values nest (tuples, records), so each of these checks the C stack. */
lyt_value lytI_copy(lytS_ctx *cx, lyt_value v) {
  lytS_check_stack(cx);
  return lytI_kinds[v.kind].copy(cx, v);
}

int lytI_equal(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  lytS_check_stack(cx);
  return a->kind == b->kind && lytI_kinds[a->kind].equal(cx, a, b);
}

void lytI_print_value(lytS_buf *b, const lyt_value *v) {
  lytS_check_stack(b->cx);
  lytI_kinds[v->kind].print(b, v);
}

void lytI_show(lyt_state *L, const lyt_value *v, lyt_loc at) {
  if (!lytI_kinds[v->kind].show)
    lytI_error(L, at, LYT_ERRRUN, "show needs a layout, got %s", lytI_kindname(v->kind));
  lytI_kinds[v->kind].show(L, v, at);
}

/* ---------------------------------------------------------------------
** The evaluator's own kinds
** ------------------------------------------------------------------- */

lyt_value lytI_copy_self(lytS_ctx *cx, lyt_value v) { (void)cx; return v; }

lyt_value lytI_copy_str(lytS_ctx *cx, lyt_value v) {
  char *s = lytS_alloc(cx, (size_t)v.u.str.len + 1);
  memcpy(s, v.u.str.s, (size_t)v.u.str.len + 1);
  v.u.str.s = s;
  return v;
}

lyt_value lytI_copy_seq(lytS_ctx *cx, lyt_value v) {
  lyt_value *e = lytS_alloc(cx, sizeof *e * (size_t)(v.u.tup.n ? v.u.tup.n : 1));
  for (int32_t i = 0; i < v.u.tup.n; i++) e[i] = lytI_copy(cx, v.u.tup.e[i]);
  v.u.tup.e = e;
  return v;
}

lyt_value lytI_copy_record(lytS_ctx *cx, lyt_value v) {
  lyt_value *e = lytS_alloc(cx, sizeof *e * (size_t)(v.u.rec.n ? v.u.rec.n : 1));
  const char **nm = lytS_alloc(cx, sizeof *nm * (size_t)(v.u.rec.n ? v.u.rec.n : 1));
  for (int32_t i = 0; i < v.u.rec.n; i++) {
    e[i] = lytI_copy(cx, v.u.rec.e[i]);
    nm[i] = v.u.rec.name[i];  /* interned: lives as long as the state */
  }
  v.u.rec.e = e;
  v.u.rec.name = nm;
  return v;
}

int lytI_equal_always(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; (void)a; (void)b; return 1; }
int lytI_equal_int(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return a->u.i == b->u.i; }

int lytI_equal_str(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  return a->u.str.len == b->u.str.len &&
         memcmp(a->u.str.s, b->u.str.s, (size_t)a->u.str.len) == 0;
}

int lytI_equal_seq(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  if (a->u.tup.n != b->u.tup.n) return 0;
  for (int32_t i = 0; i < a->u.tup.n; i++)
    if (!lytI_equal(cx, &a->u.tup.e[i], &b->u.tup.e[i])) return 0;
  return 1;
}

int lytI_equal_record(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  if (a->u.rec.n != b->u.rec.n) return 0;
  for (int32_t i = 0; i < a->u.rec.n; i++)
    if (a->u.rec.name[i] != b->u.rec.name[i] || !lytI_equal(cx, &a->u.rec.e[i], &b->u.rec.e[i]))
      return 0;
  return 1;
}

/* Functions are the same when they are the same definition. */
/* Functions are equal when they are the same definition: the same text
** (lytP_same ignores where it was written) in the same module, whose
** globals its free names mean. */
int lytI_equal_code(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) {
  (void)cx;
  const lytI_func *f = a->u.fn, *g = b->u.fn;
  return f == g || (f->mod == g->mod && lytP_same(lytP_body(f->def), lytP_body(g->def)));
}
int lytI_equal_builtin(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return a->u.bi == b->u.bi; }
int lytI_equal_cfunc(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return a->u.cf == b->u.cf; }

void lytI_print_nil(lytS_buf *b, const lyt_value *v) { (void)v; lytS_buf_puts(b, "nil"); }
void lytI_print_bool(lytS_buf *b, const lyt_value *v) { lytS_buf_puts(b, v->u.i ? "true" : "false"); }
void lytI_print_int(lytS_buf *b, const lyt_value *v) { lytS_buf_int(b, v->u.i); }
void lytI_print_under(lytS_buf *b, const lyt_value *v) { (void)v; lytS_buf_puts(b, "_"); }

void lytI_print_str(lytS_buf *b, const lyt_value *v) {
  lytP_quote(b, v->u.str.s, (size_t)v->u.str.len);
}

static void print_seq(lytS_buf *b, const lyt_value *v, const char *open, const char *close) {
  lytS_buf_puts(b, open);
  for (int32_t i = 0; i < v->u.tup.n; i++) {
    if (i) lytS_buf_add(b, ",", 1);
    lytI_print_value(b, &v->u.tup.e[i]);
  }
  lytS_buf_puts(b, close);
}

void lytI_print_tuple(lytS_buf *b, const lyt_value *v) { print_seq(b, v, "(", ")"); }
void lytI_print_tiler(lytS_buf *b, const lyt_value *v) { print_seq(b, v, "[", "]"); }

/* {a: 1, b: 2}; a field without a value prints its name alone. */
void lytI_print_record(lytS_buf *b, const lyt_value *v) {
  lytS_buf_puts(b, "{");
  for (int32_t i = 0; i < v->u.rec.n; i++) {
    lytS_buf_printf(b, "%s%s", i ? ", " : "", v->u.rec.name[i]);
    if (v->u.rec.e[i].kind == LYT_VNIL) continue;
    lytS_buf_puts(b, ": ");
    lytI_print_value(b, &v->u.rec.e[i]);
  }
  lytS_buf_puts(b, "}");
}

/* A function prints as its definition; a builtin or a host's function by
** the name it is bound to, which reads back as the same function. */
void lytI_print_func(lytS_buf *b, const lyt_value *v) {
  lytP_unparse(b, lytP_body(v->u.fn->def));
}
void lytI_print_builtin(lytS_buf *b, const lyt_value *v) { lytS_buf_puts(b, v->u.bi->name); }
void lytI_print_cfunc(lytS_buf *b, const lyt_value *v) { lytS_buf_puts(b, v->u.cf->name); }
