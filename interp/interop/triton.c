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
**   #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
**     the same CGA keys after those four.
**   #ttg.slice<{dim = 1, parent = #blocked}>, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
**     kWidth is left out when 0 (a blocked parent's). A parent is an
**     attribute or an alias; alias definitions ("#blocked = #ttg.blocked<...>"
**     on lines of their own, as a TTGIR module's header has them) may come
**     before the attribute read. to_triton writes parents inline.
** The `#triton_gpu.` prefix of Triton before 3.2 is read as `#ttg.`.
**
** An encoding is the record its function in stdlib/triton.lyt builds
** (blocked, slice_layout, dot_operand, nvidia_mma), so
** to_linear(from_triton(text), shape) works. The CGA bases
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

/* Field `name` of the encoding record e: a tuple of ints (an int for rank 1). */
static int32_t field_ints(lytI_call *c, const lyt_value *e, const char *name, int64_t *out) {
  const lyt_value *v = field(e, name);
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

/* "CGALayout = [...]" of an encoding's CGA fields after sep, unless the default. */
static void cga_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int32_t r, const char *sep) {
  int64_t ctas[MAXRANK], split[MAXRANK], order[MAXRANK], bases[LYT_LL_MAXBITS * MAXRANK];
  if (field_ints(c, e, "ctas_per_cga", ctas) != r || field_ints(c, e, "cta_split_num", split) != r ||
      field_ints(c, e, "cta_order", order) != r)
    lytI_argerr(c, 0, "to_triton: the CGA fields have a rank other than the layout's");
  int32_t n = cga_bases(c, r, ctas, split, order, bases);
  if (!n) return;
  lytS_buf_printf(b, "%sCGALayout = [", sep);
  for (int32_t i = 0; i < n; i++) {
    if (i) lytS_buf_puts(b, ", ");
    put_ints(b, bases + i * r, r);
  }
  lytS_buf_puts(b, "]");
}

/* "key = [..]" for each (key, field) pair, all of one rank; returns it. */
static int32_t ints_text(lytI_call *c, lytS_buf *b, const lyt_value *e, const char *const (*kf)[2],
                         int n, int32_t r) {
  int64_t v[MAXRANK];
  for (int k = 0; k < n; k++) {
    int32_t m = field_ints(c, e, kf[k][1], v);
    if (r >= 0 && m != r) lytI_argerr(c, 0, "to_triton: '%s' has %d entries, the layout's rank is %d",
                                      kf[k][1], (int)m, (int)r);
    lytS_buf_printf(b, "%s%s = ", k ? ", " : "", kf[k][0]);
    put_ints(b, v, m);
  }
  return r;
}

static const lyt_value *field_of(lytI_call *c, const lyt_value *e, const char *name, lyt_vkind kind) {
  const lyt_value *v = field(e, name);
  if (!v || v->kind != kind)
    lytI_argerr(c, 0, "to_triton: the encoding's '%s' must be %s", name,
                kind == LYT_VINT ? "an integer" : kind == LYT_VBOOL ? "a bool" : "an encoding");
  return v;
}

static void attr_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int depth);
static const lyt_value *field_bool(lytI_call *c, const lyt_value *e, const char *name);

static void blocked_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[4][2] = { { "sizePerThread", "size_per_thread" },
    { "threadsPerWarp", "threads_per_warp" }, { "warpsPerCTA", "warps_per_cta" }, { "order", "order" } };
  int64_t o[MAXRANK];
  lytS_buf_puts(b, "#ttg.blocked<{");
  int32_t r = ints_text(c, b, e, kf, 4, field_ints(c, e, "order", o));
  cga_text(c, b, e, r, ", ");
  lytS_buf_puts(b, "}>");
}

static void mma_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[2][2] = { { "warpsPerCTA", "warps_per_cta" }, { "instrShape", "instr_shape" } };
  int64_t ver[MAXRANK], w[MAXRANK];
  if (field_ints(c, e, "version", ver) != 2) lytI_argerr(c, 0, "to_triton: an MMA version is (major, minor)");
  lytS_buf_printf(b, "#ttg.nvidia_mma<{versionMajor = %lld, versionMinor = %lld, ", (long long)ver[0],
                  (long long)ver[1]);
  ints_text(c, b, e, kf, 2, -1);
  cga_text(c, b, e, field_ints(c, e, "warps_per_cta", w), ", ");
  lytS_buf_puts(b, "}>");
}

/* ", key = [..]" unless every entry is one. */
static void unless_ones(lytI_call *c, lytS_buf *b, const lyt_value *e, const char *key, const char *name) {
  int64_t v[MAXRANK];
  int32_t n = field_ints(c, e, name, v), ones = 1;
  for (int32_t i = 0; i < n; i++) ones &= v[i] == 1;
  if (ones) return;
  lytS_buf_printf(b, ", %s = ", key);
  put_ints(b, v, n);
}

static void mfma_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[2][2] = { { "warpsPerCTA", "warps_per_cta" }, { "instrShape", "instr_shape" } };
  int64_t w[MAXRANK];
  lytS_buf_printf(b, "#ttg.amd_mfma<{version = %lld, ", (long long)field_of(c, e, "version", LYT_VINT)->u.i);
  ints_text(c, b, e, kf, 2, -1);
  lytS_buf_printf(b, ", isTransposed = %s", field_bool(c, e, "transposed")->u.i ? "true" : "false");
  cga_text(c, b, e, field_ints(c, e, "warps_per_cta", w), ", ");
  unless_ones(c, b, e, "tilesPerWarp", "tiles_per_warp");
  int64_t bits = field_of(c, e, "element_bitwidth", LYT_VINT)->u.i;
  if (bits != 32) lytS_buf_printf(b, ", elementBitWidth = %lld", (long long)bits);
  lytS_buf_puts(b, "}>");
}

static void wmma_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[1][2] = { { "warpsPerCTA", "warps_per_cta" } };
  int64_t w[MAXRANK], in[MAXRANK];
  lytS_buf_printf(b, "#ttg.amd_wmma<{version = %lld, isTranspose = %s, ",
                  (long long)field_of(c, e, "version", LYT_VINT)->u.i,
                  field_bool(c, e, "transposed")->u.i ? "true" : "false");
  ints_text(c, b, e, kf, 1, -1);
  cga_text(c, b, e, field_ints(c, e, "warps_per_cta", w), ", ");
  unless_ones(c, b, e, "tilesPerWarp", "tiles_per_warp");
  int32_t n = field_ints(c, e, "instr_shape", in);
  if (n != 3 || in[0] != 16 || in[1] != 16 || in[2] != 16) {
    lytS_buf_puts(b, ", instrShape = ");
    put_ints(b, in, n);
  }
  lytS_buf_puts(b, "}>");
}

static void slice_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int depth) {
  lytS_buf_printf(b, "#ttg.slice<{dim = %lld, parent = ", (long long)field_of(c, e, "dim", LYT_VINT)->u.i);
  attr_text(c, b, field_of(c, e, "parent", LYT_VRECORD), depth + 1);
  lytS_buf_puts(b, "}>");
}

/* kWidth is left out when 0, as Triton prints a blocked parent's. */
static void dot_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int depth) {
  lytS_buf_printf(b, "#ttg.dot_op<{opIdx = %lld, parent = ", (long long)field_of(c, e, "operand_index", LYT_VINT)->u.i);
  attr_text(c, b, field_of(c, e, "parent", LYT_VRECORD), depth + 1);
  int64_t k = field_of(c, e, "k_width", LYT_VINT)->u.i;
  if (k) lytS_buf_printf(b, ", kWidth = %lld", (long long)k);
  lytS_buf_puts(b, "}>");
}

static const lyt_value *field_bool(lytI_call *c, const lyt_value *e, const char *name) {
  return field_of(c, e, name, LYT_VBOOL);
}

