#!/usr/bin/env python3
"""Differential data for lyt's shape-op encoding inference, computed by
Triton 3.6: a tensor of a random encoding goes through tt.reshape
(allow_reorder=False), tt.trans, tt.join or tt.split, built with the
gluon builder, and the result type's encoding, which Triton's own type
inference chose, is read back (get_gluon_layout_from_tensor).

usage: gen_infer.py --out DIR [--seed S] [--n N]
Writes DIR/{reshape,trans,join,split}.txt (tests/ll format):
  a blocked result:  infer_X(...) == blocked(spt, tpw, wpc, order) => true
  a slice result:    infer_split_encoding(...) == slice_layout(d, <source>) => true
  a linear result:   to_linear(infer_X(...), shape) => <layout>
  a refusal:         infer_X(...) => error
Cases run in child processes (isolate.py), since Triton may abort.
internal: gen_infer.py --worker CASES.json RESULTS.jsonl START
"""
import sys
sys.dont_write_bytecode = True
import argparse
import json
import os
import random
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from isolate import run_isolated  # noqa: E402


def tup(t):
    return "(" + ",".join(str(x) for x in t) + ("," if len(t) == 1 else "") + ")"


def split_pow2(total_log2, r, R):
    cuts = sorted(R.randint(0, total_log2) for _ in range(r - 1))
    parts, prev = [], 0
    for c in cuts + [total_log2]:
        parts.append(c - prev)
        prev = c
    return parts


def rand_shape(R, total_log2=None, rmin=1, rmax=4):
    r = R.randint(rmin, rmax)
    if total_log2 is None:
        total_log2 = R.randint(0, 13)
    return [1 << p for p in split_pow2(total_log2, r, R)]


def rand_blocked(R, r):
    order = list(range(r))
    R.shuffle(order)
    return {"kind": "blocked", "spt": [1 << R.randint(0, 2) for _ in range(r)],
            "tpw": [1 << p for p in split_pow2(5, r, R)],
            "wpc": [1 << p for p in split_pow2(R.randint(0, 3), r, R)], "order": order}


