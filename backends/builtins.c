/*
** backends/builtins.c: kernel descriptions in the language, their emission
** through a backend, and the bank-conflict query.
*/
#include <string.h>

#include "backends/backend.h"
#include "backends/values.h"
#include "interp/linear/convert.h"
#include "interp/stride/values.h"

#define CX(c) lytI_cx(c)

static const char *get_str(lytI_call *c, int i, const char *what) {
  if (c->argv[i].kind != LYT_VSTR)
    lytI_argerr(c, i, "%s: %s must be a string, got %s", c->self->name, what,
                lytI_kindname(c->argv[i].kind));
  return lytI_intern(c->L, c->argv[i].u.str.s, (size_t)c->argv[i].u.str.len);
}

#define THREADS "register, lane, warp -> dim0, ..."

/* Argument i, a linear layout `dims` (e.g. "block -> dim0, ..."). */
static const lytG_ll *get_linear(lytI_call *c, int i, const char *dims) {
  if (c->argv[i].kind != LYT_VLINEAR)
    lytI_argerr(c, i, "%s: %s must be a linear layout (%s), got %s", c->self->name,
                c->self->params[i], dims, lytI_kindname(c->argv[i].kind));
  return c->argv[i].u.ll;
}

/* A flat stride layout of rank r: its shape and integer strides. */
static int32_t get_strided(lytI_call *c, int i, int64_t *shape, int64_t *stride) {
  lytS_layout l = lytI_getlayout(c, i);
  lytS_tup *leaves[LYTK_MAXRANK + 1], *sl[LYTK_MAXRANK + 1];
  int32_t r = lytS_rank(l.shape);
  if (r > LYTK_MAXRANK)
    lytI_argerr(c, i, "kernel: tensors have at most %d dims", LYTK_MAXRANK);
  for (int32_t d = 0; d < r; d++) {
    leaves[d] = lytS_istup(l.shape) ? l.shape->e[d] : l.shape;
    sl[d] = lytS_istup(l.stride) ? l.stride->e[d] : l.stride;
    if (!lytS_isint(leaves[d]) || !lytS_isint(sl[d]))
      lytI_argerr(c, i, "kernel: %s must be a flat layout with integer strides, like "
                  "(64,64):(64,1)", c->self->params[i]);
    shape[d] = leaves[d]->v, stride[d] = sl[d]->v;
  }
  return r;
}

/* The shared layout: tile coordinate -> offset, from a linear layout in
** either direction or a (swizzled) stride layout over the tile. */
static const lytG_ll *get_smem(lytI_call *c, int i) {
  const lyt_value *v = &c->argv[i];
  if (v->kind == LYT_VLAYOUT) return lytC_linear_of_layout(CX(c), *v->u.lay, "offset");
  if (v->kind == LYT_VCOMPOSED) return lytC_linear_of_composed(CX(c), v->u.comp, "offset");
  if (v->kind != LYT_VLINEAR)
    lytI_argerr(c, i, "kernel: smem must be a shared layout (linear, or a swizzled layout of "
                "the tile), got %s", lytI_kindname(v->kind));
  const lytG_ll *S = v->u.ll;
  if (S->nin == 1 && strcmp(S->in[0].name, "offset") == 0) return lytG_invert(CX(c), S);
  return S;
}

/* An L2 eviction hint: nil, "evict_first" or "evict_last". */
static lytK_l2 get_l2(lytI_call *c, int i) {
  if (lytI_isnil(c, i)) return LYTK_L2_NONE;
  const char *s = get_str(c, i, "an L2 hint");
  for (lytK_l2 h = LYTK_L2_EVICT_FIRST; h <= LYTK_L2_EVICT_LAST; h++)
    if (strcmp(s, lytK_l2_name(h)) == 0) return h;
  lytI_argerr(c, i, "kernel: %s must be \"evict_first\" or \"evict_last\", got \"%s\"",
              c->self->params[i], s);
  return LYTK_L2_NONE;
}