static void swizzled_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[1][2] = { { "order", "order" } };
  int64_t o[MAXRANK];
  lytS_buf_printf(b, "#ttg.%s<{vec = %lld, perPhase = %lld, maxPhase = %lld, ",
                  field_of(c, e, "kind", LYT_VSTR)->u.str.s,
                  (long long)field_of(c, e, "vec", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "per_phase", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "max_phase", LYT_VINT)->u.i);
  cga_text(c, b, e, ints_text(c, b, e, kf, 1, field_ints(c, e, "order", o)), ", ");
  lytS_buf_puts(b, "}>");
}

/* fp4Padded only when true, as Triton prints it. */
static void nvmma_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  lytS_buf_printf(b, "#ttg.nvmma_shared<{swizzlingByteWidth = %lld, transposed = %s, elementBitWidth = %lld",
                  (long long)field_of(c, e, "swizzle_byte_width", LYT_VINT)->u.i,
                  field_bool(c, e, "transposed")->u.i ? "true" : "false",
                  (long long)field_of(c, e, "element_bitwidth", LYT_VINT)->u.i);
  if (field_bool(c, e, "fp4_padded")->u.i) lytS_buf_puts(b, ", fp4Padded = true");
  cga_text(c, b, e, (int32_t)field_of(c, e, "rank", LYT_VINT)->u.i, ", ");
  lytS_buf_puts(b, "}>");
}

/* Struct parameters are printed when not their default (colStride always),
** as Triton 3.6 prints them. */
static void tmem_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  lytS_buf_printf(b, "#ttng.tensor_memory_encoding<blockM = %lld, blockN = %lld, colStride = %lld",
                  (long long)field_of(c, e, "block_m", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "block_n", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "col_stride", LYT_VINT)->u.i);
  int64_t sm = field_of(c, e, "cta_split_m", LYT_VINT)->u.i, sn = field_of(c, e, "cta_split_n", LYT_VINT)->u.i;
  if (sm != 1) lytS_buf_printf(b, ", CTASplitM = %lld", (long long)sm);
  if (sn != 1) lytS_buf_printf(b, ", CTASplitN = %lld", (long long)sn);
  const lyt_value *cga = field(e, "ctas_per_cga");
  if (cga && cga->kind != LYT_VNIL) cga_text(c, b, e, 2, ", ");
  if (field_bool(c, e, "two_ctas")->u.i) lytS_buf_puts(b, ", twoCTAs = true");
  const lyt_value *fp4 = field(e, "fp4_padded");
  if (fp4 && fp4->kind == LYT_VBOOL && fp4->u.i) lytS_buf_puts(b, ", fp4Padded = true");
  lytS_buf_puts(b, ">");
}

static void tmem_scales_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  int64_t sm = field_of(c, e, "cta_split_m", LYT_VINT)->u.i, sn = field_of(c, e, "cta_split_n", LYT_VINT)->u.i;
  lytS_buf_puts(b, "#ttng.tensor_memory_scales_encoding<");
  if (sm != 1) lytS_buf_printf(b, "CTASplitM = %lld", (long long)sm);
  if (sn != 1) lytS_buf_printf(b, "%sCTASplitN = %lld", sm != 1 ? ", " : "", (long long)sn);
  const lyt_value *cga = field(e, "ctas_per_cga");
  if (cga && cga->kind != LYT_VNIL) cga_text(c, b, e, 2, sm != 1 || sn != 1 ? ", " : "");
  lytS_buf_puts(b, ">");
}

static void shared_linear_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  const lyt_value *l = field_of(c, e, "layout", LYT_VLINEAR);
  const lytG_ll *ll = l->u.ll;
  int32_t off = lytG_in_index(ll, "offset"), blk = lytG_in_index(ll, "block");
  if (off < 0 || ll->nin != (blk < 0 ? 1 : 2))
    lytI_argerr(c, 0, "to_triton: a shared_linear layout has the in-dims offset and block");
  lytS_buf_puts(b, "#ttg.shared_linear<{");  /* Triton leaves out an empty block */
  lytG_print_attr_ins(b, blk >= 0 && !ll->in[blk].log2 ? lytG_squeeze_ins(CX(c), ll, "block") : ll);
  lytS_buf_printf(b, "}, alignment = %lld>", (long long)field_of(c, e, "alignment", LYT_VINT)->u.i);
}

static void padded_text(lytI_call *c, lytS_buf *b, const lyt_value *e) {
  static const char *const kf[2][2] = { { "order", "order" }, { "shape", "shape" } };
  const lyt_value *iv = field(e, "intervals");
  if (!iv || iv->kind != LYT_VTUP || !iv->u.tup.n) lytI_argerr(c, 0, "to_triton: padded_shared needs intervals");
  lytS_buf_puts(b, "#ttg.padded_shared<[");
  for (int32_t i = 0; i < iv->u.tup.n; i++) {
    const lyt_value *p = &iv->u.tup.e[i];
    if (p->kind != LYT_VTUP || p->u.tup.n != 2 || p->u.tup.e[0].kind != LYT_VINT || p->u.tup.e[1].kind != LYT_VINT)
      lytI_argerr(c, 0, "to_triton: each padding interval is (interval, padding)");
    lytS_buf_printf(b, "%s%lld:+%lld", i ? ", " : "", (long long)p->u.tup.e[0].u.i, (long long)p->u.tup.e[1].u.i);
  }
  lytS_buf_puts(b, "] {");
  const lyt_value *ll = field(e, "layout");
  if (ll && ll->kind == LYT_VLINEAR) {
    lytG_print_attr_ins(b, ll->u.ll);  /* Triton prints block = [] here */
  } else {
    int64_t o[MAXRANK];
    ints_text(c, b, e, kf, 2, field_ints(c, e, "order", o));
  }
  lytS_buf_puts(b, "}>");
}

static void partitioned_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int depth) {
  lytS_buf_printf(b, "#ttg.partitioned_shared<{numPartitions = %lld, numGroups = %lld, partitionDim = %lld, "
                  "partitionLayout = ", (long long)field_of(c, e, "num_partitions", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "num_groups", LYT_VINT)->u.i,
                  (long long)field_of(c, e, "partition_dim", LYT_VINT)->u.i);
  attr_text(c, b, field_of(c, e, "partition_layout", LYT_VRECORD), depth + 1);
  lytS_buf_puts(b, "}>");
}

/* tensor<64x64xf16, ENC> and !ttg.memdesc<3x64x64xf16, ENC, #ttg.shared_memory, mutable[, alloc]>. */
static void type_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int memdesc, int depth) {
  int64_t dims[MAXRANK], alloc[MAXRANK];
  int32_t n = field_ints(c, e, "shape", dims);
  lytS_buf_puts(b, memdesc ? "!ttg.memdesc<" : "tensor<");
  for (int32_t i = 0; i < n; i++) lytS_buf_printf(b, "%lldx", (long long)dims[i]);
  lytS_buf_puts(b, field_of(c, e, "elem", LYT_VSTR)->u.str.s);
  const lyt_value *enc = field(e, "encoding");
  if (enc && enc->kind == LYT_VRECORD) {
    lytS_buf_puts(b, ", ");
    attr_text(c, b, enc, depth + 1);
  } else if (memdesc || !enc || enc->kind != LYT_VNIL) {
    lytI_argerr(c, 0, "to_triton: the type's encoding must be an encoding record%s", memdesc ? "" : " or nil");
  }
  if (memdesc) {
    const lyt_value *sp = field(e, "memory_space");
    if (sp && sp->kind == LYT_VSTR) lytS_buf_printf(b, ", #%s.%s", strcmp(sp->u.str.s, "tensor_memory") ? "ttg" : "ttng", sp->u.str.s);
    if (field_bool(c, e, "mutable")->u.i) lytS_buf_puts(b, ", mutable");
    int32_t m = field_ints(c, e, "alloc_shape", alloc);
    if (m != n || memcmp(alloc, dims, sizeof *dims * (size_t)n)) {
      lytS_buf_puts(b, ", ");
      for (int32_t i = 0; i < m; i++) lytS_buf_printf(b, "%s%lld", i ? "x" : "", (long long)alloc[i]);
    }
  }
  lytS_buf_puts(b, ">");
}

