#!/usr/bin/env python3
"""lyt against pycute on the same few thousand CuTe layout operations.

Builds a fixed-seed workload of admissible operations (coalesce,
composition, complement, logical_divide, logical_product, right_inverse,
evaluation), runs it as one lyt script (one process; and lyt's start-up
alone, to take the operations apart), with pycute in this process (the
loop alone) and as a process of its own (import and loop), checks that
every side prints the same results, and prints the medians and ratios.

  python3 bench/bench.py --pycute /tmp/cutlass/python [--lyt build/lyt] [-n 4000]

pycute is CUTLASS's python/pycute (get it as tests/gen/README.md says);
nothing of it is in this repository.
"""
import argparse, os, random, subprocess, sys, tempfile, time


def tup(t):
    return "(" + ",".join(tup(x) for x in t) + ")" if isinstance(t, tuple) else str(t)


def rand_shape(rng):
    n = rng.randint(1, 3)
    leaves = [rng.choice([2, 3, 4, 8]) for _ in range(n)]
    if n == 3 and rng.random() < 0.5:
        return (leaves[0], (leaves[1], leaves[2]))
    return tuple(leaves) if n > 1 else leaves[0]


def flat(t):
    return [y for x in t for y in flat(x)] if isinstance(t, tuple) else [t]


def compact(shape, order):
    """Column-major strides over the leaves taken in [order]."""
    leaves = flat(shape)
    strides, cur = [0] * len(leaves), 1
    for k in order:
        strides[k] = cur
        cur *= leaves[k]
    it = iter(strides)
    def rebuild(t):
        return tuple(rebuild(x) for x in t) if isinstance(t, tuple) else next(it)
    return rebuild(shape)


def workload(n, seed=7):
    rng = random.Random(seed)
    ops = []
    while len(ops) < n:
        shape = rand_shape(rng)
        leaves = flat(shape)
        order = list(range(len(leaves)))
        rng.shuffle(order)
        stride = compact(shape, order)
        L = (shape, stride)
        size = 1
        for x in leaves:
            size *= x
        k = rng.choice([d for d in (1, 2, 4) if leaves[0] % d == 0])
        B = (rng.choice([2, 3, 4]), 1)
        ops += [("coalesce", (L,)), ("right_inverse", (L,)),
                ("complement", (L, size * rng.choice([1, 2, 4]))),
                ("composition", (L, (k, 1))),
                ("logical_divide", (L, (k, 1))),
                ("logical_product", (L, B)),
                ("eval", (L, rng.randrange(size)))]
    return ops[:n]


def lyt_text(op, args):
    lay = lambda l: "%s:%s" % (tup(l[0]), tup(l[1]))
    if op == "eval":
        return "(%s)(%d)" % (lay(args[0]), args[1])
    parts = [lay(a) if isinstance(a, tuple) else str(a) for a in args]
    return "%s(%s)" % (op, ",".join(parts))


def pycute_norm(x):
    """pycute prints '(4, 2):(1, 4)' and 1-tuples '(3,)': respell as CuTe/lyt."""
    return str(x).replace(" ", "").replace(",)", ")")


def run_pycute(ops, path):
    sys.path.insert(0, path)
    import pycute as cu
    L = lambda l: cu.Layout(l[0], l[1])
    fns = {"coalesce": cu.coalesce, "right_inverse": cu.right_inverse,
           "complement": cu.complement, "composition": cu.composition,
           "logical_divide": cu.logical_divide, "logical_product": cu.logical_product}
    args = [[L(a) if isinstance(a, tuple) else a for a in aa] for _, aa in ops]
    t0 = time.perf_counter()
    out = [args[i][0](args[i][1]) if op == "eval" else fns[op](*args[i])
           for i, (op, _) in enumerate(ops)]
    t1 = time.perf_counter()
    return [pycute_norm(o) for o in out], t1 - t0


PYCUTE_PROCESS = """
import sys, time
sys.path.insert(0, %r)
import pycute as cu
ops = %r
L = lambda l: cu.Layout(l[0], l[1])
fns = {"coalesce": cu.coalesce, "right_inverse": cu.right_inverse,
       "complement": cu.complement, "composition": cu.composition,
       "logical_divide": cu.logical_divide, "logical_product": cu.logical_product}
for op, aa in ops:
    a = [L(x) if isinstance(x, tuple) else x for x in aa]
    print(a[0](a[1]) if op == "eval" else fns[op](*a))
"""


def timed(argv, runs):
    """The median wall time of running argv `runs` times, and its stdout."""
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(argv, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            sys.exit("%s failed:\n%s" % (argv[0], r.stderr))
        out = r.stdout
    return sorted(times)[len(times) // 2], out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pycute", required=True, help="folder that contains pycute/")
    ap.add_argument("--lyt", default="build/lyt")
    ap.add_argument("-n", type=int, default=4000)
    ap.add_argument("--runs", type=int, default=5, help="runs of each process; medians are shown")
    a = ap.parse_args()
    ops = workload(a.n)
    with tempfile.TemporaryDirectory() as d:
        script, empty, pyscript = (os.path.join(d, f) for f in ("w.lyt", "empty.lyt", "w.py"))
        with open(script, "w") as f:
            for op, args in ops:
                f.write("print %s\n" % lyt_text(op, args))
        with open(empty, "w") as f:
            f.write("print 1\n")
        with open(pyscript, "w") as f:
            f.write(PYCUTE_PROCESS % (os.path.abspath(a.pycute), ops))
        t_lyt, out = timed([a.lyt, script], a.runs)
        t_start, _ = timed([a.lyt, empty], a.runs)
        t_py, pyout = timed([sys.executable, pyscript], a.runs)
    got = out.splitlines()
    want, t_loop = run_pycute(ops, a.pycute)
    diff = [(lyt_text(*ops[i]), got[i], want[i]) for i in range(len(ops)) if got[i] != want[i]]
    diff_py = sum(1 for x, y in zip([pycute_norm(v) for v in pyout.splitlines()], want) if x != y)
    t_ops = max(t_lyt - t_start, 1e-9)
    print("operations          %d  (medians of %d runs)" % (len(ops), a.runs))
    print("lyt (one process)   %.1f ms  (start-up, parse and evaluation)" % (t_lyt * 1e3))
    print("lyt start-up        %.1f ms  (the same process running 'print 1')" % (t_start * 1e3))
    print("lyt operations      %.1f ms  (one process less its start-up: parse and evaluation)" % (t_ops * 1e3))
    print("pycute (in process) %.1f ms  (the loop alone, import excluded)" % (t_loop * 1e3))
    print("pycute (process)    %.1f ms  (python, import and the loop)" % (t_py * 1e3))
    print("ratio pycute loop / lyt operations   %.1fx" % (t_loop / t_ops))
    print("ratio pycute loop / lyt process      %.1fx" % (t_loop / t_lyt))
    print("ratio pycute process / lyt process   %.1fx" % (t_py / t_lyt))
    print("results that differ %d (lyt against pycute), %d (pycute's process against its loop)" % (len(diff), diff_py))
    for d in diff[:10]:
        print("  %s: lyt %s, pycute %s" % d)
    return 1 if diff or diff_py else 0


if __name__ == "__main__":
    sys.exit(main())
