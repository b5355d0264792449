/*
** interop/cute.c: stride layouts as CuTe C++ text, both ways.
**
** to_cute writes what compiles against CuTe: the dynamic form
**   make_layout(make_shape(4, make_shape(2, 3)), make_stride(1, make_stride(4, 8)))
** or, with static=true, the type
**   Layout<Shape<_4,Shape<_2,_3>>, Stride<_1,Stride<_4,_8>>>
** where an integer is CuTe's alias (_4, _m1) when cute/numeric/
** integral_constant.hpp defines one and Int<N> otherwise. A swizzled
** layout is composition(Swizzle<B,M,S>{}, layout), with a nonzero offset
** make_composed_layout(Swizzle<B,M,S>{}, offset, layout), and statically
** ComposedLayout<Swizzle<B,M,S>, offset, Layout<...>>.
**
** from_cute reads those forms back (with or without `cute::`, `{}` after
** static values, Int<N>, C<N>, make_tuple/tuple), CuTe's printed notation
** "(4,2):(1,4)" through stride/cute_read.c, and CuTe's print of a composed
** layout "Sw<3,4,3> o _0 o (8,8):(8,1)". make_layout(shape) and
** Layout<Shape> without a stride are LayoutLeft, as in CuTe;
** make_layout(shape, LayoutLeft{} | GenColMajor{} | LayoutRight{} |
** GenRowMajor{}) the compact column- or row-major layout.
*/
#include <string.h>

#include "interp/interop/interop.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

/* ---------------------------------------------------------------------
** Export
** ------------------------------------------------------------------- */

/* CuTe's named static integers (_0 ... _10, _12, ...; _m1 ... _m32). */
static int has_alias(int64_t v) {
  static const int64_t named[] = { 12, 16, 24, 32, 64, 96, 128, 192, 256, 512 };
  static const int64_t neg[] = { 12, 16, 24, 32 };
  if (v >= -10 && v <= 10) return 1;
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (v == named[i]) return 1;
  for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++)
    if (v == -neg[i]) return 1;
  return 0;
}

static void put_static(lytS_buf *b, int64_t v) {
  if (!has_alias(v)) lytS_buf_printf(b, "Int<%lld>", (long long)v);
  else if (v < 0) lytS_buf_printf(b, "_m%lld", (long long)-v);
  else lytS_buf_printf(b, "_%lld", (long long)v);
}

/* One tuple: dynamic "name(a, b)" or static "Name<a,b>". */
static void put_tup(lytS_buf *b, const lytS_tup *t, const char *name, int stat) {
  if (lytS_isint(t)) {
    if (stat) put_static(b, t->v);
    else lytS_buf_int(b, t->v);
    return;
  }
  lytS_buf_printf(b, stat ? "%s<" : "%s(", name);
  for (int32_t i = 0; i < t->n; i++) {
    if (i) lytS_buf_puts(b, stat ? "," : ", ");
    put_tup(b, t->e[i], name, stat);
  }
  lytS_buf_puts(b, stat ? ">" : ")");
}

static void put_layout(lytS_buf *b, lytS_layout l, int stat) {
  lytS_buf_puts(b, stat ? "Layout<" : "make_layout(");
  put_tup(b, l.shape, stat ? "Shape" : "make_shape", stat);
  lytS_buf_puts(b, ", ");
  put_tup(b, l.stride, stat ? "Stride" : "make_stride", stat);
  lytS_buf_puts(b, stat ? ">" : ")");
}

static void put_composed(lytS_buf *b, const lytS_composed *cp, int stat) {
  const lytS_swizzle *w = &cp->sw;
  if (stat) {
    lytS_buf_printf(b, "ComposedLayout<Swizzle<%d,%d,%d>, ", w->b, w->m, w->s);
    put_static(b, cp->offset);
    lytS_buf_puts(b, ", ");
  } else if (cp->offset) {
    lytS_buf_printf(b, "make_composed_layout(Swizzle<%d,%d,%d>{}, %lld, ", w->b, w->m, w->s,
                    (long long)cp->offset);
  } else {
    lytS_buf_printf(b, "composition(Swizzle<%d,%d,%d>{}, ", w->b, w->m, w->s);
  }
  put_layout(b, cp->inner, stat);
  lytS_buf_puts(b, stat ? ">" : ")");
}

