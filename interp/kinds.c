/*
** kinds.c: the table of value kinds, one row per kind (eval/kind.h).
** Each row names the operations its family defines for it; a NULL
** operation carries the reason it does not apply. A new kind is its
** functions in its family folder, a lyt_vkind, and one row here.
**
** The samples are what tests/unit/test_kinds.c builds each kind from;
** it runs with triton.lyt imported, `fn f(x) = x + 1` defined and the C
** function `cf` registered.
*/
#include "backends/values.h"
#include "interp/axe/values.h"
#include "interp/axisinfo/values.h"
#include "interp/eval/kind.h"
#include "interp/interop/interop.h"
#include "interp/linear/values.h"
#include "interp/nested/values.h"
#include "interp/picture/picture.h"
#include "interp/stride/values.h"

#define CODE "JSON is data; a function is code (it prints as lyt source)"

const lytI_kind lytI_kinds[LYT_NKINDS] = {
  [LYT_VNIL] = {
    "nil", LYT_TNIL, lytI_copy_self, lytI_equal_always, lytI_print_nil, NULL,
    lytI_json_nil, NULL, .sample = "nil" },
  [LYT_VBOOL] = {
    "bool", LYT_TBOOL, lytI_copy_self, lytI_equal_int, lytI_print_bool, NULL,
    lytI_json_bool, NULL, .sample = "true" },
  [LYT_VINT] = {
    "integer", LYT_TINT, lytI_copy_self, lytI_equal_int, lytI_print_int, NULL,
    lytI_json_int, NULL, .sample = "-42" },
  [LYT_VSTR] = {
    "string", LYT_TSTRING, lytI_copy_str, lytI_equal_str, lytI_print_str, NULL,
    lytI_json_str, NULL, .sample = "\"a \\\"b\\\"\\n\\tc\"" },
  [LYT_VUNDER] = {
    "wildcard '_'", LYT_TOTHER, lytI_copy_self, lytI_equal_always, lytI_print_under, NULL,
    NULL, "a wildcard selects, it holds no data", .sample = "_" },
  [LYT_VTUP] = {
    "tuple", LYT_TTUPLE, lytI_copy_seq, lytI_equal_seq, lytI_print_tuple, NULL,
    lytI_json_tuple, NULL, .sample = "(1,(2,\"x\"),(),nil)" },
  [LYT_VTILER] = {
    "tiler", LYT_TTUPLE, lytI_copy_seq, lytI_equal_seq, lytI_print_tiler, NULL,
    NULL, "JSON has CuTe layouts, not tilers", .sample = "[3:3,(2,4):(1,8),_]" },
  [LYT_VLAYOUT] = {
    "layout", LYT_TLAYOUT, lytI_copy_layout, lytI_equal_layout, lytI_print_layout, NULL,
    lytI_json_layout, NULL, lytI_apply_layout, 0, lytI_show_table, lytI_layout_to_linear,
    lytI_layout_to_axe, .sample = "(4,(2,3)):(2,(1,8))" },
  [LYT_VSWIZZLE] = {
    "swizzle", LYT_TOTHER, lytI_copy_swizzle, lytI_equal_swizzle, lytI_print_swizzle, NULL,
    NULL, "JSON has swizzled layouts, not swizzle functors", lytI_apply_layout, 0,
    .sample = "swizzle(3,4,3)" },
  [LYT_VCOMPOSED] = {
    "composed layout", LYT_TLAYOUT, lytI_copy_composed, lytI_equal_composed,
    lytI_print_composed, NULL,
    lytI_json_composed, NULL, lytI_apply_layout, 0, lytI_show_table, lytI_composed_to_linear,
    .sample = "composition(swizzle(3,4,3), (8,64):(64,1))" },
  [LYT_VBASIS] = {
    "basis element", LYT_TOTHER, lytI_copy_basis, lytI_equal_basis, lytI_print_basis, NULL,
    NULL, "JSON has integer strides only", .sample = "stride(make_identity_layout((2,3)))[1]" },
  [LYT_VFUNC] = {
    "function", LYT_TFUNCTION, lytI_copy_self, lytI_equal_code, lytI_print_func, NULL,
    NULL, CODE, .sample = "f" },
  [LYT_VBUILTIN] = {
    "builtin function", LYT_TFUNCTION, lytI_copy_self, lytI_equal_builtin, lytI_print_builtin,
    NULL, NULL, CODE, .sample = "size" },
  [LYT_VRECORD] = {
    "record", LYT_TRECORD, lytI_copy_record, lytI_equal_record, lytI_print_record, NULL,
    lytI_json_record, NULL, .show = lytI_show_figure, .sample = "{a: 1, b: (2,\"x\"), c: {d: 3}}" },
  [LYT_VLINEAR] = {
    "linear layout", LYT_TLINEAR, lytI_copy_linear, lytI_equal_linear, lytI_print_linear, NULL,
    lytI_json_linear, NULL, lytI_apply_linear, 1, lytI_show_linear, lytI_linear_to_linear,
    lytI_linear_to_axe,
    .sample = "to_linear(blocked((1,2), (4,8), (2,1), (1,0)), (16,16))" },
  [LYT_VINDEX] = {
    "index", LYT_TOTHER, lytI_copy_index, lytI_equal_index, lytI_print_index, NULL,
    NULL, "an analysis result, not a layout", .sample = "make_range(0, 16) * 4 + 8" },
  [LYT_VAXIS] = {
    "axis stride", LYT_TOTHER, lytI_copy_axis, lytI_equal_axis, lytI_print_axis, NULL,
    NULL, "JSON has whole Axe layouts", .sample = "4@lane" },
  [LYT_VITERS] = {
    "iters", LYT_TOTHER, lytI_copy_axe, lytI_equal_axe, lytI_print_iters, NULL,
    NULL, "iters have no convention yet; axe(iters) has JSON", .to_axe = lytI_iters_to_axe,
    .sample = "(8,2,4):(4@lane,1@warp,1@lane)" },
  [LYT_VAXE] = {
    "axe layout", LYT_TAXE, lytI_copy_axe, lytI_equal_axe, lytI_print_axe, NULL,
    lytI_json_axe, NULL, .show = lytI_show_picture, .to_axe = lytI_iters_to_axe,
    .sample = "axe((8,2,4,2):(4@lane,1@warp,1@lane,1@reg), replica=2:4@warp, offset={warp: 5})" },
  [LYT_VNESTED] = {
    "nested layout", LYT_TNESTED, lytI_copy_nested, lytI_equal_nested, lytI_print_nested, NULL,
    lytI_json_nested, NULL, .show = lytI_show_picture, .to_linear = lytI_nested_to_linear,
    .to_axe = lytI_nested_to_axe, .sample = "nested((2,1),(1,1),(1,1),(4,4),(2,4),(1,0),(4,1))" },
  [LYT_VKERNEL] = {
    "kernel", LYT_TKERNEL, lytI_copy_kernel, lytI_equal_kernel, lytI_print_kernel, NULL,
    NULL, "program(K) and emit(K) are its texts",
    .sample = "kernel(\"k\", \"f32\", (64,64):(64,1), (64,64):(1,64), (32,32), "
              "load=to_linear(blocked((4,4), (8,4), (2,1), (1,0)), (32,32)), "
              "store=to_linear(blocked((4,1), (8,4), (1,2), (0,1)), (32,32)), "
              "grid={block: [[0,1],[1,0]]} -> {dim0: 2, dim1: 2})" },
  [LYT_VCFUNC] = {
    "C function", LYT_TFUNCTION, lytI_copy_self, lytI_equal_cfunc, lytI_print_cfunc, NULL,
    NULL, CODE, .sample = "cf" },
};
