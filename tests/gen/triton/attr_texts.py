#!/usr/bin/env python3
"""Triton 3.6's own text of the AMD encodings, and their layouts.

For each AMD MFMA and WMMA layout below, a module using it as a tensor
encoding is parsed by Triton's MLIR parser and printed back by Triton's
printer: the canonical text. Gluon builds the same layout from its
parameters and Triton's toLinearLayout gives its layout at a shape. The cases in
tests/ll/amd_texts.txt check that from_triton reads that text to the same
layout and that to_triton writes the text back exactly as Triton prints it.

usage (on the GPU machine): python3 tests/gen/triton/attr_texts.py OUT.txt
"""
import sys
sys.dont_write_bytecode = True

import os
import re
import tempfile

from triton._C.libtriton import ir, gluon_ir
from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout
import triton

ctx = ir.context()
ir.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)

MFMA = [
    dict(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2]),
    dict(version=3, instr_shape=[16, 16, 16], transposed=False, warps_per_cta=[4, 1]),
    dict(version=2, instr_shape=[32, 32, 8], transposed=False, warps_per_cta=[1, 4]),
    dict(version=4, instr_shape=[16, 16, 32], transposed=True, warps_per_cta=[2, 2], tiles_per_warp=[2, 2]),
    dict(version=3, instr_shape=[16, 16, 4], transposed=False, warps_per_cta=[2, 2], element_bitwidth=64),
    dict(version=4, instr_shape=[32, 32, 16], transposed=True, warps_per_cta=[2, 4], tiles_per_warp=[1, 2]),
]
WMMA = [
    dict(version=1, transposed=False, warps_per_cta=[2, 2]),
    dict(version=2, transposed=True, warps_per_cta=[4, 1]),
    dict(version=2, transposed=False, warps_per_cta=[2, 2], tiles_per_warp=[2, 1]),
    dict(version=3, transposed=True, warps_per_cta=[2, 2], instr_shape=[16, 16, 32]),
    dict(version=3, transposed=False, warps_per_cta=[1, 4], instr_shape=[16, 16, 64]),
]


def bases(lay, shape):
    r = b.to_linear_layout(lay._to_ir(b), list(shape))
    ins = [("register", r.reg_bases), ("lane", r.lane_bases), ("warp", r.warp_bases), ("block", r.block_bases)]
    txt = ", ".join("%s: [%s]" % (n, ",".join("[%s]" % ",".join(str(int(c)) for c in v) for v in vs))
                    for n, vs in ins)
    outs = ", ".join("dim%d: %d" % (i, int(s)) for i, s in enumerate(r.shape))
    return "{%s} -> {%s}" % (txt, outs)


def ints(v):
    return "[" + ", ".join(map(str, v)) + "]"


def written(kind, kw):
    """The attribute as written for the parser (any spelling it accepts)."""
    if kind == "mfma":
        t = "#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %s" % (
            kw["version"], ints(kw["warps_per_cta"]), ints(kw["instr_shape"]), str(kw["transposed"]).lower())
        if "tiles_per_warp" in kw:
            t += ", tilesPerWarp = " + ints(kw["tiles_per_warp"])
        if "element_bitwidth" in kw:
            t += ", elementBitWidth = %d" % kw["element_bitwidth"]
    else:
        t = "#ttg.amd_wmma<{version = %d, isTranspose = %s, warpsPerCTA = %s" % (
            kw["version"], str(kw["transposed"]).lower(), ints(kw["warps_per_cta"]))
        if "tiles_per_warp" in kw:
            t += ", tilesPerWarp = " + ints(kw["tiles_per_warp"])
        if "instr_shape" in kw:
            t += ", instrShape = " + ints(kw["instr_shape"])
    return t + "}>"


def canonical(text, warps, lanes):
    mod = ('#enc = %s\nmodule attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, '
           '"ttg.threads-per-warp" = %d : i32} {\n  tt.func @f() {\n'
           '    %%c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #enc>\n'
           '    tt.return\n  }\n}\n') % (text, warps, lanes)
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(mod)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        printed = str(m)
    finally:
        os.remove(f.name)
    for line in printed.splitlines():
        if re.match(r"^#\w+ = #ttg\.amd_", line):
            return line.split(" = ", 1)[1].strip()
    return re.search(r"#ttg\.amd_\w+<\{.*?\}>", printed).group(0)


lines = ["# AMD encodings as Triton 3.6 prints them, read back (tests/gen/triton/attr_texts.py,",
         "# Triton %s): from_triton of the text has Triton's own layout, to_triton writes the" % triton.__version__,
         "# text back exactly.", '#! import "triton.lyt"']
for kind, cls, cases in (("mfma", AMDMFMALayout, MFMA), ("wmma", AMDWMMALayout, WMMA)):
    for kw in cases:
        lay = cls(**kw)
        warps = kw["warps_per_cta"][0] * kw["warps_per_cta"][1]
        text = canonical(written(kind, kw), warps, 64 if kind == "mfma" else 32)
        for shape in ([64, 64], [128, 32]):
            lines.append('to_linear(from_triton("%s"), (%d,%d)) => %s' % (text, shape[0], shape[1], bases(lay, shape)))
        lines.append('to_triton(from_triton("%s")) == "%s" => true' % (text, text))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
