/*
** interop/triton.c: Triton's layout attributes as text, both ways.
**
** Formats, checked against triton 3.6.0 on the device (parse_mlir_module
** then print) and its lib/Dialect/TritonGPU/IR/Dialect.cpp:
**   #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], ...], warp = [[0, 0]], block = []}>
**     LinearEncodingAttr::print: every in-dim in the layout's order, "name = [..]"
**     joined by ", ", vectors "[a, b]". parse: the keys register, lane, warp and
**     block must all be present (any order; the layout takes that order);
**     the rank is the length of the first non-empty basis, rank 0 is refused
**     ("Empty Layout not supported"), out dims are dim0.. with sizes inferred
**     (LinearLayout(bases, outDimNames): next power of two, surjective).
**     Triton ignores unknown keys; from_triton refuses them, as a typo
**     there would otherwise change nothing silently.
**   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
**     BlockedEncodingAttr::print: those four fields in that order, then,
**     only when the CTA layout is not the one-CTA default,
**     ", CGALayout = [[0, 0], [1, 0]]": the block bases in CTA-tile units.
**     3.6 rejects the older CTAsPerCGA/CTASplitNum/CTAOrder keys ("unexpected
**     key"); from_triton still reads them, as older IR dumps hold them.
** The `#triton_gpu.` prefix of Triton before 3.2 is read as `#ttg.`.
**
** A blocked encoding is the record blocked(...) of stdlib/triton.lyt
** builds, so to_linear(from_triton(text), shape) works. The CGA bases
** map to (ctas_per_cga, cta_split_num, cta_order): per dim of cta_order,
** the split bases 1, 2, 4, ... then zero bases for the copies; a dim that
** holds no base is placed after the others, highest first, as the default
** order (r-1, ..., 0) does, and leading zero bases go to the first such dim.
*/
#include <stdio.h>
#include <string.h>

#include "interp/interop/interop.h"
#include "interp/linear/linear.h"

#define CX(c) lytI_cx(c)
#define MAXRANK LYT_LL_MAXDIMS

static const char *const ll_ins[4] = { "register", "lane", "warp", "block" };

/* ---------------------------------------------------------------------
** Record fields of an encoding
** ------------------------------------------------------------------- */

static const lyt_value *field(const lyt_value *r, const char *name) {
  for (int32_t i = 0; i < r->u.rec.n; i++)
    if (strcmp(r->u.rec.name[i], name) == 0) return &r->u.rec.e[i];
  return NULL;
}

/* Field `name` of argument 0: a tuple of ints (an int for rank 1). */
static int32_t field_ints(lytI_call *c, const char *name, int64_t *out) {
  const lyt_value *v = field(&c->argv[0], name);
  if (v && v->kind == LYT_VINT) { out[0] = v->u.i; return 1; }
  if (!v || v->kind != LYT_VTUP || v->u.tup.n > MAXRANK)
    lytI_argerr(c, 0, "to_triton: the encoding's '%s' must be a tuple of integers", name);
  for (int32_t i = 0; i < v->u.tup.n; i++) {
    if (v->u.tup.e[i].kind != LYT_VINT)
      lytI_argerr(c, 0, "to_triton: the encoding's '%s' must be a tuple of integers", name);
    out[i] = v->u.tup.e[i].u.i;
  }
  return v->u.tup.n;
}

static int is_perm(const int64_t *o, int32_t r) {
  uint32_t seen = 0;
  for (int32_t i = 0; i < r; i++) {
    if (o[i] < 0 || o[i] >= r || (seen >> o[i] & 1)) return 0;
    seen |= 1u << o[i];
  }
  return 1;
}

/* ---------------------------------------------------------------------
** Export
** ------------------------------------------------------------------- */

static void put_ints(lytS_buf *b, const int64_t *v, int32_t n) {
  lytS_buf_puts(b, "[");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(b, "%s%lld", i ? ", " : "", (long long)v[i]);
  lytS_buf_puts(b, "]");
}

