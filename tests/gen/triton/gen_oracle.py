#!/usr/bin/env python3
"""Differential test data for lyt's linear layouts, computed by Triton 3.6
(see tests/gen/triton/README.md).

usage: gen_oracle.py --out DIR [--mock]
  writes DIR/ll/<group>.txt, DIR/raw.jsonl, DIR/probe.txt
  --mock: no Triton; evaluate LL operations with the gf2 model (for testing
          this script; C++ aborts are simulated with os.abort()).
internal: gen_oracle.py --worker CASES.json RESULTS.jsonl START [--mock]
"""
import sys
sys.dont_write_bytecode = True
import argparse
import json
import os
import signal
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from isolate import run_isolated  # noqa: E402

from lyt_render import layout_text, record, boolean  # noqa: E402

SCRIPT = "tests/gen/triton/gen_oracle.py"


# ====================================================================== backends
class TritonOps:
    def __init__(self):
        from triton._C.libtriton.linear_layout import LinearLayout
        self.LL = LinearLayout

    def lit(self, ins, outs, sized):
        bases = [(n, [list(v) for v in vs]) for n, vs in ins]
        names = [o for o, _ in outs]
        if sized:
            return self.LL.from_bases(bases, names, [s for _, s in outs], False)
        return self.LL.from_bases(bases, names)

    def identity_1d(self, n, i, o):
        return self.LL.identity_1d(n, i, o)

    def zeros_1d(self, n, i, o, s):
        return self.LL.zeros_1d(n, i, o) if s is None else self.LL.zeros_1d(n, i, o, s)

    def strided_1d(self, n, st, i, o):
        return self.LL.strided_1d(n, st, i, o)

    def mul(self, a, b):
        return a * b

    def eq(self, a, b):
        return bool(a == b)

    def compose(self, a, b):
        return a.compose(b)

    def iac(self, a, b):
        return a.invert_and_compose(b)

    def invert(self, a):
        return a.invert()

    def pseudoinvert(self, a):
        return a.pseudoinvert()

    def apply(self, a, vals):
        r = a.apply(dict(vals))
        return [(n, int(r[n])) for n, _ in a.out_dims]

    def pred(self, name, a):
        return bool(getattr(a, name)())

    def fmt(self, a):
        ins = [(n, [list(v) for v in vs]) for n, vs in a.bases]
        outs = [(n, int(s)) for n, s in a.out_dims]
        return layout_text(ins, outs), {"str": str(a)}


class MockOps:
    def __init__(self):
        import gf2
        self.g = gf2

    def _guard(self, f, *a):
        try:
            return f(*a)
        except self.g.LLError as e:
            sys.stderr.write("LLVM ERROR (mock): %s\n" % e)
            sys.stderr.flush()
            os.abort()

    def lit(self, ins, outs, sized):
        ins = [(n, [tuple(v) for v in vs]) for n, vs in ins]
        names = [o for o, _ in outs]
        if sized:
            return self._guard(self.g.from_bases, ins, names, [s for _, s in outs], False)
        return self._guard(self.g.from_bases, ins, names)

    def identity_1d(self, n, i, o):
        return self._guard(self.g.identity_1d, n, i, o)

    def zeros_1d(self, n, i, o, s):
        return self._guard(self.g.zeros_1d, n, i, o, 1 if s is None else s)

    def strided_1d(self, n, st, i, o):
        return self._guard(self.g.strided_1d, n, st, i, o)

    def mul(self, a, b):
        return self._guard(self.g.mul, a, b)

    def eq(self, a, b):
        return a == b

    def compose(self, a, b):
        return self._guard(self.g.compose, a, b)

    def iac(self, a, b):
        return self._guard(self.g.invert_and_compose, a, b)

    def invert(self, a):
        return self._guard(self.g.invert, a)

    def pseudoinvert(self, a):
        return self._guard(self.g.pseudoinvert, a)

    def apply(self, a, vals):
        return list(zip(a.out_names, self._guard(a.apply, dict(vals))))

    def pred(self, name, a):
        return getattr(a, name)()

    def fmt(self, a):
        return layout_text(a.ins, a.outs), {}