/* kernel(name, elem, src, dst, tile, load=, store=nil, smem=nil, grid_order=nil,
**        tiles_per_block=1, grid_group=nil, smem_bytes=0, grid=nil, l2_load=nil,
**        l2_store=nil, mechanism="auto", round_trips=0): what moves and in
**        which tiles by position, how it moves by name. */
static lyt_value b_kernel(lytI_call *c) {
  lytK_kernel *k = lytS_alloc(CX(c), sizeof *k);
  memset(k, 0, sizeof *k);
  k->at = c->loc;
  k->name = get_str(c, 0, "the name");
  if (!*k->name) lytI_argerr(c, 0, "kernel: the name must be an identifier, got \"\"");
  for (const char *p = k->name; *p; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (p > k->name && *p >= '0' && *p <= '9')))
      lytI_argerr(c, 0, "kernel: the name must be an identifier, got \"%s\"", k->name);
  k->elem = get_str(c, 1, "the element type");
  if (!(k->elem_bytes = lytK_elem_bytes(k->elem)))
    lytI_argerr(c, 1, "kernel: unknown element type \"%s\" (f16, bf16, f32, f64, i8, i32)", k->elem);
  int64_t dshape[LYTK_MAXRANK];
  k->rank = get_strided(c, 2, k->shape, k->src_stride);
  if (get_strided(c, 3, dshape, k->dst_stride) != k->rank ||
      memcmp(dshape, k->shape, sizeof(int64_t) * (size_t)k->rank))
    lytI_argerr(c, 3, "kernel: dst must have the shape of src");
  if (lytI_getints(c, 4, k->tile, 1, LYTK_MAXRANK) != k->rank)
    lytI_argerr(c, 4, "kernel: the tile must have one extent per dim (%d)", (int)k->rank);
  k->load = get_linear(c, 5, THREADS);
  k->store = lytI_isnil(c, 6) ? NULL : get_linear(c, 6, THREADS);
  k->smem = lytI_isnil(c, 7) ? NULL : get_smem(c, 7);
  if (!lytI_isnil(c, 8)) {
    int64_t o[LYTK_MAXRANK];
    if (lytI_getints(c, 8, o, 1, LYTK_MAXRANK) != k->rank)
      lytI_argerr(c, 8, "kernel: grid_order must list every dim once");
    for (int32_t d = 0; d < k->rank; d++) k->grid_order[d] = (int32_t)o[d];
    k->has_grid_order = 1;
  }
  if (!lytI_isnil(c, 9)) {
    int64_t t = lytI_getint(c, 9);
    if (t < 1 || t > 64) lytI_argerr(c, 9, "kernel: tiles_per_block must be 1 to 64");
    k->tiles_per_block = (int32_t)t;
  }
  if (!lytI_isnil(c, 10)) {
    int64_t g = lytI_getint(c, 10);
    if (g < 1 || g > 1024) lytI_argerr(c, 10, "kernel: grid_group must be 1 to 1024");
    k->grid_group = (int32_t)g;
  }
  if (!lytI_isnil(c, 11)) {
    int64_t n = lytI_getint(c, 11);
    if (n < 0 || n > LYTK_MAX_SMEM || n % 16)
      lytI_argerr(c, 11, "kernel: smem_bytes must be a multiple of 16 from 0 to %d", LYTK_MAX_SMEM);
    k->smem_bytes = (int32_t)n;
  }
  if (!lytI_isnil(c, 12)) k->grid = get_linear(c, 12, "block -> dim0, ...");
  k->l2_load = get_l2(c, 13);
  k->l2_store = get_l2(c, 14);
  if (!lytI_isnil(c, 15)) {
    const char *m = get_str(c, 15, "the mechanism");
    int32_t i = 0;
    while (lytK_mech_names[i] && strcmp(lytK_mech_names[i], m)) i++;
    if (!lytK_mech_names[i])
      lytI_argerr(c, 15, "kernel: mechanism must be \"auto\", \"none\", \"registers\", "
                  "\"shuffle\" or \"shared\", got \"%s\"", m);
    k->mechanism = (lytK_mech)i;
  }
  if (!lytI_isnil(c, 16)) {
    int64_t n = lytI_getint(c, 16);
    if (n < 0 || n > 1024) lytI_argerr(c, 16, "kernel: round_trips must be 0 to 1024");
    k->round_trips = (int32_t)n;
  }
  if (!lytI_isnil(c, 17)) {
    int64_t n = lytI_getint(c, 17);
    if (n != 1 && n != 2) lytI_argerr(c, 17, "kernel: buffers must be 1 or 2");
    k->buffers = (int32_t)n;
  }
  /* every check now, not at emit time; the search for a shared layout is
  ** the costly part of lowering: it is kept, so that emit, program() and
  ** --emit=expect reuse it */
  const lytK_program *P = lytK_lower(CX(c), k);
  if (!k->smem) k->smem = P->smem, k->smem_picked = 1;
  lyt_value v = { .kind = LYT_VKERNEL };
  v.u.kernel = k;
  return v;
}

