#!/usr/bin/env python3
"""What Triton 3.6 does for a ttg.convert_layout, read from its own PTX.

Every case is one small TTGIR module: a global load in the source layout,
the ttg.convert_layout, a global store in the destination layout, and
nothing else. Triton compiles it from the TTGIR text (it skips its own
TTGIR passes for an IR file, so the conversion stays as written) and the
PTX then shows the mechanism without ambiguity: warp shuffles
(shfl.sync), a trip through shared memory (st.shared / ld.shared /
stmatrix / ldmatrix), or neither (no data moves between threads).

The cases are every ttg.convert_layout of the real dumps in
tests/data/ttgir/ (their alias lines and module attributes kept), and
pairs of layouts generated here with a fixed seed: blocked to blocked
(any pair, and pairs that keep each warp's tile, which Triton can do with
shuffles), slices to 1-D blocked, MMA v2 and v3 accumulators to blocked
and to dot operands.

usage (on the GPU machine):
  python3 tests/gen/triton/cvt_oracle.py [--dumps-only] DUMPDIR OUTDIR
writes OUTDIR/cvt/<case>.ttgir (the module compiled) and
OUTDIR/cvt/ptx_counts.tsv: case, then the PTX counts shfl.sync, st.shared,
ld.shared, stmatrix, ldmatrix, bar (bar.sync / barrier.sync /
bar.warp.sync), or an error line for a case Triton would not compile.
"""
import sys
sys.dont_write_bytecode = True
import json
import os
import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

PTX_OPS = [("shfl", r"\bshfl\.sync"), ("st_shared", r"\bst\.shared"),
           ("ld_shared", r"\bld\.shared"), ("stmatrix", r"\bstmatrix"),
           ("ldmatrix", r"\bldmatrix"), ("bar", r"\b(bar\.sync|barrier\.sync|bar\.warp\.sync)")]


# ---------------------------------------------------------------- modules
def ty(shape, elem, enc):
    return "tensor<%sx%s, %s>" % ("x".join(map(str, shape)), elem, enc)


def offsets(p, ptr, shape, elem, enc):
    """Ops computing ptr + row-major offsets in layout enc; the last value is %{p}_a.
    Each dim's index is a make_range in enc sliced on every other dim, expanded
    back one dim at a time, scaled by the dim's row-major stride."""
    pty = "!tt.ptr<%s>" % elem
    r = len(shape)
    ops, terms = [], []
    for d in range(r):
        encs = [enc]  # encs[k]: enc with the k highest other dims sliced away
        others = [e for e in range(r) if e != d]
        for e in reversed(others):
            encs.append("#ttg.slice<{dim = %d, parent = %s}>" % (e, encs[-1]))
        cur_shape, name = [shape[d]], "%%%s_%d_r" % (p, d)
        ops.append("%s = tt.make_range {end = %d : i32, start = 0 : i32} : %s"
                   % (name, shape[d], ty([shape[d]], "i32", encs[-1])))
        for k, e in enumerate(others):  # ascending: expand back
            src = encs[len(others) - k]
            dst = encs[len(others) - k - 1]
            nshape = cur_shape[:e] + [1] + cur_shape[e:]
            nname = "%%%s_%d_e%d" % (p, d, k)
            ops.append("%s = tt.expand_dims %s {axis = %d : i32} : %s -> %s"
                       % (nname, name, e, ty(cur_shape, "i32", src), ty(nshape, "i32", dst)))
            name, cur_shape = nname, nshape
        stride = 1
        for e in range(d + 1, r):
            stride *= shape[e]
        if stride != 1:
            ops.append("%%%s_%d_k = arith.constant dense<%d> : %s" % (p, d, stride, ty(cur_shape, "i32", enc)))
            ops.append("%%%s_%d_m = arith.muli %s, %%%s_%d_k : %s" % (p, d, name, p, d, ty(cur_shape, "i32", enc)))
            name = "%%%s_%d_m" % (p, d)
        if cur_shape != list(shape):
            ops.append("%%%s_%d_b = tt.broadcast %s : %s -> %s" % (p, d, name, ty(cur_shape, "i32", enc),
                                                                 ty(shape, "i32", enc)))
            name = "%%%s_%d_b" % (p, d)
        terms.append(name)
    total = terms[0]
    for d in range(1, r):
        ops.append("%%%s_s%d = arith.addi %s, %s : %s" % (p, d, total, terms[d], ty(shape, "i32", enc)))
        total = "%%%s_s%d" % (p, d)
    ops.append("%%%s_s = tt.splat %s : %s -> %s" % (p, ptr, pty, ty(shape, pty, enc)))
    ops.append("%%%s_a = tt.addptr %%%s_s, %s : %s, %s" % (p, p, total, ty(shape, pty, enc), ty(shape, "i32", enc)))
    return ops