/* The CGA block bases of (ctas, split, order), as make_cga_layout builds
** them; returns their count (0: the default, one CTA). */
static int32_t cga_bases(lytI_call *c, int32_t r, const int64_t *ctas, const int64_t *split,
                         const int64_t *order, int64_t *v) {
  int32_t n = 0;
  if (!is_perm(order, r)) lytI_argerr(c, 0, "to_triton: cta_order is not a permutation");
  for (int32_t k = 0; k < r; k++) {
    int32_t d = (int32_t)order[k];
    if (!lytS_is_pow2(split[d]) || !lytS_is_pow2(ctas[d]) || ctas[d] % split[d])
      lytI_argerr(c, 0, "to_triton: ctas_per_cga and cta_split_num must be powers of two, "
                  "the split dividing the CTAs");
    for (int64_t s = 1; s < ctas[d]; s *= 2, n++) {
      if (n == LYT_LL_MAXBITS) lytI_argerr(c, 0, "to_triton: too many CTAs");
      for (int32_t j = 0; j < r; j++) v[n * r + j] = j == d && s < split[d] ? s : 0;
    }
  }
  return n;
}

static lyt_value blocked_text(lytI_call *c) {
  static const char *const key[4] = { "sizePerThread", "threadsPerWarp", "warpsPerCTA", "order" };
  static const char *const fld[4] = { "size_per_thread", "threads_per_warp", "warps_per_cta",
                                      "order" };
  int64_t v[4][MAXRANK], ctas[MAXRANK], split[MAXRANK], order[MAXRANK];
  int64_t bases[LYT_LL_MAXBITS * MAXRANK];
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  lytS_buf_puts(&b, "#ttg.blocked<{");
  int32_t r = field_ints(c, fld[3], v[3]);
  for (int k = 0; k < 4; k++) {
    if (field_ints(c, fld[k], v[k]) != r)
      lytI_argerr(c, 0, "to_triton: '%s' has a rank other than order's", fld[k]);
    lytS_buf_printf(&b, "%s%s = ", k ? ", " : "", key[k]);
    put_ints(&b, v[k], r);
  }
  if (field_ints(c, "ctas_per_cga", ctas) != r || field_ints(c, "cta_split_num", split) != r ||
      field_ints(c, "cta_order", order) != r)
    lytI_argerr(c, 0, "to_triton: the CGA fields have a rank other than order's");
  int32_t n = cga_bases(c, r, ctas, split, order, bases);
  if (n) {
    lytS_buf_puts(&b, ", CGALayout = [");
    for (int32_t i = 0; i < n; i++) {
      if (i) lytS_buf_puts(&b, ", ");
      put_ints(&b, bases + i * r, r);
    }
    lytS_buf_puts(&b, "]");
  }
  lytS_buf_puts(&b, "}>");
  return lytI_str(c, b.p);
}

/* Why ll is not a LinearEncodingAttr Triton would read back equal, or NULL. */
static const char *not_triton(lytS_buf *why, const lytG_ll *ll) {
  int32_t next = 0;
  for (int32_t i = 0; i < ll->nin; i++) {
    while (next < 4 && strcmp(ll->in[i].name, ll_ins[next]) != 0) next++;
    if (next++ == 4) {
      lytS_buf_printf(why, "its input dims must be among register, lane, warp, block in that "
                      "order; '%s' is not", ll->in[i].name);
      return why->p;
    }
  }
  if (ll->nout == 0) return "it has no output dim (Triton refuses an empty layout)";
  for (int32_t k = 0; k < ll->nout; k++) {
    char want[16];
    snprintf(want, sizeof want, "dim%d", (int)k);
    if (strcmp(ll->out[k].name, want) != 0) {
      lytS_buf_printf(why, "its output dims must be dim0, dim1, ... in order; output %d is '%s'",
                      (int)k, ll->out[k].name);
      return why->p;
    }
  }
  if (!lytG_is_surjective(ll))
    return "it is not surjective, and Triton infers the output sizes from the bases";
  return NULL;
}

static lyt_value linear_text(lytI_call *c, const lytG_ll *ll) {
  lytS_buf b, why;
  lytS_buf_init(&why, CX(c));
  const char *bad = not_triton(&why, ll);
  if (bad) lytI_argerr(c, 0, "to_triton: not a #ttg.linear layout: %s", bad);
  lytS_buf_init(&b, CX(c));
  lytS_buf_puts(&b, "#ttg.linear<{");
  for (int t = 0; t < 4; t++) {
    int32_t i = lytG_in_index(ll, ll_ins[t]);
    lytS_buf_printf(&b, "%s%s = [", t ? ", " : "", ll_ins[t]);
    for (int32_t bit = 0; i >= 0 && bit < ll->in[i].log2; bit++) {
      lytS_buf_puts(&b, bit ? ", [" : "[");
      for (int32_t k = 0; k < ll->nout; k++)
        lytS_buf_printf(&b, "%s%lld", k ? ", " : "", (long long)lytG_basis(ll, i, bit, k));
      lytS_buf_puts(&b, "]");
    }
    lytS_buf_puts(&b, "]");
  }
  lytS_buf_puts(&b, "}>");
  return lytI_str(c, b.p);
}

