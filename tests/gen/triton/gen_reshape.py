#!/usr/bin/env python3
"""Differential data for lyt's infer_reshape_encoding, computed by Triton 3.6:
a tensor of a random encoding is reshaped with the gluon builder
(tt.reshape, allow_reorder=False) and the result type's encoding, which
Triton's inferReshapeOpEncoding chose, is read back.

usage: gen_reshape.py --out FILE [--seed S] [--n N]
Writes `<lyt expression> => <expected>` lines (tests/ll format):
  a blocked result:  infer_reshape_encoding(...) == blocked(spt, tpw, wpc, order) => true
  a linear result:   to_linear(infer_reshape_encoding(...), dst) => <layout>
"""
import sys
sys.dont_write_bytecode = True
import argparse
import random


def tup(t):
    return "(" + ",".join(str(x) for x in t) + ("," if len(t) == 1 else "") + ")"


def blocked_text(spt, tpw, wpc, order):
    return "blocked(%s, %s, %s, %s)" % (tup(spt), tup(tpw), tup(wpc), tup(order))


def split_pow2(total_log2, r, R):
    """r non-negative log2 parts summing to total_log2."""
    cuts = sorted(R.randint(0, total_log2) for _ in range(r - 1))
    parts, prev = [], 0
    for c in cuts + [total_log2]:
        parts.append(c - prev)
        prev = c
    return parts


def rand_shape(R, total_log2=None):
    r = R.randint(1, 4)
    if total_log2 is None:
        total_log2 = R.randint(0, 13)
    return [1 << p for p in split_pow2(total_log2, r, R)]


def rand_blocked(R, r):
    spt = [1 << R.randint(0, 2) for _ in range(r)]
    tpw = [1 << p for p in split_pow2(5, r, R)]
    wpc = [1 << p for p in split_pow2(R.randint(0, 3), r, R)]
    order = list(range(r))
    R.shuffle(order)
    return spt, tpw, wpc, order


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
    return [1] * r, tpw, wpc, order


def cases(R, n):
    out = []
    while len(out) < n:
        src = rand_shape(R)
        tl = sum(x.bit_length() - 1 for x in src)
        dst = rand_shape(R, tl)
        if R.random() < 0.15:
            enc = default_blocked(src, 1 << R.randint(0, 3), 32)
        else:
            enc = rand_blocked(R, len(src))
        out.append((src, enc, dst))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n", type=int, default=400)
    a = ap.parse_args()
    import triton
    from triton._C.libtriton import ir, gluon_ir
    import triton.experimental.gluon.language as gl
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    mod = b.create_module()
    f = b.get_or_insert_function(mod, "k", b.get_function_ty([], []), "public", False)
    mod.push_back(f)
    b.set_insertion_point_to_start(f.add_entry_block())
    zero = b.get_fp32(0.0)
    R = random.Random(20261127 + a.seed)
    lines = ["# tt.reshape's result encoding as Triton %s infers it (inferReshapeOpEncoding, "
             "allow_reorder=False), through the gluon builder; tests/gen/triton/gen_reshape.py "
             "--seed %d --n %d" % (triton.__version__, a.seed, a.n), '#! import "triton.lyt"']
    kinds = {"blocked": 0, "linear": 0}
    for src, (spt, tpw, wpc, order), dst in cases(R, a.n):
        lay = gl.BlockedLayout(size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order)
        v = b.create_splat(b.get_distributed_ty(b.get_float_ty(), src, lay._to_ir(b)), zero)
        r = b.create_reshape(v, dst, False)
        out = b.get_gluon_layout_from_tensor(r)
        call = "infer_reshape_encoding(%s, %s, %s)" % (tup(src), blocked_text(spt, tpw, wpc, order), tup(dst))
        if isinstance(out, gl.BlockedLayout):
            kinds["blocked"] += 1
            lines.append("%s == %s => true" % (call, blocked_text(out.size_per_thread, out.threads_per_warp,
                                                                    out.warps_per_cta, out.order)))
        else:
            kinds["linear"] += 1
            ins = [("register", out.reg_bases), ("lane", out.lane_bases), ("warp", out.warp_bases),
                   ("block", out.block_bases)]
            txt = "{" + ", ".join("%s: [%s]" % (nm, ",".join("[" + ",".join(str(int(c)) for c in v) + "]"
                                                              for v in vs)) for nm, vs in ins) + "}"
            txt += " -> {" + ", ".join("dim%d: %d" % (i, s) for i, s in enumerate(out.shape)) + "}"
            lines.append("to_linear(%s, %s) => %s" % (call, tup(dst), txt))
    lines.insert(1, "# %d cases: %d blocked results, %d linear" % (a.n, kinds["blocked"], kinds["linear"]))
    open(a.out, "w").write("\n".join(lines) + "\n")
    print(kinds)


if __name__ == "__main__":
    main()