def module(case):
    shape, elem, src, dst = case["shape"], case["elem"], case["src"], case["dst"]
    pty = "!tt.ptr<%s>" % elem
    body = offsets("p", "%in", shape, elem, src)
    body.append("%%v = tt.load %%p_a : %s" % ty(shape, pty, src))
    body.append("%%w = ttg.convert_layout %%v : %s -> %s" % (ty(shape, elem, src), ty(shape, elem, dst)))
    body += offsets("q", "%out", shape, elem, dst)
    body.append("tt.store %%q_a, %%w : %s" % ty(shape, pty, dst))
    body.append("tt.return")
    head = case.get("aliases", [])
    return "\n".join(head + [
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, '
        'ttg.target = "cuda:%d", "ttg.threads-per-warp" = 32 : i32} {' % (case["warps"], case["sm"]),
        "  tt.func public @cvt(%%in: %s {tt.divisibility = 16 : i32}, %%out: %s {tt.divisibility = 16 : i32}) "
        "attributes {noinline = false} {" % (pty, pty)] +
        ["    " + l for l in body] + ["  }", "}", ""])


# ---------------------------------------------------------------- cases from the dumps
CVT = re.compile(r"ttg\.convert_layout %\S+ : (tensor<.*)")
ALIAS = re.compile(r"^#(?!loc)[\w.]+ = #")
ATTRS = re.compile(r'"ttg\.num-warps" = (\d+).*ttg\.target = "cuda:(\d+)"')


def split_type(t):
    """tensor<64x64xf32, ENC> -> ([64, 64], 'f32', 'ENC'), ENC up to the matching '>'."""
    depth, i = 0, 0
    for i, ch in enumerate(t):
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0 and ch == ">":
            break
    inner = t[len("tensor<"):i]
    dims, enc = inner.split(",", 1)
    parts = dims.strip().split("x")
    return [int(d) for d in parts[:-1]], parts[-1], enc.strip(), t[i + 1:]


def dump_cases(dumpdir):
    out = []
    for f in sorted(os.listdir(dumpdir)):
        if not f.endswith(".ttgir"):
            continue
        text = open(os.path.join(dumpdir, f)).read().splitlines()
        aliases = [l for l in text if ALIAS.match(l)]
        warps, sm = map(int, ATTRS.search("\n".join(text)).groups())
        k = 0
        for line in text:
            m = CVT.search(line)
            if not m:
                continue
            shape, elem, src, rest = split_type(m.group(1))
            dst = split_type(rest.split("-> ", 1)[1])[2]
            out.append(dict(name="%s_%d" % (f[:-6], k), shape=shape, elem=elem, src=src, dst=dst,
                            warps=warps, sm=sm, aliases=aliases))
            k += 1
    return out


# ---------------------------------------------------------------- generated cases
def pow2s(total, n, rng):
    """n powers of two whose product is total."""
    e = [0] * n
    for _ in range(total.bit_length() - 1):
        e[rng.randrange(n)] += 1
    return [1 << x for x in e]


