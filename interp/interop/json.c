/*
** interop/json.c: layouts as JSON for other tools, both ways.
**
** The schema (docs/language.md, "Interop"); member order is significant
** where lyt's values are ordered and is kept both ways:
**   stride  {"kind":"cute","shape":S,"stride":D}: S, D an integer or
**           nested arrays; a swizzled layout adds "swizzle":[B,M,S] and
**           "offset":n (both optional on reading: none, 0).
**   linear  {"kind":"linear","bases":{"register":[[0,1],...],...},
**           "out_dims":{"dim0":64,...}}: in-dims and out-dims in the
**           layout's order; "require_surjective":false only when the
**           layout was built so (read: default true).
**   Axe     {"kind":"axe","shard":[[extent,stride,"axis"],...],
**           "replica":[[extent,stride,"axis"],...],"offset":{"axis":n,...}}
**           (memory strides carry the axis "m"; replica and offset optional).
**   nested  {"kind":"nested","subgroup_tile":[..],"batch_tile":[..],
**           "outer_tile":[..],"thread_tile":[..],"element_tile":[..],
**           "subgroup_strides":[..],"thread_strides":[..],
**           "subgroup_size":n,"subgroups":n} (the last two optional: inferred).
**   other   integers, strings, booleans and nil as JSON's; tuples as arrays;
**           records as objects (so Triton encodings such as blocked(...)
**           round-trip), with layouts inside written as above. An object
**           whose "kind" is cute, linear, axe or nested is read as that layout.
** Only integers are numbers here: fractions and exponents are errors,
** as are duplicate keys, unknown keys in a layout object and trailing text.
*/
#include <string.h>

#include "interp/axe/axe.h"
#include "interp/interop/interop.h"
#include "interp/eval/kind.h"
#include "interp/nested/nested.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

static const char *const layout_kinds[] = { "cute", "linear", "axe", "nested", NULL };

/* ---------------------------------------------------------------------
** Export
** ------------------------------------------------------------------- */

static void put_str(lytS_buf *b, const char *s, size_t n) {
  lytS_buf_puts(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') lytS_buf_printf(b, "\\%c", ch);
    else if (ch == '\n') lytS_buf_puts(b, "\\n");
    else if (ch == '\t') lytS_buf_puts(b, "\\t");
    else if (ch < 0x20) lytS_buf_printf(b, "\\u%04x", ch);
    else lytS_buf_add(b, (const char *)&s[i], 1);
  }
  lytS_buf_puts(b, "\"");
}

static void put_key(lytS_buf *b, int first, const char *k) {
  if (!first) lytS_buf_puts(b, ",");
  put_str(b, k, strlen(k));
  lytS_buf_puts(b, ":");
}

static void put_ints(lytS_buf *b, const int64_t *v, int32_t n) {
  lytS_buf_puts(b, "[");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(b, "%s%lld", i ? "," : "", (long long)v[i]);
  lytS_buf_puts(b, "]");
}

static void put_tup(lytI_call *c, lytS_buf *b, const lytS_tup *t) {
  if (lytS_isint(t)) { lytS_buf_int(b, t->v); return; }
  if (!lytS_istup(t))
    lytI_argerr(c, 0, "to_json: basis strides (an identity layout's 1@0) have no JSON form");
  lytS_buf_puts(b, "[");
  for (int32_t i = 0; i < t->n; i++) {
    if (i) lytS_buf_puts(b, ",");
    put_tup(c, b, t->e[i]);
  }
  lytS_buf_puts(b, "]");
}

static void put_cute(lytI_call *c, lytS_buf *b, lytS_layout l, const lytS_composed *cp) {
  lytS_buf_puts(b, "{\"kind\":\"cute\",\"shape\":");
  put_tup(c, b, l.shape);
  lytS_buf_puts(b, ",\"stride\":");
  put_tup(c, b, l.stride);
  if (cp)
    lytS_buf_printf(b, ",\"swizzle\":[%d,%d,%d],\"offset\":%lld", cp->sw.b, cp->sw.m, cp->sw.s,
                    (long long)cp->offset);
  lytS_buf_puts(b, "}");
}