static const lytK_kernel *get_kernel(lytI_call *c, int i) {
  if (c->argv[i].kind != LYT_VKERNEL)
    lytI_argerr(c, i, "%s: needs a kernel (made by kernel(...)), got %s", c->self->name,
                lytI_kindname(c->argv[i].kind));
  return c->argv[i].u.kernel;
}

/* emit(kernels, target="c", arch=nil): one kernel or a tuple of them. */
static lyt_value b_emit(lytI_call *c) {
  const char *name = lytI_isnil(c, 1) ? "c" : get_str(c, 1, "the target");
  if (!lytK_find_backend(name)) {
    lytS_buf t;
    lytS_buf_init(&t, CX(c));
    lytK_target_list(&t);
    lytI_argerr(c, 1, "emit: unknown target \"%s\" (%s)", name, t.p);
  }
  const lyt_value *v = &c->argv[0];
  int32_t n = v->kind == LYT_VTUP ? v->u.tup.n : 1;
  const lytK_kernel **ks = lytS_alloc(CX(c), sizeof *ks * (size_t)(n ? n : 1));
  for (int32_t i = 0; i < n; i++) {
    const lyt_value *e = v->kind == LYT_VTUP ? &v->u.tup.e[i] : v;
    if (e->kind != LYT_VKERNEL)
      lytI_argerr(c, 0, "emit: needs kernels, got %s", lytI_kindname(e->kind));
    ks[i] = e->u.kernel;
  }
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  lytK_emit(CX(c), &b, ks, n, name, lytI_isnil(c, 2) ? NULL : get_str(c, 2, "the arch"));
  return lytI_str(c, b.p);
}

static lyt_value b_program(lytI_call *c) {
  lytS_buf b;
  lytS_buf_init(&b, CX(c));
  lytK_print_program(&b, lytK_lower(CX(c), get_kernel(c, 0)));
  return lytI_str(c, b.p);
}

/* A record of four integer fields. */
static lyt_value ints4(lytI_call *c, const char *const *names, const int64_t *vals) {
  lyt_value r = lytI_record(c, 4, names);
  for (int i = 0; i < 4; i++) r.u.rec.e[i] = lytI_int(vals[i]);
  return r;
}

/* What a launcher must pass: the grid, the block and the dynamic shared memory. */
static lyt_value b_launch(lytI_call *c) {
  const lytK_program *P = lytK_lower(CX(c), get_kernel(c, 0));
  static const char *const names[] = { "blocks", "threads", "smem_bytes", "registers" };
  int64_t vals[4] = { P->blocks, P->threads, P->smem_bytes, P->nregs };
  return ints4(c, names, vals);
}

/* conversion(K): {mechanism, back, times, rounds, buffers} of the
** kernel's layout conversion (rounds and buffers of its shared staging). */
static lyt_value b_conversion(lytI_call *c) {
  const lytK_program *P = lytK_lower(CX(c), get_kernel(c, 0));
  static const char *const names[] = { "mechanism", "back", "times", "rounds", "buffers" };
  lyt_value r = lytI_record(c, 5, names);
  const char *back = P->mechanism_back ? P->mechanism_back : P->mechanism;
  r.u.rec.e[0] = P->mechanism ? lytI_str(c, P->mechanism) : lytI_nil();
  r.u.rec.e[1] = back && P->conversions > 1 ? lytI_str(c, back) : lytI_nil();
  r.u.rec.e[2] = lytI_int(P->conversions);
  r.u.rec.e[3] = lytI_int(P->rounds);
  r.u.rec.e[4] = lytI_int(P->buffers);
  return r;
}