lyt_value lytI_to_triton(lytI_call *c) {
  const lyt_value *x = &c->argv[0];
  if (x->kind == LYT_VLINEAR) return linear_text(c, x->u.ll);
  if (x->kind == LYT_VRECORD) {
    const lyt_value *k = field(x, "kind");
    if (k && k->kind == LYT_VSTR && strcmp(k->u.str.s, "blocked") == 0) return blocked_text(c);
    if (k && k->kind == LYT_VSTR)
      lytI_argerr(c, 0, "to_triton: a '%s' encoding has no text here; give "
                  "to_linear(encoding, shape) for its #ttg.linear form", k->u.str.s);
  }
  lytI_argerr(c, 0, "to_triton: needs a linear layout or a blocked encoding, got %s",
              lytI_kindname(x->kind));
}

/* ---------------------------------------------------------------------
** Import: the dictionary's values
** ------------------------------------------------------------------- */

typedef struct vecs {
  int32_t n, width;     /* vectors, entries per vector */
  int64_t *v;           /* v[i*width + k] */
} vecs;

/* "[[a, b], [c, d], ...]": every vector as long as the first. */
static vecs scan_vecs(lytI_scan *s) {
  vecs r = { 0, -1, lytS_alloc(CX(s->c), sizeof(int64_t) * LYT_LL_MAXBITS * MAXRANK) };
  lytI_scan_expect(s, "[");
  if (lytI_scan_eat(s, "]")) return r;
  do {
    int64_t one[MAXRANK];
    if (r.n == LYT_LL_MAXBITS) lytI_scan_fail(s, "more than %d bases", LYT_LL_MAXBITS);
    int32_t w = lytI_scan_ints(s, one, MAXRANK);
    if (r.width >= 0 && w != r.width)
      lytI_scan_fail(s, "a basis of %d entries after ones of %d", (int)w, (int)r.width);
    r.width = w;
    memcpy(r.v + r.n++ * w, one, sizeof one[0] * (size_t)w);
  } while (lytI_scan_eat(s, ","));
  lytI_scan_expect(s, "]");
  return r;
}

/* "name = " of the next entry, or NULL at the closing "}". */
static const char *entry_key(lytI_scan *s, int first) {
  if (lytI_scan_eat(s, "}")) return NULL;
  if (!first) {
    lytI_scan_expect(s, ",");
  }
  const char *k = lytI_scan_ident(s);
  lytI_scan_expect(s, "=");
  return k;
}

static int key_index(const char *const *keys, int n, const char *k) {
  for (int i = 0; i < n; i++)
    if (strcmp(keys[i], k) == 0) return i;
  return -1;
}

/* ---------------------------------------------------------------------
** Import: #ttg.linear
** ------------------------------------------------------------------- */

static lyt_value ll_val(const lytG_ll *ll) {
  lyt_value v = { .kind = LYT_VLINEAR };
  v.u.ll = ll;
  return v;
}

static lyt_value read_linear(lytI_scan *s) {
  vecs b[4];
  int seen[4] = { 0 };
  const char *k;
  for (int first = 1; (k = entry_key(s, first)); first = 0) {
    int t = key_index(ll_ins, 4, k);
    if (t < 0) lytI_scan_fail(s, "unknown key '%s' (a #ttg.linear has register, lane, warp, block)", k);
    if (seen[t]++) lytI_scan_fail(s, "'%s' given twice", k);
    b[t] = scan_vecs(s);
  }
  int32_t rank = -1;
  for (int t = 0; t < 4; t++) {
    if (!seen[t]) lytI_scan_fail(s, "the key '%s' is missing (Triton needs all four)", ll_ins[t]);
    if (b[t].n && rank >= 0 && b[t].width != rank)
      lytI_scan_fail(s, "the bases of '%s' have %d entries, the layout's rank is %d", ll_ins[t],
                     (int)b[t].width, (int)rank);
    if (b[t].n && rank < 0) rank = b[t].width;
  }
  if (rank <= 0) lytI_scan_fail(s, "every basis list is empty or of rank 0 (Triton refuses an empty layout)");
  lytG_inbases ins[4];
  const char *outs[MAXRANK];
  for (int t = 0; t < 4; t++)
    ins[t] = (lytG_inbases){ lytI_intern(s->c->L, ll_ins[t], strlen(ll_ins[t])), b[t].n, b[t].v };
  for (int32_t d = 0; d < rank; d++) {
    char nm[16];
    snprintf(nm, sizeof nm, "dim%d", (int)d);
    outs[d] = lytI_intern(s->c->L, nm, strlen(nm));
  }
  lytG_ll *ll = lytG_try_from_bases(CX(s->c), 4, ins, rank, outs, NULL, 1);
  if (!ll) {
    char msg[LYT_MSG_MAX];  /* argerr formats into cx->msg: copy it first */
    memcpy(msg, CX(s->c)->msg, sizeof msg);
    lytI_argerr(s->c, s->argi, "from_triton: %s", msg);
  }
  return ll_val(ll);
}

