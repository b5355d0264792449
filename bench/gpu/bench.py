#!/usr/bin/env python3
"""Bandwidth of copy / transpose on one GPU: PyTorch, Triton, and lyt's PTX.

    python3 bench/gpu/bench.py --reps 50 [--n 8192]
        [--lyt RUN_PTX MODULE.ptx EXPECT.txt] [--all-configs]

Every number is bytes read + bytes written per second (TB/s, 1e12), from
the median of REPS launches, each timed by its own pair of CUDA events after
a warm-up. Rows:

  torch copy             y.copy_(x), x contiguous n x n          (fp32, fp16)
  torch transpose        y.copy_(x.t())                           (fp32, fp16)
  triton transpose       tiled transpose written here; every config below is
                         checked against x.t() once and timed, the best is
                         reported (--all-configs: all of them)    (fp32, fp16)
  lyt NAME               with --lyt: `RUN_PTX --bench REPS MODULE EXPECT`,
                         its `bench NAME median_us=X GBps=Y` lines; bytes are
                         (IN_ELEMS + OUT_ELEMS) * ELEM_BYTES as counted by
                         run_ptx, dtype is the element width from --list.

Needs torch and triton (3.6) on a CUDA machine.
"""

import argparse
import ctypes
import os
import re
import statistics
import subprocess
import sys

import torch
import triton
import triton.language as tl


# --------------------------------------------------------------- Triton

@triton.jit
def transpose_tile(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   WIDE: tl.constexpr):
    # y (N x M) = x (M x N) transposed. One program per BLOCK_M x BLOCK_N
    # tile of x; programs walk x's tiles row by row.
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    tm = pid // tiles_n
    tn = pid % tiles_n
    offs_m = tm * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tn * BLOCK_N + tl.arange(0, BLOCK_N)
    if WIDE:  # more than 2^31 elements: 64-bit offsets
        offs_m = offs_m.to(tl.int64)
        offs_n = offs_n.to(tl.int64)
    in_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :],
                   mask=in_mask)
    out_mask = (offs_n[:, None] < N) & (offs_m[None, :] < M)
    tl.store(y_ptr + offs_n[:, None] * stride_ym + offs_m[None, :],
             tl.trans(tile), mask=out_mask)


# (BLOCK_M, BLOCK_N, num_warps)
TRITON_CONFIGS = [
    (32, 32, 4),
    (64, 64, 4),
    (64, 64, 8),
    (128, 64, 4),
    (128, 64, 8),
    (64, 128, 4),
    (64, 128, 8),
    (128, 128, 8),
]


def triton_transpose(x, y, bm, bn, warps):
    m, n = x.shape
    assert x.is_contiguous() and y.is_contiguous() and y.shape == (n, m)
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    transpose_tile[grid](x, y, m, n, x.stride(0), y.stride(0),
                         BLOCK_M=bm, BLOCK_N=bn, WIDE=(m * n >= 2 ** 31),
                         num_warps=warps)


# --------------------------------------------------------------- timing

FLUSH = None  # --flush: a 256 MiB tensor overwritten before each timed launch
_CUDA = ctypes.CDLL("libcuda.so.1")


def reset_persisting_l2():
    """Lines a kernel before marked evict_last go back to normal priority
    (not stream-ordered: call it with the GPU idle)."""
    torch.cuda.synchronize()
    if _CUDA.cuCtxResetPersistingL2Cache() != 0:
        raise SystemExit("cuCtxResetPersistingL2Cache failed")


def median_ms(fn, reps, warmup):
    """Median over `reps` launches of fn, each between its own events."""
    reset_persisting_l2()
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    # Keep the GPU busy while the launches are queued, so that host launch
    # overhead does not land between an event pair.
    if FLUSH is None and hasattr(torch.cuda, "_sleep"):
        torch.cuda._sleep(100_000_000)
    for s, e in zip(starts, ends):
        if FLUSH is not None:  # the fill hides the launch overhead
            reset_persisting_l2()
            FLUSH.fill_(1)
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def row(name, dtype, nbytes, ms):
    return {"name": name, "dtype": dtype,
            "tbps": nbytes / (ms * 1e-3) / 1e12, "us": ms * 1e3}


DTYPES = {"fp32": torch.float32, "fp16": torch.float16}