def eval_tree(B, t):
    k = t[0]
    if k == "lit":
        return B.lit(t[1], t[2], t[3])
    if k == "identity_1d":
        return B.identity_1d(*t[1:])
    if k == "zeros_1d":
        return B.zeros_1d(*t[1:])
    if k == "strided_1d":
        return B.strided_1d(*t[1:])
    if k in ("mul", "eq", "compose", "iac"):
        return getattr(B, k)(eval_tree(B, t[1]), eval_tree(B, t[2]))
    if k in ("invert", "pseudoinvert"):
        return getattr(B, k)(eval_tree(B, t[1]))
    if k == "apply":
        return B.apply(eval_tree(B, t[1]), t[2])
    if k.startswith("is_"):
        return B.pred(k, eval_tree(B, t[1]))
    raise ValueError(k)


def format_value(B, v):
    if isinstance(v, bool):
        return boolean(v), {}
    if isinstance(v, list):
        return record(v), {}
    return B.fmt(v)


# ---------------------------------------------------------------- encodings
class TritonEnc:
    def __init__(self):
        from triton._C.libtriton import ir, gluon_ir
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout
        from triton._C.libtriton.linear_layout import LinearLayout
        self.gl, self.gluon_ir = gl, gluon_ir
        self.MFMA, self.WMMA, self.LL = AMDMFMALayout, AMDWMMALayout, LinearLayout
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.b = gluon_ir.GluonOpBuilder(self.ctx)

    def cga(self, e, kw):
        c = e.get("cga")
        if c:
            kw["cga_layout"] = [list(x) for x in self.gluon_ir.make_cga_layout(list(c[0]), list(c[1]), list(c[2]))]
        return kw

    def build(self, e):
        gl, k = self.gl, e["kind"]
        if k == "blocked":
            return gl.BlockedLayout(**self.cga(e, dict(size_per_thread=e["spt"], threads_per_warp=e["tpw"],
                                                       warps_per_cta=e["wpc"], order=e["order"])))
        if k == "slice":
            return gl.SliceLayout(dim=e["dim"], parent=self.build(e["parent"]))
        if k == "dot":
            return gl.DotOperandLayout(operand_index=e["idx"], parent=self.build(e["parent"]), k_width=e["k_width"])
        if k == "mma":
            return gl.NVMMADistributedLayout(**self.cga(e, dict(version=e["version"], warps_per_cta=e["wpc"],
                                                                instr_shape=e["instr"])))
        if k == "mfma":
            kw = dict(version=e["version"], instr_shape=e["instr"], transposed=e["transposed"], warps_per_cta=e["wpc"])
            if e.get("bits") is not None:
                kw["element_bitwidth"] = e["bits"]
            if e.get("tiles") is not None:
                kw["tiles_per_warp"] = e["tiles"]
            return self.MFMA(**self.cga(e, kw))
        if k == "wmma":
            kw = dict(version=e["version"], transposed=e["transposed"], warps_per_cta=e["wpc"])
            if e.get("instr") is not None:
                kw["instr_shape"] = e["instr"]
            if e.get("tiles") is not None:
                kw["tiles_per_warp"] = e["tiles"]
            return self.WMMA(**self.cga(e, kw))
        raise ValueError(k)

    def convert(self, e, shape):
        lay = self.build(e)
        r = self.b.to_linear_layout(lay._to_ir(self.b), list(shape))
        ins = [("register", r.reg_bases), ("lane", r.lane_bases), ("warp", r.warp_bases), ("block", r.block_bases)]
        ins = [(n, [[int(c) for c in v] for v in vs]) for n, vs in ins]
        rshape = [int(x) for x in r.shape]
        outs = [("dim%d" % i, s) for i, s in enumerate(rshape)]
        extra = {"shape_ok": rshape == list(shape), "repr": repr(lay)}
        ll = self.LL.from_bases(ins, [n for n, _ in outs], rshape, False)
        extra["surjective"] = bool(ll.is_surjective())
        back = [(n, [list(v) for v in vs]) for n, vs in ll.bases]
        extra["roundtrip_ok"] = back == ins and [list(x) for x in ll.out_dims] == [list(x) for x in outs]
        return layout_text(ins, outs), extra


# ====================================================================== worker
def worker(cases_path, results_path, start, mock):
    with open(cases_path) as f:
        cases = json.load(f)
    ops = enc = None
    out = open(results_path, "a")
    for i in range(start, len(cases)):
        c = cases[i]
        sys.stderr.write("@@BEGIN %d\n" % i)
        sys.stderr.flush()
        res = {"i": i}
        try:
            if "op" in c:
                if ops is None:
                    ops = MockOps() if mock else TritonOps()
                v = eval_tree(ops, c["op"])
                res["value"], res["extra"] = format_value(ops, v)
            else:
                if mock:
                    raise RuntimeError("no Triton (mock run)")
                if enc is None:
                    enc = TritonEnc()
                res["value"], res["extra"] = enc.convert(c["enc"], c["shape"])
            res["status"] = "ok"
        except BaseException as e:  # Python-level errors only; C++ aborts kill the process
            res["status"] = "exception"
            res["msg"] = "%s: %s" % (type(e).__name__, str(e).strip().replace("\n", " ")[:300])
        out.write(json.dumps(res) + "\n")
        out.flush()
        os.fsync(out.fileno())
    out.close()