static void check_plain(lytI_call *c, lytS_layout l) {
  if (lytS_has_basis(l.stride) || lytS_has_basis(l.shape))
    lytI_argerr(c, 0, "to_cute: basis strides (an identity layout's 1@0) have no "
                "make_stride form here");
}

lyt_value lytI_to_cute(lytI_call *c) {
  const lyt_value *x = &c->argv[0];
  if (!lytI_isnil(c, 1) && c->argv[1].kind != LYT_VBOOL)
    lytI_argerr(c, 1, "to_cute: static must be true or false");
  int stat = !lytI_isnil(c, 1) && c->argv[1].u.i;
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  if (x->kind == LYT_VLAYOUT) {
    check_plain(c, *x->u.lay);
    put_layout(&b, *x->u.lay, stat);
  } else if (x->kind == LYT_VCOMPOSED) {
    check_plain(c, x->u.comp->inner);
    put_composed(&b, x->u.comp, stat);
  } else {
    lytI_argerr(c, 0, "to_cute: needs a layout or a swizzled layout, got %s",
                lytI_kindname(x->kind));
  }
  return lytI_str(c, b.p);
}

/* ---------------------------------------------------------------------
** Import: C++ expressions and types
** ------------------------------------------------------------------- */

static lytS_tup *cpp_tup(lytI_scan *s, int depth);

/* "{}" after a static value or type, allowed and ignored. */
static void braces(lytI_scan *s) {
  if (lytI_scan_eat(s, "{")) lytI_scan_expect(s, "}");
}

/* _4, _m1 (an identifier already read) */
static int64_t alias_value(lytI_scan *s, const char *id, const char *at) {
  const char *d = id + 1 + (id[1] == 'm');
  int64_t v = 0;
  if (!*d) { s->p = at; lytI_scan_fail(s, "expected a CuTe integer like _4 or Int<4>"); }
  for (; *d; d++) {
    if (*d < '0' || *d > '9' || v > INT64_MAX / 10 - 1) {
      s->p = at;
      lytI_scan_fail(s, "'%s' is not a CuTe static integer", id);
    }
    v = v * 10 + (*d - '0');
  }
  return id[1] == 'm' ? -v : v;
}

/* The elements of name(...) or Name<...>, up to the closing char. */
static lytS_tup *cpp_list(lytI_scan *s, const char *close, int depth) {
  lytS_tup *items[LYTI_TEXT_MAXLIST];
  int32_t n = 0;
  if (!lytI_scan_eat(s, close)) {
    do {
      if (n == LYTI_TEXT_MAXLIST) lytI_scan_fail(s, "more than %d modes", LYTI_TEXT_MAXLIST);
      items[n++] = cpp_tup(s, depth + 1);
    } while (lytI_scan_eat(s, ","));
    lytI_scan_expect(s, close);
  }
  lytS_tup *t = lytS_newtup(CX(s->c), n);
  for (int32_t i = 0; i < n; i++) t->e[i] = items[i];
  return t;
}

static int is_one_of(const char *id, const char *const *names) {
  for (; *names; names++)
    if (strcmp(id, *names) == 0) return 1;
  return 0;
}