/* ---------------------------------------------------------------------
** Import: #ttg.blocked
** ------------------------------------------------------------------- */

enum { SPT, TPW, WPC, ORD, CGA, CPG, CSN, CTO, NKEYS };
static const char *const bl_keys[NKEYS] = {
  "sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout",
  "CTAsPerCGA", "CTASplitNum", "CTAOrder",
};

typedef struct blocked_in {
  int seen[NKEYS];
  int32_t n[NKEYS];
  int64_t v[NKEYS][MAXRANK];
  vecs cga;
} blocked_in;

static void check_positive(lytI_scan *s, const blocked_in *in, int k, int32_t r) {
  if (in->n[k] != r)
    lytI_scan_fail(s, "%s has %d entries, sizePerThread %d", bl_keys[k], (int)in->n[k], (int)r);
  for (int32_t d = 0; d < r; d++)
    if (in->v[k][d] < 1) lytI_scan_fail(s, "%s[%d] must be positive", bl_keys[k], (int)d);
}

static void check_order(lytI_scan *s, const int64_t *o, int32_t r, const char *what) {
  if (!is_perm(o, r)) lytI_scan_fail(s, "%s is not a permutation of 0..%d", what, (int)r - 1);
}

/* The dim a CGA basis moves, or -1 for a zero basis; fails unless it
** moves one dim by a power of two. */
static int32_t basis_dim(lytI_scan *s, const int64_t *b, int32_t r, int64_t *val) {
  int32_t d = -1;
  for (int32_t j = 0; j < r; j++) {
    if (b[j] == 0) continue;
    if (d >= 0 || !lytS_is_pow2(b[j]))
      lytI_scan_fail(s, "a CGALayout basis must be zero or one power of two in one dim");
    d = j;
    *val = b[j];
  }
  return d;
}

/* CGA block bases -> (ctas, split, order); see the file comment. */
static void decode_cga(lytI_scan *s, const vecs *g, int32_t r, int64_t *ctas, int64_t *split,
                       int64_t *order) {
  int32_t nord = 0, cur = -1, lead = 0, zeros = 0;
  int used[MAXRANK] = { 0 };
  int64_t seq[MAXRANK];
  if (g->n && g->width != r) lytI_scan_fail(s, "CGALayout bases must have %d entries", (int)r);
  for (int32_t d = 0; d < r; d++) ctas[d] = split[d] = 1;
  for (int32_t i = 0; i < g->n; i++) {
    int64_t val = 0;
    int32_t d = basis_dim(s, g->v + i * r, r, &val);
    if (d < 0) { if (cur < 0) lead++; else ctas[cur] *= 2; zeros += cur >= 0; continue; }
    if (d == cur && !zeros && val == split[d]) { split[d] *= 2; ctas[d] *= 2; continue; }
    if (used[d] || val != 1)
      lytI_scan_fail(s, "the CGALayout is not a CTA split (per dim: bases 1, 2, 4, ... then zeros)");
    used[d] = 1;
    seq[nord++] = d;
    cur = d;
    zeros = 0;
    split[d] = ctas[d] = 2;
  }
  int32_t k = 0, first_free = -1;
  for (int32_t d = r - 1; d >= 0; d--)
    if (!used[d] && first_free < 0) first_free = d;
  if (lead && first_free < 0) lytI_scan_fail(s, "the CGALayout's leading zero bases fit no dim");
  if (lead) { ctas[first_free] = (int64_t)1 << lead; order[k++] = first_free; used[first_free] = 1; }
  for (int32_t i = 0; i < nord; i++) order[k++] = seq[i];
  for (int32_t d = r - 1; d >= 0; d--)
    if (!used[d]) order[k++] = d;
}