def bench_torch_triton(n, reps, warmup, all_configs):
    rows = []
    for dname, dtype in DTYPES.items():
        x = torch.randn(n, n, device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        nbytes = 2 * x.numel() * x.element_size()

        rows.append(row("torch copy", dname, nbytes,
                        median_ms(lambda: y.copy_(x), reps, warmup)))

        xt = x.t()
        y.copy_(xt)
        if not torch.equal(y, xt):
            raise SystemExit("torch transpose copy gave a wrong result")
        rows.append(row("torch transpose", dname, nbytes,
                        median_ms(lambda: y.copy_(xt), reps, warmup)))

        trows = []
        for bm, bn, w in TRITON_CONFIGS:
            y.fill_(0)
            try:
                triton_transpose(x, y, bm, bn, w)
                torch.cuda.synchronize()
            except Exception as exc:  # e.g. out of resources for a config
                print(f"note: triton {bm}x{bn} w{w} {dname} skipped: {exc}",
                      file=sys.stderr)
                continue
            if not torch.equal(y, xt):
                raise SystemExit(f"triton transpose {bm}x{bn} w{w} {dname}: "
                                 "wrong result")
            ms = median_ms(lambda: triton_transpose(x, y, bm, bn, w),
                           reps, warmup)
            trows.append(row(f"triton transpose {bm}x{bn} w{w}", dname,
                             nbytes, ms))
        if not trows:
            raise SystemExit(f"no triton config ran for {dname}")
        if all_configs:
            rows.extend(trows)
        else:
            best = max(trows, key=lambda r: r["tbps"])
            best = dict(best, name=best["name"].replace(
                "triton transpose ", "triton transpose (best: ") + ")")
            rows.append(best)
        del x, y, xt
        torch.cuda.empty_cache()
    return rows


# ------------------------------------------------------------------ lyt

BENCH_RE = re.compile(r"^bench (\S+) median_us=([0-9.eE+-]+) GBps=([0-9.eE+-]+)\s*$")
WIDTH = {1: "8-bit", 2: "16-bit", 4: "32-bit", 8: "64-bit"}


def bench_lyt(run_ptx, module, expect, reps):
    """Returns (rows, ok)."""
    ok = True
    widths = {}
    lst = subprocess.run([run_ptx, "--list", expect],
                         capture_output=True, text=True)
    if lst.returncode != 0:
        sys.stderr.write(lst.stdout + lst.stderr)
        print(f"error: {run_ptx} --list failed", file=sys.stderr)
        ok = False
    for line in lst.stdout.splitlines():
        f = line.split()
        if len(f) == 8 and f[0] == "kernel":
            widths[f[1]] = WIDTH.get(int(f[2]), f"{f[2]} bytes")

    env = dict(os.environ, RUN_PTX_FLUSH="1" if FLUSH is not None else "0")
    res = subprocess.run([run_ptx, "--bench", str(reps), module, expect],
                         capture_output=True, text=True, env=env)
    if res.returncode != 0:
        sys.stderr.write(res.stdout + res.stderr)
        print(f"error: {run_ptx} --bench exited with {res.returncode}",
              file=sys.stderr)
        ok = False
    rows = []
    for line in res.stdout.splitlines():
        m = BENCH_RE.match(line)
        if m:
            name, us, gbps = m.group(1), float(m.group(2)), float(m.group(3))
            rows.append({"name": f"lyt {name}", "dtype": widths.get(name, "?"),
                         "tbps": gbps / 1e3, "us": us})
    if not rows:
        print("error: no bench lines from run_ptx", file=sys.stderr)
        ok = False
    return rows, ok


# ----------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=50,
                    help="timed launches per measurement (>= 20)")
    ap.add_argument("--n", type=int, default=8192,
                    help="matrix side for the torch/triton rows")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--lyt", nargs=3, metavar=("RUN_PTX", "MODULE", "EXPECT"),
                    help="also run RUN_PTX --bench REPS MODULE EXPECT")
    ap.add_argument("--flush", action="store_true",
                    help="overwrite a 256 MiB buffer before each timed launch "
                         "(outside its events): no launch finds its input in L2")
    ap.add_argument("--all-configs", action="store_true",
                    help="one row per Triton config instead of the best")
    args = ap.parse_args()
    if args.reps < 20:
        ap.error("--reps must be at least 20")
    if args.n < 1 or args.warmup < 1:
        ap.error("--n and --warmup must be positive")
    if not torch.cuda.is_available():
        raise SystemExit("no CUDA device")

    if args.flush:
        global FLUSH
        FLUSH = torch.empty(64 << 20, device="cuda", dtype=torch.float32)
    rows = bench_torch_triton(args.n, args.reps, args.warmup, args.all_configs)
    ok = True
    if args.lyt:
        lrows, ok = bench_lyt(*args.lyt, args.reps)
        rows.extend(lrows)

    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {triton.__version__}, n={args.n} (torch/triton rows), "
          f"median of {args.reps} reps"
          f"{', L2 flushed before each' if args.flush else ''}; "
          "TB/s = (bytes read + written) / time")
    print()
    print("| name | dtype | TB/s | median us |")
    print("|---|---|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['dtype']} | {r['tbps']:.3f} | {r['us']:.1f} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
