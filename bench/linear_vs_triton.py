#!/usr/bin/env python3
"""lyt's GF(2) core against Triton's C++ LinearLayout through its Python
binding, timed in the same run on the same CPU (issue "A fast interpreter
and cores"): ns per compose and per invert for layouts of 8 to 32 bits,
swizzle-like (a bit permutation and n/4 XOR terms) and dense (4n XOR
terms), built the way bench/bench_linear.c builds its own.

Triton's binding aborts the whole process on some sizes, so each Triton
size runs in a child process; the largest size that works is reported.

usage: python3 bench/linear_vs_triton.py --lyt build/bench_linear [--iters N]
"""
import argparse
import json
import subprocess
import sys
import time


def xorshift(seed):
    s = seed
    while True:
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        yield s


def random_cols(n, ops, rng):
    """A random invertible n-bit map as columns (the image of each input bit)."""
    col = [1 << j for j in range(n)]
    for j in range(n - 1, 0, -1):
        k = next(rng) % (j + 1)
        col[j], col[k] = col[k], col[j]
    for _ in range(ops):
        a, b = next(rng) % n, next(rng) % n
        if a != b:
            col[a] ^= col[b]
    return col


def triton_child(n, dense, iters):
    """Runs in a child: times Triton's compose and invert on n-bit layouts."""
    from triton._C.libtriton.linear_layout import LinearLayout as LL
    rng = xorshift(88172645463325252)
    ops = 4 * n if dense else max(1, n // 4)

    def make(cols, i, o):
        return LL.from_bases([(i, [[c] for c in cols])], [o], [1 << n], True)

    A = make(random_cols(n, ops, rng), "x", "y")
    B = make(random_cols(n, ops, rng), "y", "z")
    res = {}
    for name, f in (("compose", lambda: A.compose(B)), ("invert", lambda: A.invert())):
        f()
        best = None
        for _ in range(5):
            t0 = time.perf_counter_ns()
            for _ in range(iters):
                f()
            dt = (time.perf_counter_ns() - t0) / iters
            best = dt if best is None or dt < best else best
        res[name] = best
    print(json.dumps(res))


def triton_times(n, dense, iters):
    r = subprocess.run([sys.executable, __file__, "--child", str(n), str(int(dense)), str(iters)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[-1]
        return "exit status %d: %s" % (r.returncode, why[:120])
    return json.loads(r.stdout.strip().splitlines()[-1])


def lyt_times(lyt, iters, runs=3):
    """bench_linear's lines: 'swizzle 16-bit  compose X ns ... invert Y ns ...';
    the best of `runs` runs, as Triton's side takes the best of 5 passes."""
    t = {}
    for _ in range(runs):
        out = subprocess.run([lyt, str(iters)], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            w = line.split()
            best = t.setdefault((w[0], int(w[1].split("-")[0])), {})
            for op in ("compose", "invert"):
                v = float(w[w.index(op) + 1])
                best[op] = min(v, best.get(op, v))
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lyt", default="build/bench_linear")
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--child", nargs=3)
    a = ap.parse_args()
    if a.child:
        triton_child(int(a.child[0]), bool(int(a.child[1])), int(a.child[2]))
        return
    lyt = lyt_times(a.lyt, 200000)
    print("| layout | op | lyt ns | Triton ns | Triton/lyt |")
    print("|---|---|---|---|---|")
    for dense in (False, True):
        kind = "dense" if dense else "swizzle"
        largest = None
        for n in (16, 20, 24, 28, 32):
            t = triton_times(n, dense, a.iters if n <= 16 else a.iters // 4)
            if isinstance(t, str):
                print("| %s %d-bit | - | - | Triton failed (%s) | - |" % (kind, n, t.replace("|", "/")))
                continue
            largest = n
            for op in ("compose", "invert"):
                mine = lyt.get((kind, n), {}).get(op)
                if mine is None:
                    print("| %s %d-bit | %s | - | %.1f | - |" % (kind, n, op, t[op]))
                else:
                    print("| %s %d-bit | %s | %.1f | %.1f | %.0fx |" % (kind, n, op, mine, t[op], t[op] / mine))
        print("| %s | largest size Triton's binding takes: %s bits | | | |" % (kind, largest))


if __name__ == "__main__":
    main()