# ====================================================================== driver
def crash_message(errfile, idx):
    try:
        txt = open(errfile, errors="replace").read()
    except OSError:
        return ""
    marker = "@@BEGIN %d\n" % idx
    k = txt.rfind(marker)
    tail = txt[k + len(marker):] if k >= 0 else txt[-2000:]
    lines = [l.strip() for l in tail.splitlines() if l.strip()]
    keep = [l for l in lines if any(w in l for w in ("Assertion", "LLVM ERROR", "error", "Error", "failed", "assert"))]
    msg = " | ".join((keep or lines)[:3])
    return msg[:400]


def run_all(cases, workdir, mock):
    def abort_msg(errfile, i, rc):
        if isinstance(rc, int) and rc < 0:
            try:
                sig = signal.Signals(-rc).name
            except ValueError:
                sig = "signal %d" % -rc
        else:
            sig = "exit %s" % rc
        print("case %d aborted (%s): %s" % (i, sig, cases[i]["expr"][:100]), flush=True)
        return "%s: %s" % (sig, crash_message(errfile, i))
    return run_isolated(__file__, cases, workdir, mock, 400, abort_msg)


GROUP_TITLES = {
    "ops": "LinearLayout operations (triton._C.libtriton.linear_layout.LinearLayout)",
    "blocked": "BlockedLayout -> LinearLayout",
    "slice": "SliceLayout -> LinearLayout",
    "dot_blocked": "DotOperandLayout with a BlockedLayout parent (FMA) -> LinearLayout",
    "mma": "NVIDIA MMA v2/v3 (NVMMADistributedLayout) and their dot operands -> LinearLayout",
    "mfma": "AMD MFMA (AMDMFMALayout) and its dot operands -> LinearLayout",
    "wmma": "AMD WMMA (AMDWMMALayout) and its dot operands -> LinearLayout",
    "cga": "layouts with a CGA (block dim) -> LinearLayout",
}


ARGS = ""  # the options that made a fresh random set, named in its files


def write_groups(cases, results, outdir, version, device, mock):
    os.makedirs(outdir, exist_ok=True)
    summary = {}
    groups = []
    for c in cases:
        if c["group"] not in groups:
            groups.append(c["group"])
    for g in groups:
        lines, n, nr, ne = [], 0, 0, 0
        surprises = []
        for idx, c in enumerate(cases):
            if c["group"] != g:
                continue
            r = results.get(idx, {"status": "abort", "msg": "no result"})
            n += 1
            nr += bool(c.get("rnd"))
            comments = []
            if c.get("note"):
                comments.append(c["note"])
            if r["status"] == "ok":
                ex = r.get("extra", {})
                if ex.get("shape_ok") is False:
                    comments.append("NOTE: Triton's result shape differs from the requested shape")
                if ex.get("surjective") is False:
                    comments.append("NOTE: the result is not surjective")
                if c.get("expect_error"):
                    comments.append("NOTE: documented precondition violated (%s) but Triton %s returned a value"
                                    % (c["expect_error"], version))
                    surprises.append(c["expr"])
                val = r["value"]
            else:
                ne += 1
                if r["status"] == "abort":
                    comments.append("error: Triton aborts the process (%s)" % r["msg"])
                else:
                    comments.append("error: Triton raises %s" % r["msg"])
                if not c.get("expect_error") and g == "ops":
                    surprises.append(c["expr"])
                val = "error"
            for cm in comments:
                lines.append("# " + cm)
            lines.append("%s => %s" % (c["expr"], val))
        head = ["# %s" % GROUP_TITLES.get(g, g),
                '#! import "triton.lyt"',
                "# computed by Triton %s on %s via %s%s%s" % (version, device, SCRIPT, ARGS,
                                                            " (MOCK: gf2 model, not Triton)" if mock else ""),
                "# format: <lyt expression> => <expected printed value | error>; %d cases (%d random, %d error)" % (n, nr, ne)]
        with open(os.path.join(outdir, g + ".txt"), "w") as f:
            f.write("\n".join(head + lines) + "\n")
        summary[g] = {"cases": n, "random": nr, "error": ne, "unexpected": surprises}
    return summary


