#!/usr/bin/env python3
"""How Triton 3.6 moves a tensor into and out of a shared-memory buffer,
read from its own PTX: each case is one TTGIR module that loads a tensor
in a distributed layout, writes it to a buffer of a shared layout with
ttg.local_alloc, reads it back with ttg.local_load into another layout,
and stores it. Its PTX's shared-memory instructions (st.shared / stmatrix
for the write, ld.shared / ldmatrix for the read) are what the two ops
lower to, one of each per module.

The cases are generated with a fixed seed: swizzled shared layouts (vec,
perPhase, maxPhase, order) and NVMMA shared layouts (swizzle width,
transposed) of f16, f32 and i8 tensors, written from and read into blocked
layouts, MMA v2/v3 accumulators and dot operands, for sm_80 and sm_90.

usage (on the GPU machine):
  python3 tests/gen/triton/local_oracle.py OUTDIR
writes OUTDIR/local/<case>.ttgir and OUTDIR/local/ptx.tsv: case, then the
PTX's shared-memory forms ("form*count" joined by ' '), or an error line
for a module Triton would not compile.
"""
import sys
sys.dont_write_bytecode = True
import os
import random
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cvt_oracle import blocked, offsets, pow2s, ptx_of, rand_blocked, shared_forms, ty  # noqa: E402


def module(case):
    shape, elem = case["shape"], case["elem"]
    pty = "!tt.ptr<%s>" % elem
    md = "!ttg.memdesc<%sx%s, #shared, #smem>" % ("x".join(map(str, shape)), elem)
    body = offsets("p", "%in", shape, elem, "#src")
    body.append("%%v = tt.load %%p_a : %s" % ty(shape, pty, "#src"))
    body.append("%%m = ttg.local_alloc %%v : (%s) -> %s" % (ty(shape, elem, "#src"), md))
    body.append("%%w = ttg.local_load %%m : %s -> %s" % (md, ty(shape, elem, "#dst")))
    body += offsets("q", "%out", shape, elem, "#dst")
    body.append("tt.store %%q_a, %%w : %s" % ty(shape, pty, "#dst"))
    body.append("tt.return")
    return "\n".join([
        "#src = " + case["src"], "#dst = " + case["dst"], "#shared = " + case["shared"],
        "#smem = #ttg.shared_memory",
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, '
        'ttg.target = "cuda:%d", "ttg.threads-per-warp" = 32 : i32} {' % (case["warps"], case["sm"]),
        "  tt.func public @local(%%in: %s {tt.divisibility = 16 : i32}, %%out: %s "
        "{tt.divisibility = 16 : i32}) attributes {noinline = false} {" % (pty, pty)] +
        ["    " + l for l in body] + ["  }", "}", ""])


def swizzled(rng, bits):
    vec = rng.choice([1, 2, 4, 8, 16 if bits == 8 else 8])
    per = rng.choice([1, 2, 4])
    mx = rng.choice([1, 2, 4, 8])
    order = rng.choice([[1, 0], [0, 1]])
    return ("#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = [%d, %d]}>"
            % (vec, per, mx, order[0], order[1]))


def nvmma(rng, bits):
    return ("#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d}>"
            % (rng.choice([0, 32, 64, 128]), rng.choice(["false", "true"]), bits))


def generated(rng):
    cases = []
    bits_of = {"f16": 16, "f32": 32, "i8": 8}
    def add(**kw):
        cases.append(dict(kw, name="loc_%03d" % len(cases)))
    for _ in range(60):  # blocked to blocked through a shared buffer
        w = rng.choice([1, 4, 8])
        elem = rng.choice(list(bits_of))
        shape = [rng.choice([32, 64, 128]) for _ in range(2)]
        enc = swizzled(rng, bits_of[elem]) if rng.random() < 0.6 else nvmma(rng, bits_of[elem])
        add(shape=shape, elem=elem, warps=w, sm=rng.choice([80, 90]), shared=enc,
            src=blocked(*rand_blocked(2, w, rng)), dst=blocked(*rand_blocked(2, w, rng)))
    for _ in range(30):  # an MMA v3 accumulator written, read back as blocked
        wm = rng.choice([4, 8])
        n = rng.choice([64, 128])
        mma = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [%d, 1], "
               "instrShape = [16, %d, 16]}>" % (wm, n))
        elem = rng.choice(["f16", "f32"])
        enc = nvmma(rng, bits_of[elem]) if rng.random() < 0.7 else swizzled(rng, bits_of[elem])
        add(shape=[16 * wm, n], elem=elem, warps=wm, sm=90, shared=enc, src=mma,
            dst=blocked(*rand_blocked(2, wm, rng)))
    for _ in range(40):  # blocked written, read as MMA v2 dot operands (sm_80 matmuls)
        w = 4
        wpc = pow2s(w, 2, rng)
        mma = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [%d, %d], "
               "instrShape = [16, 8]}>" % tuple(wpc))
        op = rng.randrange(2)
        elem = rng.choice(["f16", "f16", "i8"])
        kw = 32 // bits_of[elem]
        shape = [rng.choice([64, 128]), rng.choice([32, 64])] if op == 0 else \
            [rng.choice([32, 64]), rng.choice([64, 128])]
        order = [1, 0] if rng.random() < 0.7 else [0, 1]
        vec = rng.choice([4, 8]) if elem == "f16" else 16
        enc = ("#ttg.swizzled_shared<{vec = %d, perPhase = %d, maxPhase = %d, order = [%d, %d]}>"
               % (vec, rng.choice([1, 2]), rng.choice([4, 8]), order[0], order[1]))
        add(shape=shape, elem=elem, warps=w, sm=rng.choice([80, 90]), shared=enc,
            src=blocked(*rand_blocked(2, w, rng)),
            dst="#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (op, mma, kw))
    return cases


def compile_one(outdir, case):
    path = os.path.join(outdir, case["name"] + ".ttgir")
    with open(path, "w") as f:
        f.write(module(case))
    ptx, err = ptx_of(path)
    return case["name"], None if err else shared_forms(ptx), err


def main():
    outdir = os.path.join(sys.argv[1], "local")
    os.makedirs(outdir, exist_ok=True)
    cases = generated(random.Random(20261126))
    with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 2)) as ex:
        results = list(ex.map(lambda c: compile_one(outdir, c), cases))
    with open(os.path.join(outdir, "ptx.tsv"), "w") as f:
        f.write("# case\tforms\n")
        for name, forms, err in results:
            if err:
                f.write("%s\terror\t%s\n" % (name, err.replace("\t", " ")))
                os.remove(os.path.join(outdir, name + ".ttgir"))
            else:
                f.write("%s\t%s\n" % (name, forms))
    import triton, torch
    print("triton", triton.__version__, "on", torch.cuda.get_device_name(0), "cases", len(cases),
          "errors", sum(1 for r in results if r[2]))


if __name__ == "__main__":
    main()
