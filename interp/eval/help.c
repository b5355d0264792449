/*
** eval/help.c: help(), read from where each function is defined, so it
** cannot drift from it: a builtin's row in its library's table (its
** parameter names and one line), a lyt function's own `fn` line (its
** signature, defaults as written) and the `##` comment lines right above
** it (what it does, then `## example: ...`), which the interpreter reads
** from the source it keeps for diagnostics.
*/
#include <string.h>

#include "interp/eval/kind.h"
#include "interp/eval/state.h"

/* One line (help()), or that and the example (help(name)). */
static void builtin_help(lytS_buf *b, const lytI_builtin *f, int brief) {
  size_t n = strlen(f->name);
  if (f->doc && strncmp(f->doc, f->name, n) == 0 && f->doc[n] == '(') {
    lytS_buf_printf(b, "%s\n", f->doc);  /* the doc already shows the signature */
  } else {
    lytS_buf_printf(b, "%s(", f->name);
    for (int i = 0; f->params[i]; i++)
      lytS_buf_printf(b, "%s%s%s", i ? ", " : "", f->params[i], i >= f->nreq ? "?" : "");
    lytS_buf_printf(b, "%s)  %s\n", f->npos == LYTI_VARIADIC ? "..." : "", f->doc ? f->doc : "");
  }
  if (!brief && f->example) lytS_buf_printf(b, "  example: %s\n", f->example);
}

/* The start of line [line] of src's text (NULL past its end). */
static const char *line_start(const lytL_src *src, int32_t line) {
  const char *p = src->text, *end = src->text + src->len;
  for (int32_t l = src->first_line ? src->first_line : 1; l < line; l++) {
    p = memchr(p, '\n', (size_t)(end - p));
    if (!p) return NULL;
    p++;
  }
  return p;
}

/* The `##` lines right above the function's `fn` line, without the `##`,
** in order; nothing when it has none. */
static void doc_lines(lytS_buf *b, const lytI_func *f, int first_only) {
  const lytL_src *src = f->loc.src;
  int32_t top = f->loc.line, l0 = src && src->first_line ? src->first_line : 1;
  const char *p;
  while (src && top > l0 && (p = line_start(src, top - 1)) && p[0] == '#' && p[1] == '#') top--;
  for (int32_t l = top; src && l < f->loc.line; l++) {
    p = line_start(src, l) + 2;
    p += *p == ' ';
    size_t n = strcspn(p, "\n");
    lytS_buf_printf(b, "  %.*s\n", (int)n, p);
    if (first_only) return;
  }
}

/* `name(params)` as the definition writes it, white space collapsed. */
static void signature(lytS_buf *b, const lytI_func *f) {
  const char *p = f->loc.src ? line_start(f->loc.src, f->loc.line) : NULL;
  if (!p) { lytS_buf_printf(b, "%s(...)\n", f->name); return; }
  p += f->loc.col - 1;
  int depth = 0, space = 0;
  for (; *p; p++) {
    int ws = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
    if (ws) { space = 1; continue; }
    if (space && b->n && b->p[b->n - 1] != '(') lytS_buf_add(b, " ", 1);
    space = 0;
    lytS_buf_add(b, p, 1);
    if (*p == '(') depth++;
    if (*p == ')' && --depth == 0) break;
  }
  lytS_buf_add(b, "\n", 1);
}

static void func_help(lytS_buf *b, const lytI_func *f, int brief) {
  signature(b, f);
  doc_lines(b, f, brief);
  if (!brief && f->loc.src)
    lytS_buf_printf(b, "  (defined at %s:%d)\n", f->loc.src->name, (int)f->loc.line);
}

/* The stdlib's public functions, in the order the file defines them. */
static void stdlib_list(lyt_state *L, lytS_buf *b) {
  const lytI_table *t = lytI_stdlib_module(L, "triton.lyt");
  lytS_buf_printf(b, "\nTriton encodings (import \"triton\"):\n");
  const lytI_func **fs = lytS_alloc(&L->cx, sizeof *fs * (t->count + 1));
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->cap; i++) {
    const lytI_slot *s = &t->slot[i];
    if (s->name && s->name[0] != '_' && s->v.kind == LYT_VFUNC && s->v.u.fn->mod == t)
      fs[n++] = s->v.u.fn;
  }
  for (uint32_t i = 1; i < n; i++)  /* by line: a dozen functions */
    for (uint32_t j = i; j > 0 && fs[j]->loc.line < fs[j - 1]->loc.line; j--) {
      const lytI_func *x = fs[j];
      fs[j] = fs[j - 1], fs[j - 1] = x;
    }
  for (uint32_t i = 0; i < n; i++) func_help(b, fs[i], 1);
}

/* The value help(name) describes: the name as the caller's code sees it,
** else the stdlib's public name. */
static lyt_value named(lytI_call *c, const lyt_value *arg) {
  lyt_state *L = c->L;
  if (arg->kind != LYT_VSTR) return *arg;
  const char *key = lytI_intern(L, arg->u.str.s, (size_t)arg->u.str.len);
  lyt_value *v = key ? lytI_tget(L->mod, key) : NULL;
  if (!v && key) v = lytI_tget(&L->builtins, key);
  if (!v && key && key[0] != '_') v = lytI_stdlib_global(L, key, "triton.lyt");
  if (!v) lytI_argerr(c, 0, "help: no builtin or stdlib function named '%s'", arg->u.str.s);
  return *v;
}

lyt_value lytI_help(lytI_call *c) {
  lyt_state *L = c->L;
  lytS_buf b;
  lytS_buf_init(&b, lytI_cx(c));
  if (lytI_isnil(c, 0)) {
    for (size_t k = 0; lytI_libs[k]; k++) {
      lytS_buf_printf(&b, "%s%s:\n", k ? "\n" : "", lytI_lib_names[k]);
      for (const lytI_builtin *f = lytI_libs[k]; f->name; f++) builtin_help(&b, f, 1);
    }
    stdlib_list(L, &b);
  } else {
    lyt_value v = named(c, &c->argv[0]);
    if (v.kind == LYT_VBUILTIN) builtin_help(&b, v.u.bi, 0);
    else if (v.kind == LYT_VFUNC) func_help(&b, v.u.fn, 0);
    else lytI_argerr(c, 0, "help: %s %s is no function", lytI_article(v.kind), lytI_kindname(v.kind));
  }
  if (L->cfg.write) L->cfg.write(L->cfg.write_ud, b.p, b.n);
  return lytI_nil();
}