static void attr_text(lytI_call *c, lytS_buf *b, const lyt_value *e, int depth) {
  const lyt_value *k = field(e, "kind");
  if (depth > LYTI_TEXT_DEPTH) lytI_argerr(c, 0, "to_triton: encodings nested too deeply");
  if (!k || k->kind != LYT_VSTR) lytI_argerr(c, 0, "to_triton: a record without a kind is no encoding");
  const char *kind = k->u.str.s;
  if (strcmp(kind, "blocked") == 0) blocked_text(c, b, e);
  else if (strcmp(kind, "nvidia_mma") == 0) mma_text(c, b, e);
  else if (strcmp(kind, "slice") == 0) slice_text(c, b, e, depth);
  else if (strcmp(kind, "dot_operand") == 0) dot_text(c, b, e, depth);
  else if (strcmp(kind, "swizzled_shared") == 0 || strcmp(kind, "amd_rotating_shared") == 0)
    swizzled_text(c, b, e);
  else if (strcmp(kind, "amd_mfma") == 0) mfma_text(c, b, e);
  else if (strcmp(kind, "tensor_memory") == 0) tmem_text(c, b, e);
  else if (strcmp(kind, "tensor_memory_scales") == 0) tmem_scales_text(c, b, e);
  else if (strcmp(kind, "shared_linear") == 0) shared_linear_text(c, b, e);
  else if (strcmp(kind, "padded_shared") == 0) padded_text(c, b, e);
  else if (strcmp(kind, "partitioned_shared") == 0) partitioned_text(c, b, e, depth);
  else if (strcmp(kind, "amd_wmma") == 0) wmma_text(c, b, e);
  else if (strcmp(kind, "nvmma_shared") == 0) nvmma_text(c, b, e);
  else if (strcmp(kind, "tensor") == 0 || strcmp(kind, "memdesc") == 0)
    type_text(c, b, e, kind[0] == 'm', depth);
  else lytI_argerr(c, 0, "to_triton: a '%s' encoding has no text here; give "
                   "to_linear(encoding, shape) for its #ttg.linear form", kind);
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
  if (x->kind != LYT_VRECORD)
    lytI_argerr(c, 0, "to_triton: needs a linear layout or an encoding record, got %s",
                lytI_kindname(x->kind));
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  attr_text(c, &b, x, 0);
  return lytI_str(c, b.p);
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
static const char *entry_key_to(lytI_scan *s, int first, const char *close) {
  if (lytI_scan_eat(s, close)) return NULL;
  if (!first) {
    lytI_scan_expect(s, ",");
  }
  const char *k = lytI_scan_ident(s);
  lytI_scan_expect(s, "=");
  return k;
}

static const char *entry_key(lytI_scan *s, int first) { return entry_key_to(s, first, "}"); }

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

/* The layout of n in-dims' bases onto dim0..dim{rank-1}, surjective; NULL
** with the reason in why (LYT_MSG_MAX) when Triton would refuse it. */
static lytG_ll *named_bases(lytI_scan *s, int n, const char *const *names, const vecs *b,
                            int32_t rank, char *why) {
  lytG_inbases ins[4];
  const char *outs[MAXRANK];
  for (int t = 0; t < n; t++)
    ins[t] = (lytG_inbases){ lytI_intern(s->c->L, names[t], strlen(names[t])), b[t].n, b[t].v };
  for (int32_t d = 0; d < rank; d++) {
    char nm[16];
    snprintf(nm, sizeof nm, "dim%d", (int)d);
    outs[d] = lytI_intern(s->c->L, nm, strlen(nm));
  }
  lytG_ll *ll = lytG_try_from_bases(CX(s->c), n, ins, rank, outs, NULL, 1);
  if (!ll) memcpy(why, CX(s->c)->msg, LYT_MSG_MAX);  /* the error formats into cx->msg */
  return ll;
}

/* The entries `name = [[..], ..]` of a dict of bases, up to its '}': each
** of names at most once (seen[t] says which came); what names the
** attribute and its keys for the error. */
static void scan_named(lytI_scan *s, int n, const char *const *names, const char *what, vecs *b,
                       int *seen) {
  const char *k;
  for (int first = 1; (k = entry_key(s, first)); first = 0) {
    int t = key_index(names, n, k);
    if (t < 0) lytI_scan_fail(s, "unknown key '%s' (%s)", k, what);
    if (seen[t]++) lytI_scan_fail(s, "'%s' given twice", k);
    b[t] = scan_vecs(s);
  }
}

static lyt_value read_linear(lytI_scan *s) {
  vecs b[4];
  int seen[4] = { 0 };
  scan_named(s, 4, ll_ins, "a #ttg.linear has register, lane, warp, block", b, seen);
  int32_t rank = -1;
  for (int t = 0; t < 4; t++) {
    if (!seen[t]) lytI_scan_fail(s, "the key '%s' is missing (Triton needs all four)", ll_ins[t]);
    if (b[t].n && rank >= 0 && b[t].width != rank)
      lytI_scan_fail(s, "the bases of '%s' have %d entries, the layout's rank is %d", ll_ins[t],
                     (int)b[t].width, (int)rank);
    if (b[t].n && rank < 0) rank = b[t].width;
  }
  if (rank <= 0) lytI_scan_fail(s, "every basis list is empty or of rank 0 (Triton refuses an empty layout)");
  char msg[LYT_MSG_MAX];
  lytG_ll *ll = named_bases(s, 4, ll_ins, b, rank, msg);
  if (!ll) lytI_argerr(s->c, s->argi, "from_triton: %s", msg);
  return ll_val(ll);
}

/* ---------------------------------------------------------------------
** Import: an attribute's fields, by a table of keys and their types
** ------------------------------------------------------------------- */

/* Aliases defined earlier in the text ("#blocked1 = #ttg.blocked<...>" on
** lines of their own, as a TTGIR module's header holds them). */
#define TT_MAXALIAS 64
#define TT_MAXKEYS 12
typedef struct ttread {
  lytI_scan s;
  int32_t nalias, depth;
  const char *alias[TT_MAXALIAS];  /* interned: compared as pointers */
  lyt_value value[TT_MAXALIAS];
} ttread;

enum { K_INT = 'i', K_BOOL = 'b', K_INTS = 'l', K_VECS = 'c', K_ATTR = 'a' };
typedef struct key { const char *name; char type; } key;

typedef struct fields {
  int seen[TT_MAXKEYS];
  int32_t n[TT_MAXKEYS];           /* K_INTS: entries */
  int64_t v[TT_MAXKEYS][MAXRANK];  /* K_INT: v[k][0] */
  vecs cga;                        /* the one K_VECS key */
  lyt_value attr;                  /* the one K_ATTR key */
} fields;

static lyt_value read_attr(ttread *r);

/* "key = value, ..." up to close ("}" in an attribute dict, ">" in a
** struct like #ttng.tensor_memory_encoding<...>). */
static void read_fields_to(ttread *r, const key *keys, int nkeys, fields *f, const char *kind,
                           const char *close) {
  lytI_scan *s = &r->s;
  const char *k;
  memset(f, 0, sizeof *f);
  for (int first = 1; (k = entry_key_to(s, first, close)); first = 0) {
    int t = 0;
    while (t < nkeys && strcmp(keys[t].name, k) != 0) t++;
    if (t == nkeys) lytI_scan_fail(s, "unknown key '%s' in #ttg.%s", k, kind);
    if (f->seen[t]++) lytI_scan_fail(s, "'%s' given twice", k);
    switch (keys[t].type) {
      case K_INT: f->v[t][0] = lytI_scan_int(s); break;
      case K_BOOL:
        if (lytI_scan_eat(s, "true")) f->v[t][0] = 1;
        else if (!lytI_scan_eat(s, "false")) lytI_scan_fail(s, "%s must be true or false", k);
        break;
      case K_INTS: f->n[t] = lytI_scan_ints(s, f->v[t], MAXRANK); break;
      case K_VECS: f->cga = scan_vecs(s); break;
      default: f->attr = read_attr(r); break;
    }
  }
}

static void read_fields(ttread *r, const key *keys, int nkeys, fields *f, const char *kind) {
  read_fields_to(r, keys, nkeys, f, kind, "}");
}

static void require(ttread *r, const key *keys, const fields *f, int upto) {
  for (int t = 0; t < upto; t++)
    if (!f->seen[t]) lytI_scan_fail(&r->s, "the key '%s' is missing", keys[t].name);
}

/* ---------------------------------------------------------------------
** Import: #ttg.blocked and #ttg.nvidia_mma (and their CGA fields)
** ------------------------------------------------------------------- */

static void check_positive(lytI_scan *s, const fields *f, const key *keys, int k, int32_t r) {
  if (f->n[k] != r)
    lytI_scan_fail(s, "%s has %d entries, the layout's rank is %d", keys[k].name, (int)f->n[k], (int)r);
  for (int32_t d = 0; d < r; d++)
    if (f->v[k][d] < 1) lytI_scan_fail(s, "%s[%d] must be positive", keys[k].name, (int)d);
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

/* The CGA keys of every distributed encoding but slice and dot_op, after
** the kind's own: CGALayout (3.6), or the older CTAsPerCGA, CTASplitNum,
** CTAOrder together. */
#define CGA_KEYS { "CGALayout", K_VECS }, { "CTAsPerCGA", K_INTS }, { "CTASplitNum", K_INTS }, \
                 { "CTAOrder", K_INTS }

/* (ctas_per_cga, cta_split_num, cta_order) from the CGA keys at index g,
** as the record's three values out[0..2]. */
static void read_cga(lytI_scan *s, const fields *f, const key *keys, int g, int32_t r, lyt_value *out) {
  int64_t v[3][MAXRANK];
  int legacy = f->seen[g + 1] + f->seen[g + 2] + f->seen[g + 3];
  if (legacy && legacy != 3) lytI_scan_fail(s, "CTAsPerCGA, CTASplitNum and CTAOrder go together");
  if (legacy && f->seen[g]) lytI_scan_fail(s, "CGALayout and CTAsPerCGA exclude each other");
  if (!legacy) {
    decode_cga(s, &f->cga, r, v[0], v[1], v[2]);
  } else {
    check_positive(s, f, keys, g + 1, r);
    check_positive(s, f, keys, g + 2, r);
    if (f->n[g + 3] != r) lytI_scan_fail(s, "CTAOrder has %d entries, the layout's rank is %d", (int)f->n[g + 3], (int)r);
    check_order(s, f->v[g + 3], r, "CTAOrder");
    for (int32_t d = 0; d < r; d++)  /* what a CGA layout can be, as to_triton needs */
      if (!lytS_is_pow2(f->v[g + 1][d]) || !lytS_is_pow2(f->v[g + 2][d]) || f->v[g + 1][d] % f->v[g + 2][d])
        lytI_scan_fail(s, "CTAsPerCGA and CTASplitNum must be powers of two, the split dividing the CTAs");
    memcpy(v, f->v[g + 1], sizeof v);
  }
  for (int t = 0; t < 3; t++) out[t] = lytI_ints_val(s->c, v[t], r);
}

/* A record of n named fields: "kind" = kind, then vals. */
static lyt_value encoding(lytI_call *c, const char *kind, int n, const char *const *names,
                          const lyt_value *vals) {
  const char *all[12] = { "kind" };
  memcpy(all + 1, names, sizeof *names * (size_t)n);
  lyt_value rec = lytI_record(c, n + 1, all);
  rec.u.rec.e[0] = lytI_str(c, kind);
  for (int i = 0; i < n; i++) rec.u.rec.e[i + 1] = vals[i];
  return rec;
}

static lyt_value read_blocked(ttread *r) {
  enum { SPT, TPW, WPC, ORD, CGA };
  static const key keys[] = { { "sizePerThread", K_INTS }, { "threadsPerWarp", K_INTS },
                              { "warpsPerCTA", K_INTS }, { "order", K_INTS }, CGA_KEYS };
  static const char *const names[7] = { "size_per_thread", "threads_per_warp", "warps_per_cta",
                                        "order", "ctas_per_cga", "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 8, &f, "blocked");
  require(r, keys, &f, CGA);
  int32_t rank = f.n[SPT];
  if (rank == 0) lytI_scan_fail(s, "sizePerThread is empty");
  for (int t = SPT; t < ORD; t++) check_positive(s, &f, keys, t, rank);
  if (f.n[ORD] != rank) lytI_scan_fail(s, "order has %d entries, sizePerThread %d", (int)f.n[ORD], (int)rank);
  check_order(s, f.v[ORD], rank, "order");
  lyt_value v[7];
  for (int t = 0; t < 4; t++) v[t] = lytI_ints_val(s->c, f.v[t], rank);
  read_cga(s, &f, keys, CGA, rank, v + 4);
  return encoding(s->c, "blocked", 7, names, v);
}

/* The rank warpsPerCTA gives an MMA encoding (NVIDIA's or AMD's): 2 or 3. */
static int32_t mma_rank(lytI_scan *s, const fields *f, const key *keys, int wpc) {
  int32_t rank = f->n[wpc];
  if (rank < 2 || rank > 3) lytI_scan_fail(s, "warpsPerCTA must have 2 or 3 entries");
  check_positive(s, f, keys, wpc, rank);
  return rank;
}

static lyt_value read_mma(ttread *r) {
  enum { MAJ, MIN, WPC, INSTR, CGA };
  static const key keys[] = { { "versionMajor", K_INT }, { "versionMinor", K_INT },
                              { "warpsPerCTA", K_INTS }, { "instrShape", K_INTS }, CGA_KEYS };
  static const char *const names[6] = { "version", "warps_per_cta", "instr_shape",
                                        "ctas_per_cga", "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 8, &f, "nvidia_mma");
  require(r, keys, &f, CGA);
  int32_t rank = mma_rank(s, &f, keys, WPC);
  if (f.v[MAJ][0] < 1 || f.v[MAJ][0] > 3 || f.v[MIN][0] < 0)
    lytI_scan_fail(s, "versionMajor must be 1, 2 or 3, versionMinor not negative");
  if (f.n[INSTR] < 2 || f.n[INSTR] > 3) lytI_scan_fail(s, "instrShape must have 2 or 3 entries");
  int64_t ver[2] = { f.v[MAJ][0], f.v[MIN][0] };
  lyt_value v[6] = { lytI_ints_val(s->c, ver, 2), lytI_ints_val(s->c, f.v[WPC], rank),
                     lytI_ints_val(s->c, f.v[INSTR], f.n[INSTR]) };
  read_cga(s, &f, keys, CGA, rank, v + 3);
  return encoding(s->c, "nvidia_mma", 6, names, v);
}

/* All ones but for [n] entries of f->v[k] (an absent tilesPerWarp). */
static lyt_value ints_or_ones(lytI_scan *s, const fields *f, int k, int32_t n) {
  int64_t ones[MAXRANK] = { 1, 1, 1, 1 };
  return lytI_ints_val(s->c, f->seen[k] ? f->v[k] : ones, f->seen[k] ? f->n[k] : n);
}

static lyt_value read_mfma(ttread *r) {
  enum { VER, WPC, INSTR, TR, TILES, BITS, CGA };
  static const key keys[] = { { "version", K_INT }, { "warpsPerCTA", K_INTS }, { "instrShape", K_INTS },
                              { "isTransposed", K_BOOL }, { "tilesPerWarp", K_INTS },
                              { "elementBitWidth", K_INT }, CGA_KEYS };
  static const char *const names[9] = { "version", "instr_shape", "transposed", "warps_per_cta",
                                        "element_bitwidth", "tiles_per_warp", "ctas_per_cga",
                                        "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 10, &f, "amd_mfma");
  require(r, keys, &f, TR + 1);
  int32_t rank = mma_rank(s, &f, keys, WPC);
  if (f.n[INSTR] != 3) lytI_scan_fail(s, "instrShape must be [M, N, K]");
  if (f.seen[TILES]) check_positive(s, &f, keys, TILES, rank);
  lyt_value v[9] = { lytI_int(f.v[VER][0]), lytI_ints_val(s->c, f.v[INSTR], 3),
                     lytI_bool((int)f.v[TR][0]), lytI_ints_val(s->c, f.v[WPC], rank),
                     lytI_int(f.seen[BITS] ? f.v[BITS][0] : 32), ints_or_ones(s, &f, TILES, rank) };
  read_cga(s, &f, keys, CGA, rank, v + 6);
  return encoding(s->c, "amd_mfma", 9, names, v);
}

static lyt_value read_wmma(ttread *r) {
  enum { VER, TR, WPC, TILES, INSTR, CGA };
  static const key keys[] = { { "version", K_INT }, { "isTranspose", K_BOOL }, { "warpsPerCTA", K_INTS },
                              { "tilesPerWarp", K_INTS }, { "instrShape", K_INTS }, CGA_KEYS };
  static const char *const names[8] = { "version", "transposed", "warps_per_cta", "instr_shape",
                                        "tiles_per_warp", "ctas_per_cga", "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 9, &f, "amd_wmma");
  require(r, keys, &f, WPC + 1);
  int32_t rank = mma_rank(s, &f, keys, WPC);
  if (f.seen[INSTR] && f.n[INSTR] != 3) lytI_scan_fail(s, "instrShape must be [M, N, K]");
  if (f.seen[TILES]) check_positive(s, &f, keys, TILES, rank);
  int64_t def[3] = { 16, 16, 16 };
  lyt_value v[8] = { lytI_int(f.v[VER][0]), lytI_bool((int)f.v[TR][0]), lytI_ints_val(s->c, f.v[WPC], rank),
                     lytI_ints_val(s->c, f.seen[INSTR] ? f.v[INSTR] : def, 3),
                     ints_or_ones(s, &f, TILES, rank) };
  read_cga(s, &f, keys, CGA, rank, v + 5);
  return encoding(s->c, "amd_wmma", 8, names, v);
}

/* ---------------------------------------------------------------------
** Import: #ttg.slice and #ttg.dot_op, whose parent is an attribute
** ------------------------------------------------------------------- */

static lyt_value read_slice(ttread *r) {
  static const key keys[] = { { "dim", K_INT }, { "parent", K_ATTR } };
  static const char *const names[2] = { "dim", "parent" };
  fields f;
  read_fields(r, keys, 2, &f, "slice");
  require(r, keys, &f, 2);
  if (f.v[0][0] < 0 || f.v[0][0] >= MAXRANK) lytI_scan_fail(&r->s, "dim %lld is out of range", (long long)f.v[0][0]);
  lyt_value v[2] = { lytI_int(f.v[0][0]), f.attr };
  return encoding(r->s.c, "slice", 2, names, v);
}

static lyt_value read_dot(ttread *r) {
  static const key keys[] = { { "opIdx", K_INT }, { "parent", K_ATTR }, { "kWidth", K_INT } };
  static const char *const names[3] = { "operand_index", "parent", "k_width" };
  fields f;
  read_fields(r, keys, 3, &f, "dot_op");
  require(r, keys, &f, 2);
  if (f.v[0][0] != 0 && f.v[0][0] != 1) lytI_scan_fail(&r->s, "opIdx must be 0 or 1");
  if (f.v[2][0] < 0) lytI_scan_fail(&r->s, "kWidth must not be negative");
  lyt_value v[3] = { lytI_int(f.v[0][0]), f.attr, lytI_int(f.v[2][0]) };
  return encoding(r->s.c, "dot_operand", 3, names, v);
}

/* ---------------------------------------------------------------------
** Import: the shared-memory encodings
** ------------------------------------------------------------------- */

static lyt_value read_swizzled_kind(ttread *r, const char *kind) {
  enum { VEC, PER, MAXP, ORD, CGA };
  static const key keys[] = { { "vec", K_INT }, { "perPhase", K_INT }, { "maxPhase", K_INT },
                              { "order", K_INTS }, CGA_KEYS };
  static const char *const names[7] = { "vec", "per_phase", "max_phase", "order",
                                        "ctas_per_cga", "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 8, &f, kind);
  require(r, keys, &f, CGA);
  int32_t rank = f.n[ORD];
  if (rank == 0) lytI_scan_fail(s, "order is empty");
  check_order(s, f.v[ORD], rank, "order");
  for (int t = VEC; t <= MAXP; t++)
    if (f.v[t][0] < 1) lytI_scan_fail(s, "%s must be positive", keys[t].name);
  lyt_value v[7] = { lytI_int(f.v[VEC][0]), lytI_int(f.v[PER][0]), lytI_int(f.v[MAXP][0]),
                     lytI_ints_val(s->c, f.v[ORD], rank) };
  read_cga(s, &f, keys, CGA, rank, v + 4);
  return encoding(s->c, kind, 7, names, v);
}

static lyt_value read_swizzled(ttread *r) { return read_swizzled_kind(r, "swizzled_shared"); }
static lyt_value read_rotating(ttread *r) { return read_swizzled_kind(r, "amd_rotating_shared"); }

/* Its rank is not in the text unless the CGA keys give it: 2 otherwise,
** as nvmma_shared() assumes. */
static lyt_value read_nvmma(ttread *r) {
  enum { SW, TR, BITS, FP4, CGA };
  static const key keys[] = { { "swizzlingByteWidth", K_INT }, { "transposed", K_BOOL },
                              { "elementBitWidth", K_INT }, { "fp4Padded", K_BOOL }, CGA_KEYS };
  static const char *const names[8] = { "swizzle_byte_width", "element_bitwidth", "rank", "transposed",
                                        "fp4_padded", "ctas_per_cga", "cta_split_num", "cta_order" };
  lytI_scan *s = &r->s;
  fields f;
  read_fields(r, keys, 8, &f, "nvmma_shared");
  if (!f.seen[SW] || !f.seen[BITS]) lytI_scan_fail(s, "swizzlingByteWidth and elementBitWidth are needed");
  int64_t sw = f.v[SW][0], bits = f.v[BITS][0];
  if (sw != 0 && sw != 32 && sw != 64 && sw != 128) lytI_scan_fail(s, "swizzlingByteWidth must be 0, 32, 64 or 128");
  if (bits != 4 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
    lytI_scan_fail(s, "elementBitWidth must be 4, 8, 16, 32 or 64");
  int32_t rank = f.seen[CGA + 1] ? f.n[CGA + 1] : f.seen[CGA] && f.cga.n ? f.cga.width : 2;
  lyt_value v[8] = { lytI_int(sw), lytI_int(bits), lytI_int(rank), lytI_bool((int)f.v[TR][0]),
                     lytI_bool((int)f.v[FP4][0]) };
  read_cga(s, &f, keys, CGA, rank, v + 5);
  return encoding(s->c, "nvmma_shared", 8, names, v);
}

/* The CGA fields of a tensor-memory encoding: a CGA layout marks Triton's
** 2026 form; without one they are nil (3.6's form, CTA splits as numbers). */
static void read_tmem_cga(ttread *r, const fields *f, const key *keys, int g, int splits, lyt_value *out) {
  if (!(f->seen[g] || f->seen[g + 1] || f->seen[g + 2] || f->seen[g + 3])) {
    out[0] = out[1] = out[2] = lytI_nil();
    return;
  }
  if (splits) lytI_scan_fail(&r->s, "CTASplitM and CTASplitN exclude a CGA layout");
  read_cga(&r->s, f, keys, g, 2, out);
}

/* #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1[, CTASplitM = 2]
** [, CTASplitN = 2][, CGALayout = [[0, 1]]][, twoCTAs = true][, fp4Padded = true]>: the
** record tensor_memory() builds; a CGA (Triton's 2026 form) fills its CGA fields. */
static lyt_value read_tmem(ttread *r) {
  enum { BM, BN, CS, SM, SN, TWO, FP4, CGA };
  static const key keys[] = { { "blockM", K_INT }, { "blockN", K_INT }, { "colStride", K_INT },
                              { "CTASplitM", K_INT }, { "CTASplitN", K_INT }, { "twoCTAs", K_BOOL },
                              { "fp4Padded", K_BOOL }, CGA_KEYS };
  static const char *const names[10] = { "block_m", "block_n", "col_stride", "cta_split_m",
                                         "cta_split_n", "two_ctas", "fp4_padded", "ctas_per_cga",
                                         "cta_split_num", "cta_order" };
  fields f;
  read_fields_to(r, keys, 11, &f, "tensor_memory_encoding", ">");
  require(r, keys, &f, CS);
  for (int k = BM; k <= SN; k++)
    if (f.seen[k] && f.v[k][0] < 1) lytI_scan_fail(&r->s, "%s must be positive", keys[k].name);
  lyt_value v[10] = { lytI_int(f.v[BM][0]), lytI_int(f.v[BN][0]), lytI_int(f.seen[CS] ? f.v[CS][0] : 1),
                      lytI_int(f.seen[SM] ? f.v[SM][0] : 1), lytI_int(f.seen[SN] ? f.v[SN][0] : 1),
                      lytI_bool((int)f.v[TWO][0]), lytI_bool((int)f.v[FP4][0]) };
  read_tmem_cga(r, &f, keys, CGA, f.seen[SM] || f.seen[SN], v + 7);
  return encoding(r->s.c, "tensor_memory", 10, names, v);
}

/* #ttng.tensor_memory_scales_encoding<[CTASplitM = 2][, CTASplitN = 2]> or
** <CGALayout = [[1, 0]]> (2026): the record tensor_memory_scales() builds. */
static lyt_value read_tmem_scales(ttread *r) {
  enum { SM, SN, CGA };
  static const key keys[] = { { "CTASplitM", K_INT }, { "CTASplitN", K_INT }, CGA_KEYS };
  static const char *const names[5] = { "cta_split_m", "cta_split_n", "ctas_per_cga", "cta_split_num",
                                        "cta_order" };
  fields f;
  read_fields_to(r, keys, 6, &f, "tensor_memory_scales_encoding", ">");
  for (int k = SM; k <= SN; k++)
    if (f.seen[k] && f.v[k][0] < 1) lytI_scan_fail(&r->s, "%s must be positive", keys[k].name);
  lyt_value v[5] = { lytI_int(f.seen[SM] ? f.v[SM][0] : 1), lytI_int(f.seen[SN] ? f.v[SN][0] : 1) };
  read_tmem_cga(r, &f, keys, CGA, f.seen[SM] || f.seen[SN], v + 2);
  return encoding(r->s.c, "tensor_memory_scales", 5, names, v);
}

/* #ttg.shared_linear<{offset = [[..]], block = [[..]]}, alignment = N>: the
** layout itself, offset and block onto dim0.., with its alignment. */
static lyt_value read_shared_linear(ttread *r) {
  static const char *const names[2] = { "layout", "alignment" };
  static const char *const ins_names[2] = { "offset", "block" };
  lytI_scan *s = &r->s;
  vecs b[2];
  int seen[2] = { 0 };
  lytI_scan_expect(s, "{");
  scan_named(s, 2, ins_names, "a #ttg.shared_linear has offset and block", b, seen);
  if (!seen[0] || !b[0].n) lytI_scan_fail(s, "the offset bases are missing");
  if (!seen[1]) b[1] = (vecs){ 0 };
  if (b[1].n && b[1].width != b[0].width) lytI_scan_fail(s, "block and offset bases differ in rank");
  lytI_scan_expect(s, ",");
  lytI_scan_expect(s, "alignment");
  lytI_scan_expect(s, "=");
  int64_t align = lytI_scan_int(s);
  if (!lytS_is_pow2(align)) lytI_scan_fail(s, "alignment must be a power of two");
  lytI_scan_expect(s, ">");
  char msg[LYT_MSG_MAX];
  lytG_ll *ll = named_bases(s, 2, ins_names, b, b[0].width, msg);
  if (!ll) lytI_scan_fail(s, "%s", msg);
  lyt_value v[2] = { ll_val(ll), lytI_int(align) };
  return encoding(s->c, "shared_linear", 2, names, v);
}

/* Whether the offset bases step one dim after another, each through 1, 2,
** 4, ... (identityStandardND): then order (dims in the order they move,
** those of size 1 last) and shape say the same, as Triton prints them. */
static int padded_order(const vecs *o, int64_t *order, int64_t *shape) {
  int32_t rank = o->width, n = 0, prev = -1;
  int64_t used[MAXRANK] = { 0 };
  for (int32_t d = 0; d < rank; d++) shape[d] = 1;
  for (int32_t i = 0; i < o->n; i++) {
    int32_t d = 0;
    while (d < rank && !o->v[i * rank + d]) d++;
    if (d == rank || o->v[i * rank + d] != shape[d]) return 0;
    if (d != prev) {
      if (used[d]) return 0;
      used[d] = 1;
      order[n++] = d;
      prev = d;
    }
    shape[d] *= 2;
  }
  for (int32_t d = 0; d < rank; d++)
    if (!used[d]) order[n++] = d;
  return 1;
}

/* #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}> or
** with its linear component written out, {offset = [[0, 1], ...], block =
** []}: every `interval` elements, `pad` more are skipped. Bases that are an
** order over a shape read as that order and shape (Triton prints them so);
** others stay the layout. */
static lyt_value read_padded(ttread *r) {
  static const key keys[] = { { "order", K_INTS }, { "shape", K_INTS } };
  static const char *const names[4] = { "intervals", "order", "shape", "layout" };
  static const char *const ins_names[2] = { "offset", "block" };
  lytI_scan *s = &r->s;
  int64_t iv[MAXRANK * 4][2];
  int32_t n = 0;
  lytI_scan_expect(s, "[");
  do {
    if (n == MAXRANK * 4) lytI_scan_fail(s, "more than %d padding intervals", MAXRANK * 4);
    iv[n][0] = lytI_scan_int(s);
    lytI_scan_expect(s, ":");
    lytI_scan_expect(s, "+");
    iv[n][1] = lytI_scan_int(s);
    if (!lytS_is_pow2(iv[n][0]) || !lytS_is_pow2(iv[n][1]))
      lytI_scan_fail(s, "a padding interval and its padding are powers of two");
    n++;
  } while (lytI_scan_eat(s, ","));
  lytI_scan_expect(s, "]");
  lytI_scan_expect(s, "{");
  lyt_value t = lytI_tuple(s->c, n);
  for (int32_t i = 0; i < n; i++) t.u.tup.e[i] = lytI_ints_val(s->c, iv[i], 2);
  const char *at = s->p;  /* look at the first key, then read from it */
  lytI_scan_blanks(s);
  const char *k0 = lytI_scan_ident(s);
  s->p = at;
  if (strcmp(k0, "offset") != 0 && strcmp(k0, "block") != 0) {
    fields f;
    read_fields(r, keys, 2, &f, "padded_shared");
    require(r, keys, &f, 2);
    if (f.n[0] != f.n[1] || f.n[0] == 0) lytI_scan_fail(s, "order and shape must have the same rank");
    check_order(s, f.v[0], f.n[0], "order");
    check_positive(s, &f, keys, 1, f.n[1]);
    lytI_scan_expect(s, ">");
    lyt_value v[4] = { t, lytI_ints_val(s->c, f.v[0], f.n[0]), lytI_ints_val(s->c, f.v[1], f.n[1]),
                       lytI_nil() };
    return encoding(s->c, "padded_shared", 4, names, v);
  }
  vecs b[2];
  int seen[2] = { 0 };
  scan_named(s, 2, ins_names, "a #ttg.padded_shared has offset and block", b, seen);
  if (!seen[0] || !b[0].n) lytI_scan_fail(s, "the offset bases are missing");
  if (!seen[1]) lytI_scan_fail(s, "the block bases are missing (block = [] for none)");
  if (b[1].n && b[1].width != b[0].width) lytI_scan_fail(s, "block and offset bases differ in rank");
  for (int32_t i = 0; i < b[0].n; i++) {
    int32_t moves = 0;
    for (int32_t d = 0; d < b[0].width; d++) moves += b[0].v[i * b[0].width + d] != 0;
    if (moves > 1) lytI_scan_fail(s, "each offset basis moves in at most one dimension");
  }
  lytI_scan_expect(s, ">");
  char msg[LYT_MSG_MAX];
  lytG_ll *ll = named_bases(s, 2, ins_names, b, b[0].width, msg);
  if (!ll) lytI_scan_fail(s, "%s", msg);
  int64_t order[MAXRANK], shape[MAXRANK];
  int32_t rank = b[0].width;
  int plain = !b[1].n && padded_order(&b[0], order, shape);
  for (int32_t d = 0; d < rank && !plain; d++) shape[d] = lytG_out_size(ll, d);
  lyt_value v[4] = { t, plain ? lytI_ints_val(s->c, order, rank) : lytI_nil(),
                     lytI_ints_val(s->c, shape, rank), plain ? lytI_nil() : ll_val(ll) };
  return encoding(s->c, "padded_shared", 4, names, v);
}

/* #ttg.partitioned_shared<{numPartitions = 2, numGroups = 4, partitionDim = 0,
** partitionLayout = #inner}>: the record partitioned_shared() builds, over
** the inner kinds it takes (the stdlib's _check_partitioned), so that
** to_triton can write every one back. */
static lyt_value read_partitioned(ttread *r) {
  static const key keys[] = { { "numPartitions", K_INT }, { "numGroups", K_INT },
                              { "partitionDim", K_INT }, { "partitionLayout", K_ATTR } };
  static const char *const names[4] = { "num_partitions", "num_groups", "partition_dim",
                                        "partition_layout" };
  fields f;
  read_fields(r, keys, 4, &f, "partitioned_shared");
  require(r, keys, &f, 4);
  for (int k = 0; k < 2; k++)
    if (!lytS_is_pow2(f.v[k][0])) lytI_scan_fail(&r->s, "%s must be a power of two", keys[k].name);
  if (f.v[2][0] < 0 || f.v[2][0] >= MAXRANK)
    lytI_scan_fail(&r->s, "partitionDim %lld is out of range", (long long)f.v[2][0]);
  const lyt_value *k = f.attr.kind == LYT_VRECORD ? field(&f.attr, "kind") : NULL;
  static const char *const inner[] = { "swizzled_shared", "amd_rotating_shared", "nvmma_shared", "padded_shared" };
  int ok = 0;
  for (size_t i = 0; k && k->kind == LYT_VSTR && i < sizeof inner / sizeof *inner; i++)
    ok |= strcmp(k->u.str.s, inner[i]) == 0;
  if (!ok) lytI_scan_fail(&r->s, "the partitionLayout must be a swizzled, rotating, NVMMA or padded shared encoding");
  lyt_value v[4] = { lytI_int(f.v[0][0]), lytI_int(f.v[1][0]), lytI_int(f.v[2][0]), f.attr };
  return encoding(r->s.c, "partitioned_shared", 4, names, v);
}

/* ---------------------------------------------------------------------
** Import: an attribute, an alias, the text
** ------------------------------------------------------------------- */

/* own: the reader reads everything between '<' and its '>' (the attributes
** that are no dict: struct parameters, padding intervals). */
static const struct { const char *name; lyt_value (*read)(ttread *); int own; } readers[] = {
  { "ttg.blocked", read_blocked, 0 }, { "ttg.slice", read_slice, 0 }, { "ttg.dot_op", read_dot, 0 },
  { "ttg.nvidia_mma", read_mma, 0 }, { "ttg.swizzled_shared", read_swizzled, 0 },
  { "ttg.nvmma_shared", read_nvmma, 0 }, { "ttg.amd_mfma", read_mfma, 0 },
  { "ttg.amd_wmma", read_wmma, 0 }, { "ttg.amd_rotating_shared", read_rotating, 0 },
  { "ttg.shared_linear", read_shared_linear, 1 }, { "ttg.padded_shared", read_padded, 1 },
  { "ttg.partitioned_shared", read_partitioned, 0 },
  { "ttng.tensor_memory_encoding", read_tmem, 1 },
  { "ttng.tensor_memory_scales_encoding", read_tmem_scales, 1 },
};

/* The readers' index of a dotted name ("ttg.blocked", "triton_gpu.blocked"), or -1. */
static int reader_of(const char *name, size_t n) {
  size_t pre = n > 11 && memcmp(name, "triton_gpu.", 11) == 0 ? 7 : 0;  /* read as ttg. */
  for (size_t k = 0; k < sizeof readers / sizeof *readers; k++) {
    const char *rn = readers[k].name;
    if (pre ? strncmp(rn, "ttg.", 4) == 0 && strlen(rn) - 4 == n - 11 && memcmp(rn + 4, name + 11, n - 11) == 0
            : strlen(rn) == n && memcmp(rn, name, n) == 0)
      return (int)k;
  }
  return -1;
}

int lytI_triton_reads(const char *name, size_t n) {
  static const char *const spaces[] = { "ttg.shared_memory", "ttng.tensor_memory", "ttg.linear",
                                        "triton_gpu.linear" };
  for (size_t k = 0; k < sizeof spaces / sizeof *spaces; k++)
    if (strlen(spaces[k]) == n && memcmp(spaces[k], name, n) == 0) return 1;
  return reader_of(name, n) >= 0;
}

/* "#ttg.<kind><{...}>" or "#alias". */
static lyt_value read_attr(ttread *r) {
  lytI_scan *s = &r->s;
  if (++r->depth > LYTI_TEXT_DEPTH) lytI_scan_fail(s, "attributes nested too deeply");
  lytI_scan_expect(s, "#");
  const char *at = s->p;
  const char *name = lytI_scan_ident(s);
  const char *dot = strchr(name, '.');
  lyt_value v;
  if (!dot) {
    int32_t i = 0;
    while (i < r->nalias && r->alias[i] != name) i++;
    if (i == r->nalias) { s->p = at; lytI_scan_fail(s, "unknown alias #%s (define it first: #%s = ...)", name, name); }
    r->depth--;
    return r->value[i];
  }
  if (strcmp(name, "ttg.shared_memory") == 0 || strcmp(name, "ttng.tensor_memory") == 0) {
    r->depth--;  /* a memory space, as memdesc types name it */
    return lytI_str(s->c, dot + 1);
  }
  if (strncmp(name, "ttg.", 4) != 0 && strncmp(name, "triton_gpu.", 11) != 0 &&
      strncmp(name, "ttng.", 5) != 0) {
    s->p = at;
    lytI_scan_fail(s, "expected a #ttg. attribute or an alias");
  }
  lytI_scan_expect(s, "<");
  int k = reader_of(name, strlen(name));
  if (k >= 0 && readers[k].own) {
    v = readers[k].read(r);
    r->depth--;
    return v;
  }
  lytI_scan_expect(s, "{");
  if (strcmp(dot + 1, "linear") == 0) v = read_linear(s);
  else if (k >= 0) v = readers[k].read(r);
  else {
    s->p = at;
    lytI_scan_fail(s, "the encoding '%s' is not read here (linear, blocked, slice, dot_op, nvidia_mma, "
                   "amd_mfma, amd_wmma; swizzled_, amd_rotating_, nvmma_, padded_, partitioned_shared, "
                   "shared_linear; tensor_memory(_scales)_encoding are)", dot + 1);
  }
  lytI_scan_expect(s, ">");
  r->depth--;
  return v;
}

/* ---------------------------------------------------------------------
** Import: tensor<...> and !ttg.memdesc<...> types
** ------------------------------------------------------------------- */

/* "128x64xf16" up to the element type: the dims; *elem the element type
** ("f16", "!tt.ptr<f32>", ...). With elem NULL, dims alone ("3x128x64"). */
static int32_t read_dims(lytI_scan *s, int64_t *dims, const char **elem) {
  int32_t n = 0;
  lytI_scan_blanks(s);
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
    if (n == MAXRANK) lytI_scan_fail(s, "more than %d dims", MAXRANK);
    int64_t d = 0;
    for (; s->p < s->end && *s->p >= '0' && *s->p <= '9'; s->p++)
      if ((d = d * 10 + (*s->p - '0')) > ((int64_t)1 << 40)) lytI_scan_fail(s, "a dim too large");
    if (d < 1) lytI_scan_fail(s, "a dim must be positive");
    dims[n++] = d;
    if (s->p >= s->end || *s->p != 'x') break;
    s->p++;
  }
  if (!elem) return n;
  const char *b = s->p;
  int depth = 0;
  while (s->p < s->end && (depth || (*s->p != ',' && *s->p != '>'))) {
    depth += *s->p == '<' ? 1 : *s->p == '>' ? -1 : 0;
    s->p++;
  }
  if (s->p == b || (n && b[-1] != 'x')) lytI_scan_fail(s, "expected an element type after the dims");
  lytS_buf e;
  lytS_buf_init(&e, CX(s->c));
  lytS_buf_add(&e, b, (size_t)(s->p - b));
  *elem = e.p;
  return n;
}

/* {kind: "tensor", shape, elem, encoding} (encoding nil when the type has none). */
static lyt_value read_tensor(ttread *r) {
  static const char *const names[3] = { "shape", "elem", "encoding" };
  lytI_scan *s = &r->s;
  int64_t dims[MAXRANK];
  const char *elem;
  int32_t n = read_dims(s, dims, &elem);
  lyt_value v[3] = { lytI_ints_val(s->c, dims, n), lytI_str(s->c, elem), lytI_nil() };
  if (lytI_scan_eat(s, ",")) v[2] = read_attr(r);
  lytI_scan_expect(s, ">");
  return encoding(s->c, "tensor", 3, names, v);
}

/* {kind: "memdesc", shape, elem, encoding, memory_space, mutable, alloc_shape}. */
static lyt_value read_memdesc(ttread *r) {
  static const char *const names[6] = { "shape", "elem", "encoding", "memory_space", "mutable",
                                        "alloc_shape" };
  lytI_scan *s = &r->s;
  int64_t dims[MAXRANK], alloc[MAXRANK];
  const char *elem;
  int32_t n = read_dims(s, dims, &elem);
  lytI_scan_expect(s, ",");
  lyt_value v[6] = { lytI_ints_val(s->c, dims, n), lytI_str(s->c, elem), read_attr(r), lytI_nil(),
                     lytI_bool(0), lytI_ints_val(s->c, dims, n) };
  if (lytI_scan_eat(s, ",")) v[3] = read_attr(r);
  while (lytI_scan_eat(s, ",")) {
    if (lytI_scan_eat(s, "mutable")) v[4] = lytI_bool(1);
    else v[5] = lytI_ints_val(s->c, alloc, read_dims(s, alloc, NULL));
  }
  lytI_scan_expect(s, ">");
  return encoding(s->c, "memdesc", 6, names, v);
}

/* ---------------------------------------------------------------------
** Import: the text
** ------------------------------------------------------------------- */

/* One alias: its text read by a scanner of its own (errors point at the
** aliases argument). */
static void define(ttread *r, const char *name, const lyt_value *text, const char *at) {
  for (int32_t i = 0; i < r->nalias; i++)
    if (r->alias[i] == name) {
      if (at) r->s.p = at;
      lytI_scan_fail(&r->s, "the alias #%s is defined twice", name);
    }
  if (r->nalias == TT_MAXALIAS) lytI_scan_fail(&r->s, "more than %d aliases", TT_MAXALIAS);
  lyt_value v;
  if (text) {
    lytI_scan outer = r->s;
    if (text->kind != LYT_VSTR) lytI_argerr(r->s.c, 1, "from_triton: the alias '%s' must be a string", name);
    r->s.argi = 1;
    r->s.text = r->s.p = text->u.str.s;
    r->s.end = text->u.str.s + text->u.str.len;
    v = read_attr(r);
    lytI_scan_end(&r->s);
    r->s = outer;
  } else {
    v = read_attr(r);
  }
  r->alias[r->nalias] = name;
  r->value[r->nalias++] = v;
}

/* The aliases argument ({blocked: "#ttg.blocked<...>", ...}), then alias
** definitions in the text ("#name = attribute", as a TTGIR module's header
** has them), then one attribute or type, which may use them all. */
lyt_value lytI_from_triton(lytI_call *c) {
  ttread r;
  r.nalias = r.depth = 0;
  lytI_scan_init(&r.s, c, 0);
  const lyt_value *al = &c->argv[1];
  if (al->kind != LYT_VNIL && al->kind != LYT_VRECORD)
    lytI_argerr(c, 1, "from_triton: aliases must be a record of attribute texts, got %s", lytI_kindname(al->kind));
  for (int32_t i = 0; al->kind == LYT_VRECORD && i < al->u.rec.n; i++)
    define(&r, al->u.rec.name[i], &al->u.rec.e[i], NULL);
  for (;;) {
    const char *start = r.s.p;
    if (!lytI_scan_eat(&r.s, "#")) break;
    const char *name = lytI_scan_ident(&r.s);
    if (strchr(name, '.') || !lytI_scan_eat(&r.s, "=")) { r.s.p = start; break; }
    define(&r, name, NULL, start);
  }
  lyt_value v;
  if (lytI_scan_eat(&r.s, "tensor<")) v = read_tensor(&r);
  else if (lytI_scan_eat(&r.s, "!ttg.memdesc<")) v = read_memdesc(&r);
  else {
    const char *at = r.s.p;
    v = read_attr(&r);
    if (v.kind == LYT_VSTR) {
      r.s.p = at;
      lytI_scan_fail(&r.s, "#ttg.%s is a memory space, not a layout: it belongs in a !ttg.memdesc type",
                     v.u.str.s);
    }
  }
  lytI_scan_end(&r.s);
  return v;
}