/* tuple := int | _N | Int<N> | C<N> | make_shape(...) | Shape<...> | ... */
static lytS_tup *cpp_tup(lytI_scan *s, int depth) {
  static const char *const fns[] = { "make_shape", "make_stride", "make_tuple", "make_coord", NULL };
  static const char *const types[] = { "Shape", "Stride", "tuple", "Coord", NULL };
  if (depth > LYTI_TEXT_DEPTH) lytI_scan_fail(s, "nested too deep");
  int ch = lytI_scan_peek(s);
  if (ch == '-' || (ch >= '0' && ch <= '9')) return lytS_int(CX(s->c), lytI_scan_int(s));
  lytI_scan_eat(s, "cute::");
  const char *at = s->p;
  const char *id = lytI_scan_ident(s);
  int64_t v;
  if (id[0] == '_') v = alias_value(s, id, at);
  else if (strcmp(id, "Int") == 0 || strcmp(id, "C") == 0) {
    lytI_scan_expect(s, "<");
    v = lytI_scan_int(s);
    lytI_scan_expect(s, ">");
  } else if (is_one_of(id, fns)) {
    lytI_scan_expect(s, "(");
    return cpp_list(s, ")", depth);
  } else if (is_one_of(id, types)) {
    lytI_scan_expect(s, "<");
    lytS_tup *t = cpp_list(s, ">", depth);
    braces(s);
    return t;
  } else {
    s->p = at;
    lytI_scan_fail(s, "expected an integer, a static integer or a shape/stride, got '%s'", id);
  }
  braces(s);
  return lytS_int(CX(s->c), v);
}

/* ---------------------------------------------------------------------
** Import: building the value under the guard
** ------------------------------------------------------------------- */

typedef struct build {
  lytS_tup *shape, *stride;   /* stride NULL: LayoutLeft, or LayoutRight if right */
  int right;
  const char *text;           /* or: CuTe notation to read */
  int swizzled, bare;         /* bare: a Swizzle<B,M,S>{} alone, the functor */
  int64_t b, m, sh, offset;
  lyt_value out;
} build;

static void build_value(lytS_ctx *cx, void *ud) {
  build *w = ud;
  if (w->bare) {
    w->out = lytI_swizzle(cx, lytS_make_swizzle(cx, w->b, w->m, w->sh));
    return;
  }
  lytS_layout l = w->text ? lytS_read_layout(cx, w->text)
                  : w->stride ? lytS_make_layout(cx, w->shape, w->stride)
                  : w->right ? lytS_make_right(cx, w->shape) : lytS_make_left(cx, w->shape);
  w->out = lytI_layout(cx, l);
  if (!w->swizzled) return;
  lytS_swizzle sw = lytS_make_swizzle(cx, w->b, w->m, w->sh);
  if (lytS_swizzle_is_identity(sw) && w->offset == 0) return;
  w->out.kind = LYT_VCOMPOSED;
  w->out.u.comp = lytS_make_composed(cx, sw, w->offset, l);
}

/* make_layout(shape, LayoutLeft{}) and its kin: 1 for a major tag read
** (w->right says which), 0 when none is next. */
static int major_tag(lytI_scan *s, build *w) {
  static const char *const tags[] = { "LayoutLeft", "GenColMajor", "LayoutRight", "GenRowMajor" };
  const char *save = s->p;
  lytI_scan_eat(s, "cute::");
  for (int i = 0; i < 4; i++)
    if (lytI_scan_eat(s, tags[i])) {
      braces(s);
      w->right = i >= 2;
      return 1;
    }
  s->p = save;
  return 0;
}

/* make_layout(shape[, stride | LayoutLeft{} | LayoutRight{}]) or
** Layout<Shape[, Stride]> */
static void cpp_layout(lytI_scan *s, build *w, int stat) {
  lytI_scan_eat(s, "cute::");
  lytI_scan_expect(s, stat ? "Layout" : "make_layout");
  lytI_scan_expect(s, stat ? "<" : "(");
  w->shape = cpp_tup(s, 0);
  if (lytI_scan_eat(s, ",") && (stat || !major_tag(s, w))) w->stride = cpp_tup(s, 0);
  lytI_scan_expect(s, stat ? ">" : ")");
  if (stat) braces(s);
}

