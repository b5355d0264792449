#!/usr/bin/env python3
"""Layout conversions: lyt's generated kernels against Triton 3.6 (Gluon).

    python3 bench/gpu/convert.py --lyt RUN_PTX DIR [--reps 30] [--k 64]
        [--only REGEX] [--ncu FILE]

DIR holds convert.ptx, convert.expect and convert.manifest (bench/gpu/
prepare.sh writes them from bench/gpu/convert.lyt). For every pair of the
manifest both sides run the same kernel: load a tile in the first layout,
convert it to the second, make K round trips (XOR with the block index,
convert back, XOR, convert), store it. lyt's are cvt_NAME_k0 / _k64 of
convert.ptx, timed and checked element by element by RUN_PTX; Triton's are
written here in Gluon with gl.convert_layout, checked against the input.
Before timing, each pair's Gluon layouts are checked equal to lyt's (the
manifest's linear layouts, through Gluon's own to_linear_layout), and the
number of ttg.convert_layout ops in Triton's TTGIR and the shared-memory
and shuffle instructions of its PTX are counted, to show it kept them.

Per conversion: (time(K) - time(K/4)) / (2K - K/2), the medians of REPS
launches (CUDA events); (time(K) - time(0)) / 2K beside it. Rate: tile bytes converted over the grid per second. Bound:
a conversion through shared memory stores and loads the tile once, so
SMs x 128 B/clock x clock / 2 (max SM clock from nvidia-smi).

Prints a markdown table on stdout, details on stderr. With --ncu FILE it
also profiles, under Nsight Compute, both sides' kernels with one round trip
(three conversions; lyt's cvt_NAME_k1, Triton's launched once each by
--triton-once) and writes FILE: per pair, the shared-memory wavefronts the
SASS counters count against the least that moving the tile in and out of
shared memory three times takes, the L1 bank-conflict counters, and for lyt
the wavefronts its bank model counts (the manifest's) -- equal, or the row
says not.
"""

import argparse
import ast
import csv
import math
import os
import re
import statistics
import subprocess
import sys

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton._C.libtriton import ir, gluon_ir

# --------------------------------------------------------------- layouts

def bl(spt, tpw, wpc, order):
    return gl.BlockedLayout(list(spt), list(tpw), list(wpc), list(order))


def mma3(warps, n):
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=list(warps), instr_shape=[16, n, 16])


def mma2(warps):
    return gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=list(warps), instr_shape=[16, 8])


def dot_a(parent, k_width):
    return gl.DotOperandLayout(operand_index=0, parent=parent, k_width=k_width)


# The same pairs as PAIRS in bench/gpu/convert.lyt, by name.
GLUON = {
    "mma3_n64_f32": (mma3((4, 1), 64), bl((1, 4), (2, 16), (4, 1), (1, 0))),
    "mma3_n64_f16": (mma3((4, 1), 64), bl((1, 8), (4, 8), (4, 1), (1, 0))),
    "mma3_n128_w4_f32": (mma3((4, 1), 128), bl((1, 4), (1, 32), (4, 1), (1, 0))),
    "mma3_n128_f32": (mma3((8, 1), 128), bl((1, 4), (1, 32), (8, 1), (1, 0))),
    "mma3_n128_f16": (mma3((8, 1), 128), bl((1, 8), (2, 16), (8, 1), (1, 0))),
    "mma3_256_f32": (mma3((8, 1), 128), bl((1, 4), (1, 32), (8, 1), (1, 0))),
    "mma3_256_f16": (mma3((8, 1), 128), bl((1, 8), (1, 32), (8, 1), (1, 0))),
    "mma2_f32": (mma2((2, 2)), bl((1, 4), (2, 16), (4, 1), (1, 0))),
    "mma2_dota_w41_f16": (mma2((4, 1)), dot_a(mma2((4, 1)), 2)),
    "mma2_dota_w22_f16": (mma2((2, 2)), dot_a(mma2((2, 2)), 2)),
    "mma3_dota_f16": (mma3((4, 1), 64), dot_a(mma3((4, 1), 64), 2)),
    "trans_f16": (bl((1, 8), (4, 8), (4, 1), (1, 0)), bl((8, 1), (8, 4), (1, 4), (0, 1))),
    "trans_f32": (bl((1, 4), (2, 16), (4, 1), (1, 0)), bl((4, 1), (16, 2), (1, 4), (0, 1))),
    "slice0_f32": (gl.SliceLayout(0, bl((1, 4), (8, 4), (4, 1), (1, 0))), bl((1,), (32,), (4,), (0,))),
    "slice1_f32": (gl.SliceLayout(1, bl((1, 4), (8, 4), (4, 1), (1, 0))), bl((1,), (32,), (4,), (0,))),
    "vec_f32": (bl((1, 4), (8, 4), (4, 1), (1, 0)), bl((1, 1), (2, 16), (4, 1), (1, 0))),
    "within_f32": (bl((1, 4), (8, 4), (4, 1), (1, 0)), bl((1, 1), (8, 4), (4, 1), (1, 0))),
}

