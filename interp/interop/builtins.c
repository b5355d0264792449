/*
** interop/builtins.c: layouts exchanged with other tools as text: Triton's
** attributes, CuTe's C++ expressions, IREE's nested-layout attribute and
** JSON, written out and read back. Each export has an import that gives
** an equal value back (from_X(to_X(L)) == L); the formats and what each
** keeps are described in interop/triton.c, interop/cute.c and
** interop/json.c, IREE's here. Every reader refuses what it does not
** understand, with the character it stopped at, rather than guess.
*/
#include <string.h>

#include "interp/interop/interop.h"
#include "interp/nested/values.h"

#define CX(c) lytI_cx(c)

/* ---------------------------------------------------------------------
** IREE: #iree_vector_ext.nested_layout<subgroup_tile = [..], ...>, the
** seven lists in any order (IREE prints them in nested()'s order), each
** exactly once. subgroup_size and subgroups are not in IREE's text; as in
** nested(), they are inferred unless given.
** ------------------------------------------------------------------- */

static const char *const iree_keys[7] = {
  "subgroup_tile", "batch_tile", "outer_tile", "thread_tile", "element_tile",
  "subgroup_strides", "thread_strides",
};

typedef struct iree_in {
  int32_t n[7];
  int64_t v[7][LYTN_MAXRANK];
  int64_t subgroup_size, subgroups;
  lytN_layout *out;
} iree_in;

static void iree_entries(lytI_scan *s, iree_in *in) {
  int seen[7] = { 0 };
  do {
    const char *at = (lytI_scan_blanks(s), s->p), *k = lytI_scan_ident(s);
    int t = 0;
    while (t < 7 && strcmp(iree_keys[t], k) != 0) t++;
    if (t == 7 || seen[t]++) {
      s->p = at;
      lytI_scan_fail(s, t == 7 ? "unknown key '%s'" : "'%s' given twice", k);
    }
    lytI_scan_expect(s, "=");
    in->n[t] = lytI_scan_ints(s, in->v[t], LYTN_MAXRANK);
  } while (lytI_scan_eat(s, ","));
  for (int t = 0; t < 7; t++) {
    if (!seen[t]) lytI_scan_fail(s, "the key '%s' is missing", iree_keys[t]);
    if (in->n[t] != in->n[0])
      lytI_scan_fail(s, "%s has %d entries but subgroup_tile has %d", iree_keys[t],
                     (int)in->n[t], (int)in->n[0]);
  }
}

static void iree_build(lytS_ctx *cx, void *ud) {
  iree_in *in = ud;
  const int64_t *tiles[LYTN_LEVELS] = { in->v[0], in->v[1], in->v[2], in->v[3], in->v[4] };
  in->out = lytN_make(cx, in->n[0], tiles, in->v[5], in->v[6], in->subgroup_size, in->subgroups);
}

static lyt_value b_from_iree(lytI_call *c) {
  lytI_scan s;
  iree_in in;
  memset(&in, 0, sizeof in);
  lytI_scan_init(&s, c, 0);
  lytI_scan_expect(&s, "#");
  if (strcmp(lytI_scan_ident(&s), "iree_vector_ext.nested_layout") != 0) {
    s.p = s.text;
    lytI_scan_fail(&s, "expected #iree_vector_ext.nested_layout<...>");
  }
  lytI_scan_expect(&s, "<");
  iree_entries(&s, &in);
  lytI_scan_expect(&s, ">");
  lytI_scan_end(&s);
  in.subgroup_size = lytI_getposint_opt(c, 1);
  in.subgroups = lytI_getposint_opt(c, 2);
  lytI_guard(c, 0, iree_build, &in);
  lyt_value r = { .kind = LYT_VNESTED };
  r.u.nested = in.out;
  return r;
}

#define P(...) { __VA_ARGS__, NULL }
const lytI_builtin lytI_interop_lib[] = {
  { "to_triton", lytI_to_triton, 1, 0, P("x"), "to_triton(x): Triton 3.6's #ttg.linear<{...}> of a linear layout, #ttg.blocked<{...}> of a blocked encoding",
    "to_triton(({register: [[0,1]], lane: [[1,0],[2,0]]} -> {dim0: 4, dim1: 2}))" },
  { "from_triton", lytI_from_triton, 1, 0, P("text", "aliases"), "from_triton(text[, aliases={name: text}]): a Triton attribute or type (#ttg.linear, #ttg.blocked, slice, dot_op, nvidia_mma, swizzled_shared, nvmma_shared; tensor<...>, !ttg.memdesc<...>) read back; aliases may be defined before it or given",
    "from_triton(\"#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\")" },
  { "to_cute", lytI_to_cute, 1, 0, P("L", "static"), "to_cute(L[, static=false]): CuTe C++: make_layout(make_shape(..), make_stride(..)), or the Layout<Shape<..>, Stride<..>> type",
    "to_cute((4,2):(1,4))" },
  { "from_cute", lytI_from_cute, 1, 0, P("text"), "from_cute(text): a layout from CuTe notation (4,2):(1,4), make_layout(...), Layout<...> or a swizzled form",
    "from_cute(\"make_layout(make_shape(Int<4>{}, 2), LayoutRight{})\")" },
  { "from_iree", b_from_iree, 1, 0, P("text", "subgroup_size", "subgroups"), "from_iree(text[, subgroup_size, subgroups]): a nested layout from IREE's attribute text",
    "from_iree(iree_attr(nested((1,1), (2,4), (4,1), (4,2), (1,4), (0,0), (1,4))))" },
  { "explain", lytI_explain, 1, 0, P("text", "name", "format"), "explain(text[, name, format]): a TTGIR module's encodings, each convert_layout's mechanism (as Triton 3.6 lowers it), shared-memory and global accesses; format \"text\" or \"json\" gives that form",
    "explain(\"#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\\nmodule attributes {\\\"ttg.num-warps\\\" = 4 : i32, \\\"ttg.threads-per-warp\\\" = 32 : i32} {}\")" },
  { "to_json", lytI_to_json, 1, 0, P("x"), "to_json(x): JSON of a layout (cute, linear, axe, nested) or of plain data and records",
    "to_json((4,2):(1,4))" },
  { "from_json", lytI_from_json, 1, 0, P("text"), "from_json(text): the value to_json wrote (the kind says which)",
    "from_json(to_json((4,2):(1,4)))" },
  { NULL, NULL, 0, 0, { NULL }, NULL, NULL },
};