static void put_linear(lytS_buf *b, const lytG_ll *ll) {
  lytS_buf_puts(b, "{\"kind\":\"linear\",\"bases\":{");
  for (int32_t i = 0; i < ll->nin; i++) {
    put_key(b, i == 0, ll->in[i].name);
    lytS_buf_puts(b, "[");
    for (int32_t bit = 0; bit < ll->in[i].log2; bit++) {
      lytS_buf_puts(b, bit ? ",[" : "[");
      for (int32_t k = 0; k < ll->nout; k++)
        lytS_buf_printf(b, "%s%lld", k ? "," : "", (long long)lytG_basis(ll, i, bit, k));
      lytS_buf_puts(b, "]");
    }
    lytS_buf_puts(b, "]");
  }
  lytS_buf_puts(b, "},\"out_dims\":{");
  for (int32_t k = 0; k < ll->nout; k++) {
    put_key(b, k == 0, ll->out[k].name);
    lytS_buf_int(b, lytG_out_size(ll, k));
  }
  lytS_buf_puts(b, ll->require_surjective ? "}}" : "},\"require_surjective\":false}");
}

static void put_iters(lytS_buf *b, const lytX_iter *it, int32_t n) {
  lytS_buf_puts(b, "[");
  for (int32_t i = 0; i < n; i++) {
    lytS_buf_printf(b, "%s[%lld,%lld,", i ? "," : "", (long long)it[i].extent,
                    (long long)it[i].stride);
    put_str(b, it[i].axis, strlen(it[i].axis));
    lytS_buf_puts(b, "]");
  }
  lytS_buf_puts(b, "]");
}

static void put_axe(lytS_buf *b, const lytX_layout *x) {
  lytS_buf_puts(b, "{\"kind\":\"axe\",\"shard\":");
  put_iters(b, x->d, x->nd);
  lytS_buf_puts(b, ",\"replica\":");
  put_iters(b, x->r, x->nr);
  lytS_buf_puts(b, ",\"offset\":{");
  for (int32_t i = 0; i < x->no; i++) {
    put_key(b, i == 0, x->oaxis[i]);
    lytS_buf_int(b, x->off[i]);
  }
  lytS_buf_puts(b, "}}");
}

static const char *const nested_keys[] = {
  "subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile",
  "subgroup_strides", "thread_strides", "subgroup_size", "subgroups", NULL,
};

static void put_nested(lytS_buf *b, const lytN_layout *N) {
  lytS_buf_puts(b, "{\"kind\":\"nested\"");
  for (int k = 0; k < 7; k++) {
    put_key(b, 0, nested_keys[k]);
    put_ints(b, k < LYTN_LEVELS ? N->tile[k] : k == 5 ? N->sg_stride : N->th_stride, N->rank);
  }
  lytS_buf_printf(b, ",\"subgroup_size\":%lld,\"subgroups\":%lld}", (long long)N->subgroup_size,
                  (long long)N->subgroups);
}

static const lyt_value *rec_kind(const lyt_value *r) {
  for (int32_t i = 0; i < r->u.rec.n; i++)
    if (strcmp(r->u.rec.name[i], "kind") == 0 && r->u.rec.e[i].kind == LYT_VSTR)
      return &r->u.rec.e[i];
  return NULL;
}

static int reserved(const char *k) {
  for (int i = 0; layout_kinds[i]; i++)
    if (strcmp(k, layout_kinds[i]) == 0) return 1;
  return 0;
}

static void put_value(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  if (depth > LYTI_TEXT_DEPTH) lytI_argerr(c, 0, "to_json: nested too deep");
  if (!lytI_kinds[v->kind].to_json)
    lytI_argerr(c, 0, "to_json: %s %s has no JSON form", lytI_article(v->kind),
                lytI_kindname(v->kind));
  lytI_kinds[v->kind].to_json(c, b, v, depth);
}