static lyt_value b_kernel_smem(lytI_call *c) {
  const lytK_kernel *k = get_kernel(c, 0);
  if (!lytK_lower(CX(c), k)->smem)
    lytI_callerr(c, "kernel_smem: kernel %s moves its data without shared memory", k->name);
  lyt_value v = { .kind = LYT_VLINEAR };
  v.u.ll = k->smem;
  return v;
}

static lyt_value conflicts_record(lytI_call *c, lytK_conflicts k) {
  static const char *const names[] = { "accesses", "wavefronts", "ideal", "conflicts" };
  int64_t vals[4] = { k.accesses, k.wavefronts, k.ideal, k.conflicts };
  return ints4(c, names, vals);
}

/* bank_conflicts(dist, smem, elem="f32", vec=1, lanes=32, access="load") */
static lyt_value b_bank_conflicts(lytI_call *c) {
  const lytG_ll *d = get_linear(c, 0, THREADS), *s = get_smem(c, 1);
  const char *elem = lytI_isnil(c, 2) ? "f32" : get_str(c, 2, "elem");
  int32_t eb = lytK_elem_bytes(elem);
  if (!eb) lytI_argerr(c, 2, "bank_conflicts: unknown element type \"%s\"", elem);
  int64_t vec = lytI_isnil(c, 3) ? 1 : lytI_getint(c, 3);
  int64_t lanes = lytI_isnil(c, 4) ? 32 : lytI_getint(c, 4);
  if (vec < 1 || vec > 16) lytI_argerr(c, 3, "bank_conflicts: vec must be 1 to 16");
  if (lanes < 1 || lanes > 64) lytI_argerr(c, 4, "bank_conflicts: lanes must be 1 to 64");
  const char *acc = lytI_isnil(c, 5) ? "load" : get_str(c, 5, "the access");
  if (strcmp(acc, "load") && strcmp(acc, "store"))
    lytI_argerr(c, 5, "bank_conflicts: access must be \"load\" or \"store\", got \"%s\"", acc);
  return conflicts_record(c, lytK_bank_conflicts(CX(c), d, s, eb, (int32_t)vec, (int32_t)lanes,
                                                 strcmp(acc, "load") == 0));
}