/* "Swizzle<B,M,S>" (and "{}" unless in a type) */
static void cpp_swizzle(lytI_scan *s, build *w, const char *name, int stat) {
  lytI_scan_eat(s, "cute::");
  lytI_scan_expect(s, name);
  lytI_scan_expect(s, "<");
  w->b = lytI_scan_int(s);
  lytI_scan_expect(s, ",");
  w->m = lytI_scan_int(s);
  lytI_scan_expect(s, ",");
  w->sh = lytI_scan_int(s);
  lytI_scan_expect(s, ">");
  if (!stat) braces(s);
  w->swizzled = 1;
}

static int64_t cpp_int(lytI_scan *s) {
  lytS_tup *t = cpp_tup(s, 0);
  if (!lytS_isint(t)) lytI_scan_fail(s, "the offset must be an integer");
  return t->v;
}

/* composition(Swizzle<..>{}, L) | make_composed_layout(Swizzle<..>{}, off, L)
** | ComposedLayout<Swizzle<..>, off, Layout<..>> */
static void cpp_composed(lytI_scan *s, build *w, const char *head) {
  int stat = strcmp(head, "ComposedLayout") == 0, off = strcmp(head, "composition") != 0;
  lytI_scan_expect(s, stat ? "<" : "(");
  cpp_swizzle(s, w, "Swizzle", stat);
  lytI_scan_expect(s, ",");
  if (off) {
    w->offset = cpp_int(s);
    lytI_scan_expect(s, ",");
  }
  cpp_layout(s, w, stat);
  lytI_scan_expect(s, stat ? ">" : ")");
  if (stat) braces(s);
}

/* The unread text, NUL-terminated, for stride/cute_read.c. */
static const char *rest(lytI_scan *s) {
  size_t n = (size_t)(s->end - s->p);
  char *t = lytS_alloc(CX(s->c), n + 1);
  memcpy(t, s->p, n);
  t[n] = 0;
  return t;
}

/* "Sw<B,M,S> o off o <CuTe notation>", as CuTe and lyt print it, or
** "Sw<B,M,S>" alone, a swizzle as CuTe and lyt print that */
static void printed_composed(lytI_scan *s, build *w) {
  cpp_swizzle(s, w, "Sw", 1);
  lytI_scan_blanks(s);
  if (s->p == s->end) {
    w->bare = 1;
    return;
  }
  lytI_scan_expect(s, "o");
  w->offset = cpp_int(s);
  lytI_scan_expect(s, "o");
  lytI_scan_blanks(s);
  w->text = rest(s);
}

static int starts(lytI_scan *s, const char *word) {
  const char *save = s->p;
  lytI_scan_eat(s, "cute::");
  int yes = lytI_scan_eat(s, word);
  s->p = save;
  return yes;
}

lyt_value lytI_from_cute(lytI_call *c) {
  lytI_scan s;
  build w;
  memset(&w, 0, sizeof w);
  lytI_scan_init(&s, c, 0);
  static const char *const composed[] = { "composition", "make_composed_layout", "ComposedLayout" };
  int done = 0;
  for (int i = 0; i < 3 && !done; i++)
    if (starts(&s, composed[i])) {
      lytI_scan_eat(&s, "cute::");
      lytI_scan_expect(&s, composed[i]);
      cpp_composed(&s, &w, composed[i]);
      done = 1;
    }
  if (!done && starts(&s, "make_layout")) { cpp_layout(&s, &w, 0); done = 1; }
  if (!done && starts(&s, "Layout")) { cpp_layout(&s, &w, 1); done = 1; }
  if (!done && starts(&s, "Swizzle")) { cpp_swizzle(&s, &w, "Swizzle", 0); w.bare = done = 1; }
  if (!done && starts(&s, "Sw<")) printed_composed(&s, &w);
  else if (!done) w.text = rest(&s);
  if (!w.text) lytI_scan_end(&s);
  lytI_guard(c, 0, build_value, &w);
  return w.out;
}