/* ---------------------------------------------------------------------
** The JSON form of each kind that has one (interp/kinds.c names these)
** ------------------------------------------------------------------- */

void lytI_json_nil(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)v; (void)depth;
  lytS_buf_puts(b, "null");
}

void lytI_json_bool(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  lytS_buf_puts(b, v->u.i ? "true" : "false");
}

void lytI_json_int(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  lytS_buf_int(b, v->u.i);
}

void lytI_json_str(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  put_str(b, v->u.str.s, (size_t)v->u.str.len);
}

void lytI_json_tuple(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  lytS_buf_puts(b, "[");
  for (int32_t i = 0; i < v->u.tup.n; i++) {
    if (i) lytS_buf_puts(b, ",");
    put_value(c, b, &v->u.tup.e[i], depth + 1);
  }
  lytS_buf_puts(b, "]");
}

void lytI_json_record(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  const lyt_value *k = rec_kind(v);
  if (k && reserved(k->u.str.s))
    lytI_argerr(c, 0, "to_json: a record whose kind is \"%s\" would read back as a layout",
                k->u.str.s);
  lytS_buf_puts(b, "{");
  for (int32_t i = 0; i < v->u.rec.n; i++) {
    put_key(b, i == 0, v->u.rec.name[i]);
    put_value(c, b, &v->u.rec.e[i], depth + 1);
  }
  lytS_buf_puts(b, "}");
}

void lytI_json_layout(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)depth;
  put_cute(c, b, *v->u.lay, NULL);
}

void lytI_json_composed(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)depth;
  put_cute(c, b, v->u.comp->inner, v->u.comp);
}

void lytI_json_linear(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  put_linear(b, v->u.ll);
}

void lytI_json_axe(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  put_axe(b, v->u.axe);
}

void lytI_json_nested(lytI_call *c, lytS_buf *b, const lyt_value *v, int depth) {
  (void)c; (void)depth;
  put_nested(b, v->u.nested);
}

lyt_value lytI_to_json(lytI_call *c) {
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  put_value(c, &b, &c->argv[0], 0);
  return lytI_str(c, b.p);
}

/* ---------------------------------------------------------------------
** Import: the JSON tree
** ------------------------------------------------------------------- */

enum { J_NULL, J_BOOL, J_INT, J_STR, J_ARR, J_OBJ };

typedef struct jnode {
  int kind;                 /* J_* */
  int64_t i;                /* J_BOOL, J_INT */
  const char *s;            /* J_STR: the text, NUL-terminated */
  int64_t len;              /* J_STR: its length */
  int32_t n;                /* J_ARR, J_OBJ: members */
  struct jnode **e;         /* members */
  const char **key;         /* J_OBJ: interned keys */
  const char *at;           /* where it starts in the text */
} jnode;

static jnode *jvalue(lytI_scan *s, int depth);

