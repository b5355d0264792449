#!/usr/bin/env python3
"""Triton 3.6's parser and printer on the attributes that are no dict:
each candidate text is parsed in a module and printed back by Triton, so
tests/ll/more_texts.txt holds the canonical texts (what Triton prints, and
which spellings it refuses). usage (on the GPU machine):
python3 tests/gen/triton/attr_probe.py
"""
import os, tempfile, re
from triton._C.libtriton import ir
ctx = ir.context(); ir.load_dialects(ctx)
cands = [
 ("tmem", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "!ttg.memdesc<128x64xf32, #enc, #ttng.tensor_memory>"),
 ("tmem", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, unpacked = true>", "!ttg.memdesc<128x64xf32, #enc, #ttng.tensor_memory>"),
 ("tmem", "#ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2, CTASplitM = 2>", "!ttg.memdesc<128x128xf16, #enc, #ttng.tensor_memory>"),
 ("tmem", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1, CTASplitN = 2, twoCTAs = true>", "!ttg.memdesc<256x64xf32, #enc, #ttng.tensor_memory>"),
 ("scales", "#ttng.tensor_memory_scales_encoding<>", "!ttg.memdesc<128x8xi8, #enc, #ttng.tensor_memory>"),
 ("shl", "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}, alignment = 16>", "!ttg.memdesc<4x4xf16, #enc, #ttg.shared_memory>"),
 ("shl", "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>", "!ttg.memdesc<4x4xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>", "!ttg.memdesc<64x64xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], block = []}>", "!ttg.memdesc<64x64xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0]], block = []}>", "!ttg.memdesc<64x64xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[64:+4] {offset = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 1], [0, 2], [0, 4], [0, 8]], block = []}>", "!ttg.memdesc<16x16xf32, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[64:+4] {order = [0, 1], shape = [16, 16]}>", "!ttg.memdesc<16x16xf32, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[16:+2] {offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]}>", "!ttg.memdesc<4x8xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[16:+2] {offset = [[0, 1], [1, 0], [0, 2], [2, 0], [0, 4]], block = []}>", "!ttg.memdesc<4x8xf16, #enc, #ttg.shared_memory>"),
 ("pad", "#ttg.padded_shared<[8:+1, 32:+4] {offset = [[0, 2], [0, 1], [1, 0], [0, 4], [2, 0], [4, 0]], block = []}>", "!ttg.memdesc<8x8xf32, #enc, #ttg.shared_memory>"),
]
for kind, attr, ty in cands:
    mod = '#enc = %s\nmodule attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n  tt.func @f(%%a: %s) {\n    tt.return\n  }\n}\n' % (attr, ty)
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f: f.write(mod)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        lines = [l for l in str(m).splitlines() if l.startswith("#") and "loc(" not in l]
        print("OK  ", attr, "=>", lines)
    except Exception as e:
        print("FAIL", attr, "=>", str(e)[:200].replace("\n", " "))