/* kernel_conflicts(K, target=nil): bank_conflicts' count over the lowered
** program's own shared accesses (both sides, every warp of a block), by
** the bank model of the target's GPU ("sm_80", "sm_90", "sm_100": NVIDIA,
** warps of 32; "gfx942": CDNA3, waves of 64), over the accesses it has
** (what the target lacks as the plain accesses it becomes); nil: the
** model of the layouts' warps (64 lanes: CDNA3), the ops as lowered. */
static lyt_value b_kernel_conflicts(lytI_call *c) {
  const lytK_program *P = lytK_lower(CX(c), get_kernel(c, 0));
  if (!lytI_isnil(c, 1)) {
    static const char *const names[] = { "sm_80", "sm_90", "sm_100", "gfx942" };
    const char *t = get_str(c, 1, "the target");
    int i = 0;
    while (i < 4 && strcmp(t, names[i])) i++;
    if (i == 4)
      lytI_argerr(c, 1, "kernel_conflicts: the target must be \"sm_80\", \"sm_90\", \"sm_100\" "
                  "or \"gfx942\" (no bank model for others), got \"%s\"", t);
    lytK_program *Q = lytS_dup(CX(c), lytK_expand_ops(CX(c), P, i == 0), sizeof *Q);
    if (i == 1 || i == 2) Q->op = P->op, Q->nops = P->nops;  /* sm_90 on: every op there is */
    Q->model = i == 3 ? LYTK_MODEL_CDNA3 : LYTK_MODEL_NVIDIA;
    P = Q;
  }
  return conflicts_record(c, lytK_program_conflicts(CX(c), P));
}

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_kernel_lib[] = {
  { "kernel", b_kernel, 6, 5, P("name", "elem", "src", "dst", "tile", "load", "store", "smem", "grid_order", "tiles_per_block", "grid_group", "smem_bytes", "grid", "l2_load", "l2_store", "mechanism", "round_trips", "buffers"), "kernel(name, elem, src, dst, tile, load=L[, store=L, smem=picked, grid_order=row-major, tiles_per_block=1, grid_group=nil, smem_bytes=what staging needs, grid=nil, l2_load=nil, l2_store=nil, mechanism=\"auto\", round_trips=0, buffers=picked]): a kernel moving a tensor from src to dst layouts, tile by tile (the last tile may stick out); between the load and store layouts the registers are converted by mechanism (\"none\", \"registers\", \"shuffle\", \"shared\"; auto: the cheapest), round_trips more times there and back, each after XORing the elements with the block index; shared staging takes rounds where smem_bytes is less than the tile, in 1 or 2 alternating buffers; all but the first five by name",
    "kernel(\"copy\", \"f32\", (64,64):(64,1), (64,64):(64,1), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64)))" },
  { "emit", b_emit, 1, 0, P("kernels", "target", "arch"), "emit(kernels[, target=\"c\", arch]): the code of kernels for a target (c, ptx, amdgcn)",
    "emit(kernel(\"copy\", \"f32\", (64,64):(64,1), (64,64):(64,1), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))), target=\"ptx\")" },
  { "program", b_program, 1, 0, P("K"), "program(K): the backend-neutral memory-operation program of a kernel, as text",
    "program(kernel(\"copy\", \"f32\", (64,64):(64,1), (64,64):(64,1), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))))" },
  { "launch", b_launch, 1, 0, P("K"), "launch(K): {blocks, threads, smem_bytes, registers}: the grid and block a kernel is launched with, its dynamic shared memory in bytes, and its element registers per thread",
    "launch(kernel(\"copy\", \"f32\", (64,64):(64,1), (64,64):(64,1), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64))))" },
  { "kernel_conflicts", b_kernel_conflicts, 1, 0, P("K", "target"), "kernel_conflicts(K[, target]): {accesses, wavefronts, ideal, conflicts} of a kernel's shared loads and stores in one block, from the addresses of its lowered program, by the bank model of target (\"sm_80\", \"sm_90\", \"sm_100\": NVIDIA, warps of 32; \"gfx942\": AMD CDNA3, waves of 64; default: the layouts' warps, CDNA3 for 64 lanes)",
    "kernel_conflicts(kernel(\"t\", \"f32\", (64,64):(64,1), (64,64):(1,64), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64)), store=to_linear(blocked((4,1), (4,8), (1,4), (0,1)), (64,64))))" },
  { "conversion", b_conversion, 1, 0, P("K"), "conversion(K): {mechanism, back, times, rounds, buffers}: how a kernel converts its load layout's registers to its store layout's (\"none\", \"registers\", \"shuffle\", \"shared\"; nil when one layout does both), how its round trips go back (nil without them), how many conversions it makes, and the rounds of a shared staging and the scratch buffers they alternate in (0 without shared memory)",
    "conversion(kernel(\"t\", \"f32\", (64,64):(64,1), (64,64):(1,64), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64)), store=to_linear(blocked((4,1), (4,8), (1,4), (0,1)), (64,64))))" },
  { "kernel_smem", b_kernel_smem, 1, 0, P("K"), "kernel_smem(K): the shared layout a kernel stages through (picked when not given)",
    "kernel_smem(kernel(\"t\", \"f32\", (64,64):(64,1), (64,64):(1,64), (64,64), load=to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (64,64)), store=to_linear(blocked((4,1), (4,8), (1,4), (0,1)), (64,64))))" },
  { "bank_conflicts", b_bank_conflicts, 2, 0, P("dist", "smem", "elem", "vec", "lanes", "access"), "bank_conflicts(dist, smem[, elem=\"f32\", vec=1, lanes=32, access=\"load\"]): shared-memory wavefronts and conflicts of an access pattern (lanes = 64: AMD CDNA3's LDS, whose 16-byte loads and stores go in different phases)",
    "bank_conflicts(to_linear(blocked((1,4), (8,4), (4,1), (1,0)), (32,32)), linear((32,32):(32,1)))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};

/* ---------------------------------------------------------------------
** Kind operations
** ------------------------------------------------------------------- */

/* Every layout the description points to is copied: a binding outlives
** the statement's scratch arena the layouts were made in. */
lyt_value lytI_copy_kernel(lytS_ctx *cx, lyt_value v) {
  lytK_kernel *x = lytS_dup(cx, v.u.kernel, sizeof *x);  /* names interned */
  x->load = lytS_dup(cx, x->load, sizeof *x->load);  /* flat; dim names interned */
  x->store = lytS_dup(cx, x->store, sizeof *x->store);
  x->smem = lytS_dup(cx, x->smem, sizeof *x->smem);
  x->grid = lytS_dup(cx, x->grid, sizeof *x->grid);
  v.u.kernel = x;
  return v;
}

int lytI_equal_kernel(lytS_ctx *cx, const lyt_value *a, const lyt_value *b) { (void)cx; return lytK_equal(a->u.kernel, b->u.kernel); }
static void print_ll(lytS_buf *b, const char *opt, const lytG_ll *L) {
  if (!L) return;
  lyt_value v = { .kind = LYT_VLINEAR };
  v.u.ll = L;
  lytS_buf_printf(b, ", %s=", opt);
  lytI_print_value(b, &v);
}

static void print_strided(lytS_buf *b, const lytK_kernel *k, const int64_t *stride) {
  lytS_buf_puts(b, ", ");
  for (int pass = 0; pass < 2; pass++) {
    const int64_t *x = pass ? stride : k->shape;
    lytS_buf_puts(b, pass ? ":" : "");
    if (k->rank > 1) lytS_buf_puts(b, "(");
    for (int32_t d = 0; d < k->rank; d++) lytS_buf_printf(b, "%s%lld", d ? "," : "", (long long)x[d]);
    if (k->rank > 1) lytS_buf_puts(b, ")");
  }
}

/* As the kernel(...) call that makes it: the options given (a shared
** layout lowering picked is picked again). */
void lytI_print_kernel(lytS_buf *b, const lyt_value *v) {
  const lytK_kernel *k = v->u.kernel;
  lytS_buf_printf(b, "kernel(\"%s\", \"%s\"", k->name, k->elem);
  print_strided(b, k, k->src_stride);
  print_strided(b, k, k->dst_stride);
  lytS_buf_puts(b, ", (");
  for (int32_t d = 0; d < k->rank; d++) lytS_buf_printf(b, "%s%lld", d ? "," : "", (long long)k->tile[d]);
  lytS_buf_puts(b, k->rank == 1 ? ",)" : ")");
  print_ll(b, "load", k->load);
  print_ll(b, "store", k->store);
  if (!k->smem_picked) print_ll(b, "smem", k->smem);
  if (k->has_grid_order) {
    lytS_buf_puts(b, ", grid_order=(");
    for (int32_t d = 0; d < k->rank; d++) lytS_buf_printf(b, "%s%d", d ? "," : "", (int)k->grid_order[d]);
    lytS_buf_puts(b, k->rank == 1 ? ",)" : ")");
  }
  if (k->tiles_per_block) lytS_buf_printf(b, ", tiles_per_block=%d", (int)k->tiles_per_block);
  if (k->grid_group) lytS_buf_printf(b, ", grid_group=%d", (int)k->grid_group);
  if (k->smem_bytes) lytS_buf_printf(b, ", smem_bytes=%d", (int)k->smem_bytes);
  print_ll(b, "grid", k->grid);
  if (k->l2_load) lytS_buf_printf(b, ", l2_load=\"%s\"", lytK_l2_name(k->l2_load));
  if (k->l2_store) lytS_buf_printf(b, ", l2_store=\"%s\"", lytK_l2_name(k->l2_store));
  if (k->mechanism) lytS_buf_printf(b, ", mechanism=\"%s\"", lytK_mech_names[k->mechanism]);
  if (k->round_trips) lytS_buf_printf(b, ", round_trips=%d", (int)k->round_trips);
  if (k->buffers) lytS_buf_printf(b, ", buffers=%d", (int)k->buffers);
  lytS_buf_puts(b, ")");
}