def crosscheck(cases, results):
    """Compare Triton's ops results with the gf2 model (tests/gen/triton/gf2.py)."""
    import cases as C
    import gf2
    bad = []
    for i, c in enumerate(cases):
        if "op" not in c:
            continue
        try:
            v = C.model(c["op"])
            if isinstance(v, bool):
                v = boolean(v)
            elif isinstance(v, list):
                v = record(v)
            else:
                v = layout_text(v.ins, v.outs)
        except gf2.LLError:
            v = "error"
        r = results.get(i, {})
        t = r.get("value") if r.get("status") == "ok" else "error"
        if t != v:
            bad.append({"expr": c["expr"], "triton": t, "model": v})
    return bad


def probe(path):
    import inspect
    out = []

    def w(*a):
        out.append(" ".join(str(x) for x in a))
    try:
        import triton
        w("triton", triton.__version__)
        from triton._C.libtriton.linear_layout import LinearLayout
        w("LinearLayout dir:", [d for d in dir(LinearLayout) if not d.startswith("__")])
        w("from_bases doc:", LinearLayout.from_bases.__doc__)
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language import amd
        from triton._C.libtriton import gluon_ir
        for name in ["BlockedLayout", "SliceLayout", "DotOperandLayout", "NVMMADistributedLayout"]:
            try:
                w(name, inspect.signature(getattr(gl, name)))
            except Exception as e:
                w(name, "ERR", e)
        for name in ["AMDMFMALayout", "AMDWMMALayout"]:
            try:
                cls = getattr(amd, name)
                w(name, inspect.signature(cls))
                w(inspect.getsource(cls.verify) if hasattr(cls, "verify") else "(no verify)")
            except Exception as e:
                w(name, "ERR", e)
        w("make_cga_layout doc:", gluon_ir.make_cga_layout.__doc__)
        w("to_linear_layout doc:", gluon_ir.GluonOpBuilder.to_linear_layout.__doc__)
        for m in ["get_amd_mfma_layout", "get_amd_wmma_layout", "get_mma_layout", "get_dot_operand_layout"]:
            f = getattr(gluon_ir.GluonOpBuilder, m, None)
            w(m, f.__doc__ if f else "missing")
        w("gluon_ir builder methods:", [d for d in dir(gluon_ir.GluonOpBuilder) if d.startswith("get_")])
        # shared encodings: does to_linear_layout abort in this version? (run in a subprocess)
        code = ("from triton._C.libtriton import ir, gluon_ir\n"
                "import triton.experimental.gluon.language as gl\n"
                "ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)\n"
                "l = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])\n"
                "print(b.to_linear_layout(l._to_ir(b), [32, 32]))\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        w("shared probe rc:", p.returncode, "stdout:", p.stdout.strip()[:300], "stderr tail:",
          " | ".join(p.stderr.strip().splitlines()[-3:])[:600])
    except Exception as e:
        w("probe error", repr(e))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], int(sys.argv[4]), "--mock" in sys.argv)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--mock", action="store_true")
    ap.add_argument("--device", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--random-only", action="store_true")
    args = ap.parse_args()
    import cases as C
    C.SEED, C.SCALE, C.RANDOM_ONLY = args.seed, args.scale, args.random_only
    global ARGS
    if args.seed or args.scale != 1 or args.random_only:
        ARGS = " --seed %d --scale %d%s" % (args.seed, args.scale, " --random-only" if args.random_only else "")
    cases = C.build()
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    if args.mock:
        version = "(mock)"
    else:
        import triton
        version = triton.__version__
        probe(os.path.join(args.out, "probe.txt"))
    device = args.device
    if device is None:
        try:
            device = "an " + subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                            capture_output=True, text=True).stdout.strip().splitlines()[0]
        except Exception:
            device = "an H100"
    results, launches = run_all(cases, work, args.mock)
    summary = write_groups(cases, results, os.path.join(args.out, "ll"), version, device, args.mock)
    with open(os.path.join(args.out, "raw.jsonl"), "w") as f:
        for i, c in enumerate(cases):
            d = dict(results.get(i, {}))
            d["expr"] = c["expr"]
            f.write(json.dumps(d) + "\n")
    summary["_model_mismatches"] = crosscheck(cases, results)
    summary["_meta"] = {"version": version, "device": device, "launches": launches, "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