DTYPES = {"f32": (torch.float32, gl.int32, torch.int32), "f16": (torch.float16, gl.int16, torch.int16)}


def gluon_ll(layout, shape):
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    return str(builder.to_linear_layout(layout._to_ir(builder), list(shape)))


def lyt_layout(text, shape):
    """A Gluon DistributedLinearLayout from lyt's printed linear layout."""
    bases = {}
    for dim in ("register", "lane", "warp", "block"):
        m = re.search(dim + r": (\[[^a-z]*?\])(?:, [a-z]+:|\})", text)
        bases[dim] = ast.literal_eval(m.group(1)) if m else []
    return gl.DistributedLinearLayout(reg_bases=bases["register"], lane_bases=bases["lane"],
                                      warp_bases=bases["warp"], block_bases=bases["block"],
                                      shape=list(shape))


# --------------------------------------------------------------- kernels

@gluon.jit
def xor_key(x, key, IT: gl.constexpr):
    return (x.to(IT, bitcast=True) ^ key).to(x.dtype, bitcast=True)


@gluon.jit
def convert_round_trips(x, key, K: gl.constexpr, LA: gl.constexpr, LB: gl.constexpr, IT: gl.constexpr):
    """To LB, then K times: XOR, back to LA, XOR, to LB again."""
    x = gl.convert_layout(x, LB)
    for i in range(K):
        x = xor_key(x, key, IT)
        x = gl.convert_layout(x, LA)
        x = xor_key(x, key, IT)
        x = gl.convert_layout(x, LB)
    return x


@gluon.jit
def round_trips_2d(x_ptr, y_ptr, N, K: gl.constexpr, BM: gl.constexpr, BN: gl.constexpr,
                   LA: gl.constexpr, LB: gl.constexpr, IT: gl.constexpr):
    pid = gl.program_id(0)
    tm = pid // (N // BN)
    tn = pid % (N // BN)
    r = tm * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, LA))
    c = tn * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, LA))
    x = gl.load(x_ptr + r[:, None] * N + c[None, :])
    x = convert_round_trips(x, pid.to(IT), K, LA, LB, IT)
    r2 = tm * BM + gl.arange(0, BM, layout=gl.SliceLayout(1, LB))
    c2 = tn * BN + gl.arange(0, BN, layout=gl.SliceLayout(0, LB))
    gl.store(y_ptr + r2[:, None] * N + c2[None, :], x)


@gluon.jit
def round_trips_1d(x_ptr, y_ptr, K: gl.constexpr, BM: gl.constexpr,
                   LA: gl.constexpr, LB: gl.constexpr, IT: gl.constexpr):
    pid = gl.program_id(0)
    x = gl.load(x_ptr + pid * BM + gl.arange(0, BM, layout=LA))
    x = convert_round_trips(x, pid.to(IT), K, LA, LB, IT)
    gl.store(y_ptr + pid * BM + gl.arange(0, BM, layout=LB), x)