def blocked(spt, tpw, wpc, order):
    f = lambda v: "[" + ", ".join(map(str, v)) + "]"
    return ("#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s}>"
            % (f(spt), f(tpw), f(wpc), f(order)))


def rand_blocked(rank, warps, rng, spt=None, tpw=None):
    spt = spt or [1 << rng.randrange(4) for _ in range(rank)]
    tpw = tpw or pow2s(32, rank, rng)
    order = list(range(rank))
    rng.shuffle(order)
    return spt, tpw, pow2s(warps, rank, rng), order


def generated(rng):
    cases = []
    def add(src, dst, **kw):  # named like a dump's aliases
        cases.append(dict(kw, name="gen_%03d" % len(cases), src="#src", dst="#dst",
                          aliases=["#src = " + src, "#dst = " + dst]))
    elems = ["f16", "f32", "i8"]
    # any pair of blocked layouts
    for _ in range(50):
        w = rng.choice([1, 2, 4, 8])
        shape = [rng.choice([8, 16, 32, 64, 128]) for _ in range(2)]
        add(shape=shape, elem=rng.choice(elems), warps=w, sm=90,
            src=blocked(*rand_blocked(2, w, rng)), dst=blocked(*rand_blocked(2, w, rng)))
    # pairs that keep the warps and each warp's tile: registers or shuffles
    for _ in range(50):
        w = rng.choice([1, 4, 8])
        spt, tpw, wpc, order = rand_blocked(2, w, rng)
        tile = [spt[d] * tpw[d] for d in range(2)]
        # a new split of each dim's warp tile between registers and lanes
        lanes = pow2s(32, 2, rng)
        while any(lanes[d] > tile[d] for d in range(2)):
            lanes = pow2s(32, 2, rng)
        spt2 = [tile[d] // lanes[d] for d in range(2)]
        order2 = rng.choice([order, order[::-1]])
        shape = [tile[d] * wpc[d] * rng.choice([1, 1, 2]) for d in range(2)]
        add(shape=shape, elem=rng.choice(elems), warps=w, sm=90,
            src=blocked(spt, tpw, wpc, order), dst=blocked(spt2, lanes, wpc, order2))
    # 1-D: a reduction's slice back to a blocked layout
    for _ in range(20):
        w = rng.choice([1, 4, 8])
        dim = rng.randrange(2)
        parent = blocked(*rand_blocked(2, w, rng))
        n = rng.choice([16, 32, 64, 128, 256])
        add(shape=[n], elem=rng.choice(elems), warps=w, sm=90,
            src="#ttg.slice<{dim = %d, parent = %s}>" % (dim, parent),
            dst=blocked([rng.choice([1, 2, 4])], [32], [w], [0]))
    # MMA v3 accumulators to blocked and to dot operands (matmul epilogue, attention)
    for _ in range(20):
        wm = rng.choice([4, 8])
        n = rng.choice([32, 64, 128, 256])
        k = rng.choice([8, 16])
        mma = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [%d, 1], "
               "instrShape = [16, %d, %d]}>" % (wm, n, k))
        shape = [16 * wm * rng.choice([1, 2]), n]
        if rng.random() < 0.5:
            dst = blocked(*rand_blocked(2, wm, rng))
            elem = rng.choice(["f16", "f32"])
        else:
            dst = "#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 2}>" % mma
            elem = "f16"
        add(shape=shape, elem=elem, warps=wm, sm=90, src=mma, dst=dst)
    # MMA v2 (sm_80): to blocked, to dot operands, and its row slices
    for _ in range(25):
        w = rng.choice([4, 8])
        wpc = pow2s(w, 2, rng)
        mma = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [%d, %d], "
               "instrShape = [16, 8]}>" % tuple(wpc))
        shape = [16 * wpc[0] * rng.choice([1, 2]), 8 * wpc[1] * rng.choice([1, 2, 4])]
        r = rng.random()
        if r < 0.4:
            add(shape=shape, elem=rng.choice(["f16", "f32"]), warps=w, sm=80, src=mma,
                dst=blocked(*rand_blocked(2, w, rng)))
        elif r < 0.8:
            op = rng.randrange(2)
            kw = rng.choice([2, 4])
            shape = [shape[0], 16 * kw] if op == 0 else [16 * kw, shape[1]]
            add(shape=shape, elem="f16" if kw == 2 else "i8", warps=w, sm=80, src=mma,
                dst="#ttg.dot_op<{opIdx = %d, parent = %s, kWidth = %d}>" % (op, mma, kw))
        else:
            add(shape=[shape[0]], elem="f32", warps=w, sm=80,
                src="#ttg.slice<{dim = 1, parent = %s}>" % mma,
                dst=blocked([1], [32], [w], [0]))
    # blocked to MMA (a matmul's accumulator initialised from a load)
    for _ in range(10):
        w = 4
        mma = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
               "instrShape = [16, 64, 16]}>")
        add(shape=[64, 64], elem="f32", warps=w, sm=90, src=blocked(*rand_blocked(2, w, rng)), dst=mma)
    return cases