def default_blocked(shape, nw, lanes):
    """Triton's default blocked layout (one element per thread)."""
    r = len(shape)
    order = list(range(r - 1, -1, -1))
    tpw, wpc = [1] * r, [1] * r
    rl, rt, rw = lanes, nw * lanes, nw
    cl = lambda x, lo, hi: min(max(x, lo), hi)
    for k in range(r - 1):
        i = order[k]
        th = cl(rt, 1, max(1, shape[i]))
        tpw[i] = cl(th, 1, rl)
        wpc[i] = cl(th // tpw[i], 1, rw)
        rw //= wpc[i]
        rl //= tpw[i]
        rt //= th
    p = 1
    for x in tpw:
        p *= x
    tpw[order[-1]] = lanes // p
    p = 1
    for x in wpc:
        p *= x
    wpc[order[-1]] = nw // p
    return {"kind": "blocked", "spt": [1] * r, "tpw": tpw, "wpc": wpc, "order": order}


def rand_enc(R, shape):
    """A random distributed encoding for this shape (blocked mostly)."""
    r = len(shape)
    k = R.random()
    if r == 2 and k < 0.15:
        wpc = [1 << p for p in split_pow2(R.randint(0, 3), 2, R)]
        if R.random() < 0.5:
            return {"kind": "mma", "version": [2, 0], "wpc": wpc, "instr": [16, 8]}
        return {"kind": "mma", "version": [3, 0], "wpc": [4, 1] if R.random() < 0.5 else [8, 1],
                "instr": [16, R.choice([32, 64]), 16]}
    if k < 0.3 and r <= 3:
        d = R.randrange(r + 1)
        return {"kind": "slice", "dim": d, "parent": rand_blocked(R, r + 1)}
    if k < 0.4:
        return default_blocked(shape, 1 << R.randint(0, 3), 32)
    return rand_blocked(R, r)


def rand_enc_fp4(R, shape):
    """Sources of fp4_to_fp: blocked mostly, dot operands of MMA v2 (rank 2), slices."""
    r = len(shape)
    k = R.random()
    if r == 2 and k < 0.3:
        wpc = [1 << p for p in split_pow2(R.randint(0, 3), 2, R)]
        return {"kind": "dot", "idx": R.randint(0, 1), "k_width": R.choice([1, 2, 4, 8]),
                "parent": {"kind": "mma", "version": [2, 0], "wpc": wpc, "instr": [16, 8]}}
    if k < 0.4 and r <= 2:
        return {"kind": "slice", "dim": R.randrange(r + 1), "parent": rand_blocked(R, r + 1)}
    return rand_blocked(R, r)


def enc_text(e):
    if e["kind"] == "blocked":
        return "blocked(%s, %s, %s, %s)" % (tup(e["spt"]), tup(e["tpw"]), tup(e["wpc"]), tup(e["order"]))
    if e["kind"] == "slice":
        return "slice_layout(%d, %s)" % (e["dim"], enc_text(e["parent"]))
    if e["kind"] == "mma":
        return "nvidia_mma(%s, %s, %s)" % (tup(e["version"]), tup(e["wpc"]), tup(e["instr"]))
    if e["kind"] == "dot":
        return "dot_operand(%d, %s, %d)" % (e["idx"], enc_text(e["parent"]), e["k_width"])
    raise ValueError(e)


def cases(R, n):
    out = []
    for op in ("reshape", "trans", "join", "split", "joinsplit", "fp4_to_fp"):
        for _ in range(n if op not in ("joinsplit", "fp4_to_fp") else n // 3 if op == "joinsplit" else n):
            if op == "reshape":
                src = rand_shape(R)
                dst = rand_shape(R, sum(x.bit_length() - 1 for x in src))
                out.append({"op": op, "shape": src, "enc": rand_enc(R, src), "dst": dst})
            elif op == "trans":
                src = rand_shape(R, rmin=2)
                perm = list(range(len(src)))
                R.shuffle(perm)
                out.append({"op": op, "shape": src, "enc": rand_enc(R, src), "perm": perm})
            elif op == "fp4_to_fp":
                src = rand_shape(R, R.randint(0, 12), rmin=2 if R.random() < 0.5 else 1, rmax=3)
                out.append({"op": op, "shape": src, "enc": rand_enc_fp4(R, src), "axis": R.randrange(len(src))})
            elif op in ("join", "joinsplit"):
                src = rand_shape(R, rmax=3)
                out.append({"op": op, "shape": src, "enc": rand_enc(R, src)})
            else:
                src = rand_shape(R, R.randint(0, 11), rmax=3) + [2]
                e = rand_enc(R, src)
                if e["kind"] == "blocked" and R.random() < 0.5:
                    # the usual source: the pair fastest, in one thread's registers
                    r = len(src)
                    e["spt"][r - 1] = 2
                    e["tpw"] = [1 << p for p in split_pow2(5, r - 1, R)] + [1]
                    e["wpc"] = [1 << p for p in split_pow2(R.randint(0, 3), r - 1, R)] + [1]
                    e["order"] = [r - 1] + [d for d in e["order"] if d != r - 1]
                out.append({"op": op, "shape": src, "enc": e})
    return out


def build(gl, e):
    if e["kind"] == "blocked":
        return gl.BlockedLayout(size_per_thread=e["spt"], threads_per_warp=e["tpw"], warps_per_cta=e["wpc"],
                                order=e["order"])
    if e["kind"] == "slice":
        return gl.SliceLayout(dim=e["dim"], parent=build(gl, e["parent"]))
    if e["kind"] == "dot":
        return gl.DotOperandLayout(operand_index=e["idx"], parent=build(gl, e["parent"]), k_width=e["k_width"])
    return gl.NVMMADistributedLayout(version=e["version"], warps_per_cta=e["wpc"], instr_shape=e["instr"])


def ll_text(ll):
    ins = [("register", ll.reg_bases), ("lane", ll.lane_bases), ("warp", ll.warp_bases),
           ("block", ll.block_bases)]
    txt = "{" + ", ".join("%s: [%s]" % (nm, ",".join("[" + ",".join(str(int(c)) for c in v) + "]"
                                                      for v in vs)) for nm, vs in ins) + "}"
    return txt + " -> {" + ", ".join("dim%d: %d" % (i, s) for i, s in enumerate(ll.shape)) + "}"


def describe(gl, b, out, shape):
    """The result: its kind, a blocked result's parameters, a slice's dim,
    and its linear layout at the result's shape (Triton's to_linear_layout)."""
    d = {"kind": type(out).__name__, "ll": ll_text(b.to_linear_layout(out._to_ir(b), list(shape)))}
    if isinstance(out, gl.BlockedLayout):
        d["blocked"] = [list(out.size_per_thread), list(out.threads_per_warp), list(out.warps_per_cta),
                        list(out.order)]
    if isinstance(out, gl.SliceLayout):
        d["slice"] = out.dim
    if isinstance(out, gl.DotOperandLayout):
        d["dot"] = [out.operand_index, out.k_width]
    return d


def worker(cpath, rpath, start):
    from triton._C.libtriton import ir, gluon_ir
    import triton.experimental.gluon.language as gl
    cs = json.load(open(cpath))
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    mod = b.create_module()
    f = b.get_or_insert_function(mod, "k", b.get_function_ty([], []), "public", False)
    mod.push_back(f)
    b.set_insertion_point_to_start(f.add_entry_block())
    zero = b.get_fp32(0.0)
    zero8 = b.get_int8(0)
    with open(rpath, "a") as res:
        for i in range(start, len(cs)):
            c = cs[i]
            try:
                ety = b.get_int8_ty() if c["op"] == "fp4_to_fp" else b.get_float_ty()
                v = b.create_splat(b.get_distributed_ty(ety, c["shape"], build(gl, c["enc"])._to_ir(b)),
                                   zero8 if c["op"] == "fp4_to_fp" else zero)
                if c["op"] == "reshape":
                    r = b.create_reshape(v, c["dst"], False)
                elif c["op"] == "trans":
                    r = b.create_trans(v, c["perm"])
                elif c["op"] == "join":
                    r = b.create_join(v, v)
                elif c["op"] == "joinsplit":
                    r = b.create_split(b.create_join(v, v))[0]
                elif c["op"] == "fp4_to_fp":
                    r = b.create_fp4_to_fp(v, b.get_bf16_ty(), c["axis"])
                else:
                    r = b.create_split(v)[0]
                d = describe(gl, b, b.get_gluon_layout_from_tensor(r), result_shape(c))
            except Exception as ex:  # Triton refused (a Python-level error)
                d = {"error": str(ex).strip().splitlines()[0][:200] if str(ex).strip() else type(ex).__name__}
            res.write(json.dumps({"i": i, "r": d}) + "\n")
            res.flush()


def result_shape(c):
    if c["op"] == "reshape":
        return c["dst"]
    if c["op"] == "trans":
        return [c["shape"][p] for p in c["perm"]]
    if c["op"] == "join":
        return c["shape"] + [2]
    if c["op"] == "joinsplit":
        return c["shape"]
    if c["op"] == "fp4_to_fp":
        return [x * 2 if i == c["axis"] else x for i, x in enumerate(c["shape"])]
    return c["shape"][:-1]


def expected_lines(c, r):
    e = enc_text(c["enc"])
    sh = tup(c["shape"])
    call = {"reshape": lambda: "infer_reshape_encoding(%s, %s, %s)" % (sh, e, tup(c["dst"])),
            "trans": lambda: "infer_trans_encoding(%s, %s, %s)" % (sh, e, tup(c["perm"])),
            "join": lambda: "infer_join_encoding(%s, %s)" % (sh, e),
            "split": lambda: "infer_split_encoding(%s, %s)" % (sh, e),
            "joinsplit": lambda: "infer_split_encoding(%s, infer_join_encoding(%s, %s))" % (
                tup(c["shape"] + [2]), sh, e),
            "fp4_to_fp": lambda: "infer_fp4_to_fp_encoding(%s, %s, %d)" % (sh, e, c.get("axis", 0))}[c["op"]]()
    if "error" in r or "abort" in r:
        return ["# Triton: %s" % r.get("error", r.get("abort")), "%s => error" % call]
    out = ["to_linear(%s, %s) => %s" % (call, tup(result_shape(c)), r["ll"])]
    if c["op"] == "trans" and c["perm"] == sorted(c["perm"]):
        out.append("%s == %s => true" % (call, e))  # Triton returns the source unchanged
    elif "blocked" in r:
        out.append("%s == blocked(%s) => true" % (call, ", ".join(tup(x) for x in r["blocked"])))
    elif "slice" in r and c["op"] == "split":
        out.append("%s == slice_layout(%d, %s) => true" % (call, r["slice"], e))
    elif "slice" in r:
        out.append("%s.kind => slice" % call)
    elif "dot" in r:
        out.append("%s == dot_operand(%d, %s, %d) => true" % (call, r["dot"][0], enc_text(c["enc"]["parent"]),
                                                             r["dot"][1]))
    else:
        out.append("type(%s) => linear layout" % call)
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=300)
    a = ap.parse_args()
    import triton
    R = random.Random(20261127 + a.seed)
    cs = cases(R, a.n)
    work = tempfile.mkdtemp()
    results, _ = run_isolated(__file__, cs, work, False, 600,
                              lambda errfile, i, rc: "Triton aborted (rc %s): %s" % (
                                  rc, (open(errfile).read().strip().splitlines() or [""])[-1][:200]))
    os.makedirs(a.out, exist_ok=True)
    for op in ("reshape", "trans", "join", "split", "joinsplit", "fp4_to_fp"):
        lines, counts = [], {}
        for i, c in enumerate(cs):
            if c["op"] != op:
                continue
            r = results[i]["r"] if "r" in results[i] else {"abort": results[i]["msg"]}
            k = r.get("kind", "error" if "error" in r else "abort")
            counts[k] = counts.get(k, 0) + 1
            lines += expected_lines(c, r)
        what = {"fp4_to_fp": "ttg.fp4_to_fp", "joinsplit": "tt.split of tt.join"}.get(op, "tt." + op)
        head = ["# %s's result encoding as Triton %s infers it, through the gluon builder; "
                "tests/gen/triton/gen_infer.py --seed %d --n %d" % (what, triton.__version__, a.seed, a.n),
                "# %d cases: %s" % (sum(counts.values()),
                                    ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items()))),
                '#! import "triton.lyt"']
        open(os.path.join(a.out, op + ".txt"), "w").write("\n".join(head + lines) + "\n")
        print(op, counts)


if __name__ == "__main__":
    main()