static void read_blocked_keys(lytI_scan *s, blocked_in *in) {
  const char *k;
  for (int first = 1; (k = entry_key(s, first)); first = 0) {
    int t = key_index(bl_keys, NKEYS, k);
    if (t < 0) lytI_scan_fail(s, "unknown key '%s' in #ttg.blocked", k);
    if (in->seen[t]++) lytI_scan_fail(s, "'%s' given twice", k);
    if (t == CGA) in->cga = scan_vecs(s);
    else in->n[t] = lytI_scan_ints(s, in->v[t], MAXRANK);
  }
  for (int t = SPT; t <= ORD; t++)
    if (!in->seen[t]) lytI_scan_fail(s, "the key '%s' is missing", bl_keys[t]);
  int legacy = in->seen[CPG] + in->seen[CSN] + in->seen[CTO];
  if (legacy && legacy != 3)
    lytI_scan_fail(s, "CTAsPerCGA, CTASplitNum and CTAOrder go together");
  if (legacy && in->seen[CGA]) lytI_scan_fail(s, "CGALayout and CTAsPerCGA exclude each other");
}

static lyt_value blocked_record(lytI_call *c, int64_t v[][MAXRANK], int32_t r) {
  static const char *const names[8] = {
    "kind", "size_per_thread", "threads_per_warp", "warps_per_cta", "order",
    "ctas_per_cga", "cta_split_num", "cta_order",
  };
  lyt_value rec = lytI_record(c, 8, names);
  rec.u.rec.e[0] = lytI_str(c, "blocked");
  for (int i = 0; i < 7; i++) rec.u.rec.e[i + 1] = lytI_ints_val(c, v[i], r);
  return rec;
}

static lyt_value read_blocked(lytI_scan *s) {
  blocked_in in;
  memset(&in, 0, sizeof in);
  read_blocked_keys(s, &in);
  int32_t r = in.n[SPT];
  if (r == 0) lytI_scan_fail(s, "sizePerThread is empty");
  for (int t = SPT; t < ORD; t++) check_positive(s, &in, t, r);
  if (in.n[ORD] != r) lytI_scan_fail(s, "order has %d entries, sizePerThread %d", (int)in.n[ORD], (int)r);
  check_order(s, in.v[ORD], r, "order");
  int64_t out[7][MAXRANK];
  for (int t = 0; t < 4; t++) memcpy(out[t], in.v[t], sizeof out[t]);
  if (in.seen[CPG]) {
    check_positive(s, &in, CPG, r);
    check_positive(s, &in, CSN, r);
    if (in.n[CTO] != r) lytI_scan_fail(s, "CTAOrder has %d entries, sizePerThread %d", (int)in.n[CTO], (int)r);
    check_order(s, in.v[CTO], r, "CTAOrder");
    for (int t = 0; t < 3; t++) memcpy(out[4 + t], in.v[CPG + t], sizeof out[0]);
  } else {
    decode_cga(s, &in.cga, r, out[4], out[5], out[6]);
  }
  return blocked_record(s->c, out, r);
}

lyt_value lytI_from_triton(lytI_call *c) {
  lytI_scan s;
  lytI_scan_init(&s, c, 0);
  lytI_scan_expect(&s, "#");
  const char *name = lytI_scan_ident(&s);
  const char *dot = strchr(name, '.');
  if (!dot || (strncmp(name, "ttg.", 4) != 0 && strncmp(name, "triton_gpu.", 11) != 0)) {
    s.p = s.text;
    lytI_scan_fail(&s, "expected #ttg.linear<...> or #ttg.blocked<...>");
  }
  lytI_scan_expect(&s, "<");
  lytI_scan_expect(&s, "{");
  lyt_value v;
  if (strcmp(dot + 1, "linear") == 0) v = read_linear(&s);
  else if (strcmp(dot + 1, "blocked") == 0) v = read_blocked(&s);
  else {
    s.p = s.text;
    lytI_scan_fail(&s, "the encoding '%s' is not read here (linear and blocked are; "
                   "other encodings go through their #ttg.linear form)", dot + 1);
  }
  lytI_scan_expect(&s, ">");
  lytI_scan_end(&s);
  return v;
}
