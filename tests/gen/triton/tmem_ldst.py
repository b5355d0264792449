#!/usr/bin/env python3
"""Triton 3.6's registers of a TMEM load or store (gluon's
compute_tmem_reg_layout, Triton's getDistributedLayoutForTmemLdSt):
tests/ll/tmem_ldst.txt, the oracle of lyt's tmem_reg_layout.

Over a grid of atoms, warp counts, element widths (32, and 16 packed or
unpacked), TMEM encodings and shapes, and the 8-bit block scales, on one
CTA and split across CTAs (CTASplitM, CTASplitN, two_ctas; gluon takes
the CGA layout those splits make, M first). Triton's answer None is
written `=> nil`; its refusals (an exception, or an abort: each case runs
in a child process that may die) are comments.

usage (on the GPU machine): python3 tests/gen/triton/tmem_ldst.py > tests/ll/tmem_ldst.txt
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import children  # noqa: E402

ATOMS = ("32x32b", "16x64b", "16x128b", "16x256b")
ENCS = [(128, 64), (128, 128), (128, 256), (64, 64), (64, 128)]
SHAPES = [(64, 64), (128, 32), (128, 64), (128, 128), (128, 256), (256, 128)]
TYPES = [(32, 1), (16, 1), (16, 2)]  # bitwidth, col_stride
CASES = [list(c) for c in itertools.product(ATOMS, (4, 8, 16), ENCS, SHAPES, TYPES)]
# the block scales (8-bit): encoding None
SCALE_SHAPES = [(128, 4), (128, 8), (128, 16), (256, 8), (64, 4)]
CASES += [[a, nw, None, list(s), [8, 1]] for a, nw, s in itertools.product(ATOMS, (4, 8), SCALE_SHAPES)]
# several CTAs: the split (CTASplitM, CTASplitN) and two_ctas
SPLITS = [(2, 1, False), (1, 2, False), (2, 2, False), (2, 1, True)]
CASES += [[a, nw, list(e), list(s), list(t), list(sp)] for a, nw, e, s, t, sp in itertools.product(
    ATOMS, (4, 8), [(128, 64), (128, 128), (64, 64)], [(256, 128), (256, 256), (512, 128)], TYPES[:2], SPLITS)]
CASES += [[a, nw, None, list(s), [8, 1], list(sp)] for a, nw, s, sp in itertools.product(
    ATOMS, (4,), [(256, 8), (512, 16)], SPLITS[:3])]


def one(c):
    import triton.experimental.gluon.language as gl
    from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, TensorMemoryScalesLayout
    from triton._C.libtriton import gluon_ir
    atom, nw, enc, (m, n), (bw, cs) = c[:5]
    sm, sn, two = c[5] if len(c) > 5 else (1, 1, False)
    ty = {32: gl.float32, 16: gl.float16, 8: gl.uint8}[bw]
    lay = (TensorMemoryScalesLayout(cta_split_num=(sm, sn)) if enc is None else
           TensorMemoryLayout(tuple(enc), col_stride=cs, cta_split_num=(sm, sn), two_ctas=two))
    cga = ([[1, 0]] if sm == 2 else []) + ([[0, 1]] if sn == 2 else [])
    r = gluon_ir.compute_tmem_reg_layout(ty, [m, n], lay, nw, atom, cga)
    if r is None:
        return "nil"
    f = lambda vs: "[" + ",".join("[" + ",".join(str(int(x)) for x in v) + "]" for v in vs) + "]"
    return "{register: %s, lane: %s, warp: %s, block: %s} -> {dim0: %d, dim1: %d}" % (
        f(r.reg_bases), f(r.lane_bases), f(r.warp_bases), f(r.block_bases), r.shape[0], r.shape[1])


def main():
    import triton
    res = children.answers(os.path.abspath(__file__), CASES)
    print("# The registers of a TMEM load or store (tcgen05.ld/st) of a tensor_memory")
    print("# layout: Triton %s's gluon compute_tmem_reg_layout" % triton.__version__)
    print("# (getDistributedLayoutForTmemLdSt) against lyt's tmem_reg_layout. Generated")
    print("# by tests/gen/triton/tmem_ldst.py on the GPU machine.")
    print('#! import "triton.lyt"')
    print("# format: <lyt expression> => <expected printed value | nil | error>")
    for c, r in zip(CASES, res):
        atom, nw, enc, (m, n), (bw, cs) = c[:5]
        sm, sn, two = c[5] if len(c) > 5 else (1, 1, False)
        e = ("tensor_memory_scales(%d, %d)" % (sm, sn) if enc is None else
             "tensor_memory(%d, %d, %d, %d, %d, %s)" % (enc[0], enc[1], cs, sm, sn, "true" if two else "false"))
        expr = 'tmem_reg_layout(%s, (%d,%d), %d, "%s", %d)' % (e, m, n, nw, atom, bw)
        if r.startswith("OK "):
            print("%s => %s" % (expr, r[3:]))
        else:
            print("# %s: Triton refuses: %s" % (expr, r.replace("ERROR ", "")))


if __name__ == "__main__":
    children.run(__file__, one, main)