def num_warps(layout_text):
    m = re.search(r"warp: (\[[^a-z]*?\])(?:, [a-z]+:|\})", layout_text)
    return 2 ** len(ast.literal_eval(m.group(1)))


def launcher(p, K):
    la, lb = GLUON[p["name"]]
    dt, it, _ = DTYPES[p["elem"]]
    shape, tile, warps = p["shape"], p["tile"], num_warps(p["from"])
    x = torch.randn(shape, device="cuda").to(dt)
    y = torch.empty_like(x)
    if len(shape) == 2:
        grid = (shape[0] // tile[0] * (shape[1] // tile[1]),)
        fn = lambda: round_trips_2d[grid](x, y, shape[1], K, tile[0], tile[1], la, lb, it, num_warps=warps)
    else:
        grid = (shape[0] // tile[0],)
        fn = lambda: round_trips_1d[grid](x, y, K, tile[0], la, lb, it, num_warps=warps)
    return x, y, fn


def median_ms(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)


def triton_side(p, ks, reps):
    """{K: ms} for each K of ks, and what Triton emitted at the largest,
    after checking every output."""
    out = {}
    for k in ks:
        x, y, fn = launcher(p, k)
        handle = fn()
        torch.cuda.synchronize()
        if not torch.equal(x.view(DTYPES[p["elem"]][2]), y.view(DTYPES[p["elem"]][2])):
            raise SystemExit(f"triton {p['name']} K={k}: wrong output")
        if k == ks[-1]:
            ttgir, ptx = handle.asm["ttgir"], handle.asm["ptx"]
            out["cvts"] = ttgir.count("ttg.convert_layout")
            out["ptx"] = {w: len(re.findall(r"^\s*" + re.escape(w), ptx, re.M))
                          for w in ("st.shared", "ld.shared", "stmatrix", "ldmatrix", "shfl.sync", "bar.sync")}
        if reps:
            out[k] = median_ms(fn, reps)
    return out


# --------------------------------------------------------------- lyt

def read_manifest(path):
    pairs, cur = [], None
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "pair":
                cur = {"name": w[1], "mech": w[2], "back": w[3], "lyt_conflicts0": int(w[4]),
                       "lyt_conflicts1": int(w[5]), "elem": w[6], "lyt_wavefronts1": int(w[7]),
                       "buffers": int(w[8])}
                pairs.append(cur)
            elif w[0] == "shape":
                cur["shape"] = tuple(int(v) for v in re.findall(r"\d+", line))
            elif w[0] in ("from", "to"):
                text = line[len(w[0]) + 1:].strip()
                cur[w[0]] = text
                dims = re.findall(r"dim\d+: (\d+)", text.split("->")[1])
                cur["tile"] = tuple(int(d) for d in dims)
    return pairs


def lyt_side(run_ptx, d, reps, only):
    """{kernel name: median ms}; every kernel checked by run_ptx first."""
    expect = os.path.join(d, "convert.expect")
    if only:
        keep, lines = False, []
        for line in open(expect):
            if line.startswith("kernel "):
                keep = re.search(only, line.split()[1]) is not None
            if line.startswith("#") or keep:
                lines.append(line)
        expect = os.path.join(d, "convert.only.expect")
        open(expect, "w").writelines(lines)
    r = subprocess.run([run_ptx, "--bench", str(reps), os.path.join(d, "convert.ptx"), expect],
                       capture_output=True, text=True)
    sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
    if "FAIL" in r.stdout or r.returncode != 0:
        raise SystemExit("run_ptx failed on lyt's conversion kernels")
    return {m.group(1): float(m.group(2)) / 1e3
            for m in re.finditer(r"^bench (\S+) median_us=([\d.]+)", r.stdout, re.M)}


# --------------------------------------------------------------- Nsight Compute

NCU_METRICS = ("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld",
               "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st",
               "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm",
               "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st")


def ncu_run(ncu, metrics, kernel_regex, cmd):
    """[(kernel name, {metric: value})] in launch order."""
    r = subprocess.run([ncu, "--csv", "--metrics", ",".join(m + ".sum" for m in metrics),
                        "--kernel-name", "regex:" + kernel_regex] + cmd, capture_output=True, text=True)
    lines = [l for l in r.stdout.splitlines() if l.startswith('"')]
    rows = list(csv.DictReader(lines))
    out, seen = [], {}
    for row in rows:
        i = row["ID"]
        if i not in seen:
            seen[i] = len(out)
            out.append((row["Kernel Name"], {}))
        v = row["Metric Value"].replace(",", "")
        out[seen[i]][1][row["Metric Name"][:-4]] = float(v) if v else 0.0
    if not out:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
    return out


def ncu_table(path, pairs, run_ptx, d, ncu):
    avail = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True).stdout
    metrics = [m for m in NCU_METRICS if re.search("^" + m + " ", avail, re.M)]
    expect = os.path.join(d, "convert.k1.expect")
    keep, lines = False, []
    for line in open(os.path.join(d, "convert.expect")):
        if line.startswith("kernel "):
            keep = re.fullmatch(r"cvt_.*_k1", line.split()[1]) is not None
        if line.startswith("#") or keep:
            lines.append(line)
    open(expect, "w").writelines(lines)
    lyt = {k: m for k, m in ncu_run(ncu, metrics, r"cvt_.*_k1$", [run_ptx, os.path.join(d, "convert.ptx"), expect])}
    names = [p["name"] for p in pairs]
    tri = ncu_run(ncu, metrics, "round_trips", [sys.executable, os.path.abspath(__file__), "--lyt", run_ptx, d,
                                                "--triton-once", "--only", "^(" + "|".join(names) + ")$"])
    wf = lambda m: sum(v for k, v in m.items() if "wavefronts" in k)
    cf = lambda m: sum(v for k, v in m.items() if "conflicts" in k)
    with open(path, "w") as f:
        f.write(f"Nsight Compute ({', '.join(metrics)}), one launch of each side's kernel with one round trip "
                "(three conversions). 'least': the tile stored to and loaded from shared memory three times, "
                "128 bytes a wavefront.\n\n")
        f.write("| pair | least wavefronts | lyt model | lyt ncu | model = ncu | lyt conflicts (L1) | "
                "Triton ncu | Triton conflicts (L1) |\n|---|---|---|---|---|---|---|---|\n")
        for i, p in enumerate(pairs):
            numel = math.prod(p["shape"])
            least = 3 * 2 * numel * (4 if p["elem"] == "f32" else 2) // 128
            m = lyt.get(f"cvt_{p['name']}_k1", {})
            t = tri[i][1] if i < len(tri) else {}
            same = "yes" if m and wf(m) == p["lyt_wavefronts1"] else "NO"
            f.write(f"| {p['name']} | {least} | {p['lyt_wavefronts1']} | {wf(m):.0f} | {same} | {cf(m):.0f} | "
                    f"{wf(t):.0f} | {cf(t):.0f} |\n")


# --------------------------------------------------------------- main

def bound_tbps():
    props = torch.cuda.get_device_properties(0)
    clk = subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.sm", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True).stdout.split()
    ghz = float(clk[0]) / 1e3 if clk else 1.98
    return props.multi_processor_count * 128 * ghz * 1e9 / 2 / 1e12, props.name, ghz


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lyt", nargs=2, required=True, metavar=("RUN_PTX", "DIR"))
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--k", type=int, default=256)
    ap.add_argument("--only", default="")
    ap.add_argument("--ncu", default="")
    ap.add_argument("--triton-once", action="store_true")
    args = ap.parse_args()
    run_ptx, d = args.lyt
    pairs = [p for p in read_manifest(os.path.join(d, "convert.manifest"))
             if not args.only or re.search(args.only, p["name"])]
    if args.triton_once:  # under Nsight Compute: each pair's K = 1 kernel once
        for p in pairs:
            triton_side(p, (1,), 0)
        return
    if args.ncu and args.reps == 0:  # only the profiles
        ncu_table(args.ncu, pairs, run_ptx, d, os.environ.get("NCU", "/usr/local/cuda/bin/ncu"))
        return
    bound, card, ghz = bound_tbps()
    lyt = lyt_side(run_ptx, d, args.reps, args.only)
    K = args.k
    print(f"Card: {card}; {torch.cuda.get_device_properties(0).multi_processor_count} SMs at "
          f"{ghz:.2f} GHz; shared-memory bound {bound:.1f} TB/s; Triton {triton.__version__}; "
          f"{args.reps} launches of each kernel, medians. Rates: tile bytes converted per second "
          f"over the grid. 'K-0': (time(K={K}) - time(0)) over {2 * K} conversions; 'slope': "
          f"(time(K={K}) - time(K={K // 4})) over {2 * (K - K // 4)}, which leaves out the global "
          f"loads and stores that round trips hide.\n")
    print("| pair | lyt there/back | lyt TB/s | Triton TB/s | lyt/Triton | lyt of bound | "
          "Triton of bound | lyt/Triton (K-0) | lyt us K=0/K/4/K | Triton us K=0/K/4/K | Triton kept | "
          "Triton PTX per kernel |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios, ratios0 = [], []
    q = K // 4
    for p in pairs:
        name = p["name"]
        la, lb = GLUON[name]
        for side, lay in (("from", la), ("to", lb)):
            if gluon_ll(lay, p["tile"]) != gluon_ll(lyt_layout(p[side], p["tile"]), p["tile"]):
                raise SystemExit(f"{name}: Gluon's {side} layout is not lyt's")
        t = triton_side(p, (0, q, K), args.reps)
        numel = 1
        for e in p["shape"]:
            numel *= e
        tile_bytes = numel * (4 if p["elem"] == "f32" else 2)  # all tiles, once
        l = {k: lyt[f"cvt_{name}_k{k}"] for k in (0, q, K)}
        rate = lambda d, a, b: tile_bytes * 2 * (b - a) / ((d[b] - d[a]) * 1e-3) / 1e12
        free = p["mech"] == "none" and p["back"] in ("none", "nil")  # lyt moves no data
        lr = float("inf") if free else rate(l, q, K)
        tr = rate(t, q, K) if t[K] != t[q] else float("inf")
        ratio, ratio0 = (float("nan"), float("nan")) if free else (lr / tr, rate(l, 0, K) / rate(t, 0, K))
        if not free and min(ratio, ratio0) <= 0:
            raise SystemExit(f"{name}: a time did not grow with the round trips")
        if not free:
            ratios.append(ratio)
            ratios0.append(ratio0)
        pt = ", ".join(f"{k} {v}" for k, v in t["ptx"].items() if v)
        us = lambda d: "/".join(f"{d[k] * 1e3:.0f}" for k in (0, q, K))
        print(f"| {name} | {p['mech']}/{p['back']} | {lr:.2f} | {tr:.2f} | {ratio:.2f} | "
              f"{100 * lr / bound:.0f}% | {100 * tr / bound:.0f}% | {ratio0:.2f} | {us(l)} | {us(t)} | "
              f"{t['cvts']} convert_layout | {pt} |")
        sys.stdout.flush()
    geo = lambda rs: math.exp(sum(math.log(min(r, 100.0)) for r in rs) / len(rs))
    if args.ncu:
        ncu_table(args.ncu, pairs, run_ptx, d, os.environ.get("NCU", "/usr/local/cuda/bin/ncu"))
    print(f"\nGeometric mean of lyt/Triton over the {len(ratios)} pairs that move data: "
          f"{geo(ratios):.3f} (slope), {geo(ratios0):.3f} (K-0). nan: a pair whose layouts differ "
          f"only in the order of registers, which lyt converts with no instruction (its round "
          f"trips are the identity); Triton's times are shown.")


if __name__ == "__main__":
    main()