# ---------------------------------------------------------------- compile
# Compiles one TTGIR file for the target its module names; prints the PTX.
WORKER = r'''
import sys, re, triton
from triton.backends.compiler import GPUTarget
path = sys.argv[1]
sm = int(re.search(r'ttg\.target = "cuda:(\d+)"', open(path).read()).group(1))
print(triton.compile(path, target=GPUTarget("cuda", sm, 32)).asm["ptx"])
'''
FORMS = re.compile(r"\b((?:st|ld)\.shared[.a-z0-9]*|(?:st|ld)matrix[.a-z0-9]*)")


def ptx_of(path):
    """(the PTX Triton compiles the module at path to, None), or (None, its error)."""
    p = subprocess.run([sys.executable, "-c", WORKER, path], capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1][:300]
    return p.stdout, None


def shared_forms(ptx):
    """The shared-memory instructions of a PTX text: "form*count" joined by ' ', or '-'."""
    counts = {}
    for f in FORMS.findall(ptx):
        counts[f] = counts.get(f, 0) + 1
    return " ".join("%s*%d" % kv for kv in sorted(counts.items())) or "-"


def compile_one(outdir, case):
    path = os.path.join(outdir, case["name"] + ".ttgir")
    with open(path, "w") as f:
        f.write(module(case))
    ptx, err = ptx_of(path)
    if err:
        return case["name"], None, err
    return case["name"], [len(re.findall(rx, ptx)) for _, rx in PTX_OPS], None


def main():
    only = sys.argv[1] == "--dumps-only"
    args = sys.argv[2:] if only else sys.argv[1:]
    dumpdir, outdir = args[0], os.path.join(args[1], "cvt")
    os.makedirs(outdir, exist_ok=True)
    cases = dump_cases(dumpdir) + ([] if only else generated(random.Random(20261126)))
    with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 2)) as ex:
        results = list(ex.map(lambda c: compile_one(outdir, c), cases))
    with open(os.path.join(outdir, "ptx_counts.tsv"), "w") as f:
        f.write("# case\t" + "\t".join(n for n, _ in PTX_OPS) + "\n")
        for name, counts, err in results:
            if err:
                f.write("%s\terror\t%s\n" % (name, err.replace("\t", " ")))
                os.remove(os.path.join(outdir, name + ".ttgir"))
            else:
                f.write(name + "\t" + "\t".join(map(str, counts)) + "\n")
    import triton, torch
    print("triton", triton.__version__, "on", torch.cuda.get_device_name(0), "cases", len(cases),
          "errors", sum(1 for r in results if r[2]))


if __name__ == "__main__":
    main()