static jnode *jnew(lytI_scan *s, int kind) {
  jnode *j = lytS_alloc(CX(s->c), sizeof *j);
  memset(j, 0, sizeof *j);
  j->kind = kind;
  j->at = s->p;
  return j;
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* One escape after the backslash; \u only below 0x80 (lyt names are ASCII). */
static char jescape(lytI_scan *s) {
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  if (s->p >= s->end) lytI_scan_fail(s, "unfinished escape");
  const char *k = strchr(from, *s->p);
  if (k && *k) { s->p++; return to[k - from]; }
  if (*s->p != 'u') lytI_scan_fail(s, "unknown escape '\\%c'", *s->p);
  int v = 0;
  for (int i = 1; i <= 4; i++) {
    int h = s->p + i < s->end ? hexval((unsigned char)s->p[i]) : -1;
    if (h < 0) lytI_scan_fail(s, "\\u needs four hex digits");
    v = v * 16 + h;
  }
  if (v == 0 || v >= 0x80) lytI_scan_fail(s, "only \\u escapes of ASCII characters are read");
  s->p += 5;
  return (char)v;
}

static jnode *jstring(lytI_scan *s) {
  jnode *j = jnew(s, J_STR);
  lytS_buf b;
  lytS_buf_init(&b, CX(s->c));
  lytS_buf_puts(&b, "");
  s->p++;  /* '"' */
  for (;;) {
    if (s->p >= s->end) lytI_scan_fail(s, "unfinished string");
    char ch = *s->p;
    if (ch == '"') break;
    if ((unsigned char)ch < 0x20) lytI_scan_fail(s, "a control character in a string");
    if (ch == '\\') { s->p++; ch = jescape(s); } else s->p++;
    lytS_buf_add(&b, &ch, 1);
  }
  s->p++;
  j->s = b.p;
  j->len = (int64_t)b.n;
  return j;
}

static jnode *jnumber(lytI_scan *s) {
  jnode *j = jnew(s, J_INT);
  const char *d = s->p + (*s->p == '-');
  if (d + 1 < s->end && d[0] == '0' && d[1] >= '0' && d[1] <= '9')
    lytI_scan_fail(s, "a JSON number has no leading zero");
  j->i = lytI_scan_int(s);
  return j;
}

/* The members of [..] or {..}, the opening char read. */
static jnode *jlist(lytI_scan *s, int obj, int depth) {
  jnode *j = jnew(s, obj ? J_OBJ : J_ARR), *items[LYTI_TEXT_MAXLIST];
  const char *keys[LYTI_TEXT_MAXLIST];
  j->at--;
  if (!lytI_scan_eat(s, obj ? "}" : "]")) {
    do {
      if (j->n == LYTI_TEXT_MAXLIST) lytI_scan_fail(s, "more than %d members", LYTI_TEXT_MAXLIST);
      if (obj) {
        if (lytI_scan_peek(s) != '"') lytI_scan_fail(s, "expected a key string");
        jnode *k = jstring(s);
        keys[j->n] = lytI_intern(s->c->L, k->s, (size_t)k->len);
        for (int32_t i = 0; i < j->n; i++)
          if (keys[i] == keys[j->n]) { s->p = k->at; lytI_scan_fail(s, "the key \"%s\" appears twice", k->s); }
        lytI_scan_expect(s, ":");
      }
      items[j->n++] = jvalue(s, depth + 1);
    } while (lytI_scan_eat(s, ","));
    lytI_scan_expect(s, obj ? "}" : "]");
  }
  j->e = lytS_alloc(CX(s->c), sizeof *j->e * (size_t)(j->n + 1));
  j->key = lytS_alloc(CX(s->c), sizeof *j->key * (size_t)(j->n + 1));
  memcpy(j->e, items, sizeof *items * (size_t)j->n);
  if (obj) memcpy(j->key, keys, sizeof *keys * (size_t)j->n);
  return j;
}

static jnode *jvalue(lytI_scan *s, int depth) {
  if (depth > LYTI_TEXT_DEPTH) lytI_scan_fail(s, "nested too deep");
  int ch = lytI_scan_peek(s);
  if (ch == '"') return jstring(s);
  if (ch == '-' || (ch >= '0' && ch <= '9')) return jnumber(s);
  if (ch == '[' || ch == '{') { s->p++; return jlist(s, ch == '{', depth); }
  jnode *j = jnew(s, J_BOOL);
  if (lytI_scan_eat(s, "true")) j->i = 1;
  else if (lytI_scan_eat(s, "false")) j->i = 0;
  else if (lytI_scan_eat(s, "null")) j->kind = J_NULL;
  else lytI_scan_fail(s, "expected a JSON value");
  return j;
}

/* ---------------------------------------------------------------------
** Import: from the tree to values
** ------------------------------------------------------------------- */

static const char *const jkind_name[] = { "null", "a boolean", "an integer", "a string",
                                          "an array", "an object" };

static _Noreturn void jfail_at(lytI_scan *s, const jnode *j, const char *what) {
  s->p = j->at;
  lytI_scan_fail(s, "%s", what);
}

static const jnode *member(const jnode *o, const char *key) {
  for (int32_t i = 0; i < o->n; i++)
    if (strcmp(o->key[i], key) == 0) return o->e[i];
  return NULL;
}

/* Member `key` of o, of JSON kind `kind`; NULL if absent and optional. */
static const jnode *get(lytI_scan *s, const jnode *o, const char *key, int kind, int required) {
  const jnode *m = member(o, key);
  if (!m && required) {
    s->p = o->at;
    lytI_scan_fail(s, "the object lacks \"%s\"", key);
  }
  if (m && m->kind != kind) {
    s->p = m->at;
    lytI_scan_fail(s, "\"%s\" must be %s, got %s", key, jkind_name[kind], jkind_name[m->kind]);
  }
  return m;
}

static void only_keys(lytI_scan *s, const jnode *o, const char *label,
                      const char *const *allowed) {
  for (int32_t i = 0; i < o->n; i++) {
    int ok = 0;
    for (int k = 0; allowed[k] && !ok; k++) ok = strcmp(o->key[i], allowed[k]) == 0;
    if (!ok) {
      s->p = o->e[i]->at;
      lytI_scan_fail(s, "unknown key \"%s\" in a %s object", o->key[i], label);
    }
  }
}

static int64_t jint(lytI_scan *s, const jnode *j) {
  if (j->kind != J_INT) jfail_at(s, j, "expected an integer");
  return j->i;
}

/* An array of at most max integers. */
static int32_t jints(lytI_scan *s, const jnode *j, int64_t *out, int32_t max) {
  if (j->kind != J_ARR) jfail_at(s, j, "expected an array of integers");
  if (j->n > max) jfail_at(s, j, "too many entries");
  for (int32_t i = 0; i < j->n; i++) out[i] = jint(s, j->e[i]);
  return j->n;
}

static lytS_tup *jtup(lytI_scan *s, const jnode *j) {
  if (j->kind == J_INT) return lytS_int(CX(s->c), j->i);
  if (j->kind != J_ARR) jfail_at(s, j, "a shape or stride is an integer or an array of them");
  lytS_tup *t = lytS_newtup(CX(s->c), j->n);
  for (int32_t i = 0; i < j->n; i++) t->e[i] = jtup(s, j->e[i]);
  return t;
}

/* Building under the guard: the cores check what they are given. */
typedef struct jbuild {
  lytI_scan *s;
  const jnode *o;
  lyt_value out;
} jbuild;

/* Member `key` of o, of any JSON kind; fails if absent. */
static const jnode *need(lytI_scan *s, const jnode *o, const char *key) {
  const jnode *m = member(o, key);
  if (!m) { s->p = o->at; lytI_scan_fail(s, "the object lacks \"%s\"", key); }
  return m;
}

static void build_cute(lytS_ctx *cx, void *ud) {
  jbuild *w = ud;
  lytI_scan *s = w->s;
  lytS_layout l = lytS_make_layout(cx, jtup(s, need(s, w->o, "shape")),
                                   jtup(s, need(s, w->o, "stride")));
  const jnode *sw = get(s, w->o, "swizzle", J_ARR, 0), *off = get(s, w->o, "offset", J_INT, 0);
  w->out = lytI_layout(cx, l);
  if (!sw && !off) return;
  int64_t v[3];
  if (!sw || jints(s, sw, v, 3) != 3) jfail_at(s, sw ? sw : w->o, "\"swizzle\" must be [B,M,S]");
  lytS_swizzle z = lytS_make_swizzle(cx, v[0], v[1], v[2]);
  int64_t o = off ? off->i : 0;
  if (lytS_swizzle_is_identity(z) && o == 0) return;
  w->out.kind = LYT_VCOMPOSED;
  w->out.u.comp = lytS_make_composed(cx, z, o, l);
}

/* A name that becomes a field, a dim or an axis must be one lyt can write
** back (print, to_triton): letters, digits and _, not first a digit. */
static const char *jident(lytI_scan *s, const jnode *at, const char *name) {
  if (!lytI_is_name(name)) {
    s->p = at->at;
    lytI_scan_fail(s, "\"%.64s\" is not a name lyt can write (letters, digits and _, not "
                   "first a digit)", name);
  }
  return name;
}

/* The member names of {"name": ..., ...} (interned), at most max of them. */
static int32_t jnames(lytI_scan *s, const jnode *o, const char **names, int32_t max) {
  if (o->n > max) jfail_at(s, o, "too many dims");
  for (int32_t i = 0; i < o->n; i++) names[i] = jident(s, o, o->key[i]);
  return o->n;
}

static void build_linear(lytS_ctx *cx, void *ud) {
  jbuild *w = ud;
  lytI_scan *s = w->s;
  const jnode *bases = get(s, w->o, "bases", J_OBJ, 1), *outs = get(s, w->o, "out_dims", J_OBJ, 1);
  const jnode *surj = get(s, w->o, "require_surjective", J_BOOL, 0);
  const char *onames[LYT_LL_MAXDIMS];
  int64_t sizes[LYT_LL_MAXDIMS];
  int32_t nout = jnames(s, outs, onames, LYT_LL_MAXDIMS);
  for (int32_t k = 0; k < nout; k++) sizes[k] = jint(s, outs->e[k]);
  lytG_inbases ins[LYT_LL_MAXDIMS];
  const char *inames[LYT_LL_MAXDIMS];
  int32_t nin = jnames(s, bases, inames, LYT_LL_MAXDIMS);
  for (int32_t i = 0; i < nin; i++) {
    const jnode *list = bases->e[i];
    if (list->kind != J_ARR || list->n > LYT_LL_MAXBITS)
      jfail_at(s, list, "the bases of an in-dim are an array of at most 64 vectors");
    int64_t *v = lytS_alloc(cx, sizeof *v * (size_t)(list->n * nout + 1));
    for (int32_t j = 0; j < list->n; j++) {
      if (list->e[j]->kind != J_ARR || list->e[j]->n != nout)
        jfail_at(s, list->e[j], "a basis needs one integer per output dim");
      jints(s, list->e[j], v + j * nout, nout);
    }
    ins[i] = (lytG_inbases){ inames[i], list->n, v };
  }
  lytG_ll *ll = lytG_from_bases(cx, nin, ins, nout, onames, sizes, surj ? (int)surj->i : 1);
  w->out.kind = LYT_VLINEAR;
  w->out.u.ll = ll;
}

/* [[extent, stride, "axis"], ...] into shard (rep 0) or replica iters. */
static void jiters(lytS_ctx *cx, lytI_scan *s, const jnode *a, lytX_layout *x, int rep) {
  for (int32_t i = 0; a && i < a->n; i++) {
    const jnode *it = a->e[i];
    if (it->kind != J_ARR || it->n != 3 || it->e[2]->kind != J_STR)
      jfail_at(s, it, "an iter is [extent, stride, \"axis\"]");
    const char *axis = jident(s, it, lytI_intern(s->c->L, it->e[2]->s, (size_t)it->e[2]->len));
    if (rep) lytX_replica(cx, x, jint(s, it->e[0]), jint(s, it->e[1]), axis);
    else lytX_shard(cx, x, jint(s, it->e[0]), jint(s, it->e[1]), axis);
  }
}

static void build_axe(lytS_ctx *cx, void *ud) {
  jbuild *w = ud;
  lytI_scan *s = w->s;
  lytX_layout *x = lytX_new(cx);
  jiters(cx, s, get(s, w->o, "shard", J_ARR, 1), x, 0);
  jiters(cx, s, get(s, w->o, "replica", J_ARR, 0), x, 1);
  const jnode *off = get(s, w->o, "offset", J_OBJ, 0);
  for (int32_t i = 0; off && i < off->n; i++)
    lytX_offset(cx, x, jint(s, off->e[i]), jident(s, off, off->key[i]));
  lytX_check(cx, x);
  w->out.kind = LYT_VAXE;
  w->out.u.axe = x;
}

static void build_nested(lytS_ctx *cx, void *ud) {
  jbuild *w = ud;
  lytI_scan *s = w->s;
  int64_t v[7][LYTN_MAXRANK];
  int32_t rank = 0;
  for (int k = 0; k < 7; k++) {
    int32_t n = jints(s, get(s, w->o, nested_keys[k], J_ARR, 1), v[k], LYTN_MAXRANK);
    if (k && n != rank) jfail_at(s, member(w->o, nested_keys[k]), "the lists differ in length");
    rank = n;
  }
  const jnode *sz = get(s, w->o, nested_keys[7], J_INT, 0), *ns = get(s, w->o, nested_keys[8], J_INT, 0);
  if ((sz && sz->i < 1) || (ns && ns->i < 1)) jfail_at(s, w->o, "subgroup_size and subgroups must be positive");
  const int64_t *tiles[LYTN_LEVELS] = { v[0], v[1], v[2], v[3], v[4] };
  w->out.kind = LYT_VNESTED;
  w->out.u.nested = lytN_make(cx, rank, tiles, v[5], v[6], sz ? sz->i : 0, ns ? ns->i : 0);
}

static lyt_value jconvert(lytI_scan *s, const jnode *j);

static lyt_value jlayout(lytI_scan *s, const jnode *o, const char *kind) {
  static const char *const cute_keys[] = { "cute", "kind", "shape", "stride", "swizzle", "offset", NULL };
  static const char *const ll_keys[] = { "linear", "kind", "bases", "out_dims", "require_surjective", NULL };
  static const char *const axe_keys[] = { "axe", "kind", "shard", "replica", "offset", NULL };
  static const char *const nested_all[] = { "nested", "kind", "subgroup_tile", "batch_tile",
    "outer_tile", "thread_tile", "element_tile", "subgroup_strides", "thread_strides",
    "subgroup_size", "subgroups", NULL };
  static const char *const *const keys[] = { cute_keys, ll_keys, axe_keys, nested_all };
  static const lytI_guarded fns[] = { build_cute, build_linear, build_axe, build_nested };
  int k = 0;
  while (strcmp(layout_kinds[k], kind) != 0) k++;
  only_keys(s, o, keys[k][0], keys[k] + 1);
  jbuild w = { s, o, lytI_nil() };
  lytI_guard(s->c, s->argi, fns[k], &w);
  return w.out;
}

static lyt_value jrecord(lytI_scan *s, const jnode *o) {
  for (int32_t i = 0; i < o->n; i++) jident(s, o, o->key[i]);
  lyt_value r = lytI_record(s->c, o->n, o->key);
  for (int32_t i = 0; i < o->n; i++) r.u.rec.e[i] = jconvert(s, o->e[i]);
  return r;
}

static lyt_value jconvert(lytI_scan *s, const jnode *j) {
  switch (j->kind) {
    case J_NULL: return lytI_nil();
    case J_BOOL: return lytI_bool((int)j->i);
    case J_INT: return lytI_int(j->i);
    case J_STR: return lytI_str(s->c, j->s);
    case J_ARR: {
      lyt_value t = lytI_tuple(s->c, j->n);
      for (int32_t i = 0; i < j->n; i++) t.u.tup.e[i] = jconvert(s, j->e[i]);
      return t;
    }
    default: {
      const jnode *k = member(j, "kind");
      if (k && k->kind == J_STR && reserved(k->s)) return jlayout(s, j, k->s);
      return jrecord(s, j);
    }
  }
}

lyt_value lytI_from_json(lytI_call *c) {
  lytI_scan s;
  lytI_scan_init(&s, c, 0);
  jnode *j = jvalue(&s, 0);
  lytI_scan_end(&s);
  return jconvert(&s, j);
}
