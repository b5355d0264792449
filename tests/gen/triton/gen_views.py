#!/usr/bin/env python3
"""Oracle for lyt's `show` of linear layouts: Triton 3.6's layout pictures.

Triton's Python LinearLayout has get_distributed_view(use_hw_view) and
get_shared_view(use_hw_view). With False they draw the tensor (one cell
per element, the hardware slots holding it); with True they list the
hardware slots (per block/warp/register, or per block/offset) with the
tensor coordinates each one holds.

Run on a machine with triton 3.6 (no GPU is used):

    python3 tests/gen/triton/gen_views.py --out DIR

writes DIR/views.json: for each case its name, source note, the lyt
literal, Triton's str(L), both views (or the abort/exception), and for
gluon encodings the bases Triton returned. Every case runs in a worker
subprocess; a C++ abort (assertion) is recorded and the worker restarts
at the next case. --mock replaces Triton by our own model of the views
(written from the documented format, see tests/gen/triton/README.md),
for testing this script and lyt without Triton; on a Triton run the
model is also compared with Triton and the differences listed under
"model_mismatches".

    python3 tests/gen/triton/gen_views.py --emit views.json --golden tests/golden/triton

renders tests/golden/triton/views.lyt and views.out from a views.json
(only cases that Triton answered; the .out is Triton's text verbatim).
"""
import argparse
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from isolate import run_isolated  # noqa: E402

# ---------------------------------------------------------------- helpers

def ident(parts, rank):
    """Bases of a product of identity_1d maps: parts is a list of
    (in_dim, out_dim_index, size), minor first, as in Triton's operator*
    (each out dim continues where the previous factor left it)."""
    bases = {}
    order = []
    cur = [1] * rank
    for name, d, size in parts:
        if name not in bases:
            bases[name] = []
            order.append(name)
        k = 1
        while k < size:
            v = [0] * rank
            v[d] = cur[d] * k
            bases[name].append(v)
            k *= 2
        cur[d] *= size
    return [(n, bases[n]) for n in order], cur


def dist(reg, lane, warp, block, sizes, order=("register", "lane", "warp", "block")):
    d = {"register": reg, "lane": lane, "warp": warp, "block": block}
    return [(n, d[n]) for n in order if d[n] is not None], [("dim%d" % i, s) for i, s in enumerate(sizes)]


def shared(offset, block, sizes):
    ins = [("offset", offset)]
    if block is not None:
        ins.append(("block", block))
    return ins, [("dim%d" % i, s) for i, s in enumerate(sizes)]


def swizzled_offsets(vec, per_phase, max_phase, shape, order):
    """SwizzledShared's offset bases (rank 2): columns of order[0] first,
    then rows with their xor phase; components in (dim0, dim1) order."""
    col, row = order[0], order[1]
    ncols, nrows = shape[col], shape[row]
    bases = []
    c = 1
    while c < ncols:
        v = [0, 0]
        v[col] = c
        bases.append(v)
        c *= 2
    r = 1
    while r < nrows:
        v = [0, 0]
        v[row] = r
        v[col] = (vec * ((r // per_phase) % max_phase)) % ncols
        bases.append(v)
        r *= 2
    return bases


def lyt_literal(ins, outs):
    def vec(v):
        return "[" + ",".join(str(int(x)) for x in v) + "]"
    i = ", ".join("%s: [%s]" % (n, ",".join(vec(v) for v in vs)) for n, vs in ins)
    o = ", ".join("%s: %d" % (n, s) for n, s in outs)
    return "{%s} -> {%s}" % (i, o)


# ---------------------------------------------------------------- cases

def cases():
    C = []

    def add(name, view, src, ins, outs):
        C.append({"name": name, "picture": view, "source": src, "ins": ins, "outs": outs})

    def addg(name, view, src, enc, shape):
        C.append({"name": name, "picture": view, "source": src, "enc": enc, "shape": shape})

    L5 = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    # ---- distributed, from_bases
    add("blocked_8x8", "distributed", "blocked-like: spt [1,2], tpw [8,4], order [1,0]",
        *dist([[0, 1]], L5, [], [], [8, 8]))
    add("blocked_16x16_2warps", "distributed", "blocked-like: spt [1,4], tpw [8,4], wpc [2,1]",
        *dist([[0, 1], [0, 2]], [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [[8, 0]], [], [16, 16]))
    add("blocked_colmajor", "distributed", "blocked-like, order [0,1]: spt [2,1], tpw [4,8], wpc [1,2]",
        *dist([[1, 0]], [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], [[0, 8]], [], [8, 16]))
    add("blocked_wrap", "distributed", "a 4x8 tile on an 8x16 tensor: registers repeat it",
        *dist([[0, 8], [4, 0]], L5[:2] + [[1, 0], [2, 0], [0, 1]], [], [], [8, 16]))
    add("broadcast_lane", "distributed", "lanes 4 and 16 broadcast (zero bases)",
        *dist([[0, 1]], [[0, 2], [0, 4], [0, 0], [1, 0], [0, 0]], [], [], [2, 8]))
    add("broadcast_warp", "distributed", "4 warps holding the same data",
        *dist([[0, 1]], L5, [[0, 0], [0, 0]], [], [8, 8]))
    add("broadcast_register", "distributed", "a register basis that is zero",
        *dist([[0, 0], [0, 1]], L5, [], [], [8, 8]))
    add("mma_v2_16x8", "distributed", "NVIDIA mma v2 accumulator, one 16x8 tile per warp, 2 warps",
        *dist([[0, 1], [8, 0]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0]], [], [32, 8]))
    add("mma_v2_reps", "distributed", "mma v2 with a repeat along N (register bit)",
        *dist([[0, 1], [8, 0], [0, 8]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0]], [], [32, 16]))
    add("mma_v3_64x16", "distributed", "Hopper wgmma accumulator m64n16, 4 warps",
        *dist([[0, 1], [8, 0], [0, 8]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0], [32, 0]], [],
              [64, 16]))
    add("mfma_32x32", "distributed", "MFMA 32x32 tile: 64 lanes, 16 registers (seed 000's basis list)",
        *dist([[1, 0], [2, 0], [8, 0], [16, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], [], [],
              [32, 32]))
    add("mfma_16x16", "distributed", "MFMA 16x16 tile: 64 lanes, 4 registers",
        *dist([[1, 0], [2, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], [], [], [16, 16]))
    add("mfma_32x32_2x2warps", "distributed", "MFMA 32x32 on 2x2 warps, 64x64",
        *dist([[1, 0], [2, 0], [8, 0], [16, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
              [[0, 32], [32, 0]], [], [64, 64]))
    add("slice_1d", "distributed", "a slice: rank 1, lanes 8 and 16 broadcast",
        *dist([[1]], [[2], [4], [0], [0], [8]], [[0], [16]], [], [32]))
    add("rank1_lanes", "distributed", "rank 1, one element per lane",
        *dist([], [[1], [2], [4], [8], [16]], [], [], [32]))
    add("rank3", "distributed", "rank 3, 2x4x8",
        *dist([[0, 0, 1]], [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [1, 0, 0]], [], [], [2, 4, 8]))
    add("block_2", "distributed", "2 CTAs along dim1",
        *dist([[0, 1]], L5, [], [[0, 8]], [8, 16]))
    add("block_broadcast", "distributed", "2 CTAs holding the same data",
        *dist([[0, 1]], L5, [], [[0, 0]], [8, 8]))
    add("block_4_warps_2", "distributed", "4 CTAs (2x2) of 2 warps",
        *dist([[0, 1]], L5, [[0, 8]], [[8, 0], [0, 16]], [16, 32]))
    add("not_surjective", "distributed", "out sizes larger than the image: empty cells",
        *dist([[0, 1]], [[1, 0], [2, 0]], [], [], [8, 4]))
    add("dim0_size1", "distributed", "a size-1 first dim, 8 lanes broadcast over 32",
        *dist([], [[0, 1], [0, 2], [0, 4], [0, 0], [0, 0]], [], [], [1, 8]))
    add("dim1_size1", "distributed", "a size-1 last dim",
        *dist([], [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], [], [], [16, 1]))
    add("in_order_permuted", "distributed", "in-dims listed lane, warp, register, block",
        *dist([[0, 1]], L5, [[8, 0]], [], [16, 8], order=("lane", "warp", "register", "block")))
    add("registers_only", "distributed", "one thread holding 16 elements (lane size 1)",
        *dist([[0, 1], [0, 2], [1, 0], [2, 0]], [], [], [], [4, 4]))
    add("lanes64_warps2", "distributed", "64 lanes x 2 warps: thread ids up to 127",
        *dist([[0, 1]], [[0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [[8, 0]], [], [16, 16]))
    add("xor_registers", "distributed", "registers that are xor combinations",
        *dist([[1, 1], [0, 2]], [[0, 1], [2, 0], [0, 4], [4, 4], [1, 0]], [], [], [8, 8]))
    add("dot_k_broadcast", "distributed", "warps broadcast along K (dot operand-like)",
        *dist([[0, 1], [8, 0]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[0, 0], [16, 0]], [], [32, 8]))

    # ---- shared, from_bases (offset, block)
    add("shared_swizzle_8x8", "shared", "swizzled: vec 1, per_phase 1, max_phase 8, order [1,0]",
        *shared(swizzled_offsets(1, 1, 8, [8, 8], [1, 0]), [], [8, 8]))
    add("shared_swizzle_16x16_v2", "shared", "swizzled: vec 2, per_phase 2, max_phase 4, order [1,0]",
        *shared(swizzled_offsets(2, 2, 4, [16, 16], [1, 0]), [], [16, 16]))
    add("shared_rowmajor_4x8", "shared", "unswizzled row-major",
        *shared(swizzled_offsets(1, 1, 1, [4, 8], [1, 0]), [], [4, 8]))
    add("shared_colmajor_8x4", "shared", "swizzled column-major: vec 1, per_phase 1, max_phase 4, order [0,1]",
        *shared(swizzled_offsets(1, 1, 4, [8, 4], [0, 1]), [], [8, 4]))
    add("shared_block_2", "shared", "2 CTAs along dim1, each 8x8 swizzled",
        *shared(swizzled_offsets(1, 1, 8, [8, 8], [1, 0]), [[0, 8]], [8, 16]))
    add("shared_block_broadcast", "shared", "2 CTAs holding the same 8x8 tile",
        *shared(swizzled_offsets(2, 1, 4, [8, 8], [1, 0]), [[0, 0]], [8, 8]))
    add("shared_rank1", "shared", "rank 1",
        *shared([[1], [2], [4], [8]], [], [16]))
    add("shared_rank3", "shared", "rank 3, 2x4x8, swizzle in the last two dims",
        *shared([[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 1, 1], [0, 2, 2], [1, 0, 0]], [], [2, 4, 8]))
    add("shared_nvmma_128B_8x64", "shared", "NVMMA-like 128-byte swizzle, 8x64 fp16",
        *shared([[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]], [], [8, 64]))
    add("shared_small_offset", "shared", "offset dim smaller than the tensor (8 of 16)",
        *shared([[0, 1], [0, 2], [1, 0]], [], [4, 4]))
    add("shared_zero_offset", "shared", "an offset basis that is zero (offset 16 > tensor 8)",
        *shared([[0, 1], [0, 0], [1, 0], [0, 2]], [], [2, 4]))

    # ---- seed 000 (shared/seeds/000_d7c7c1cef06bdad0.txt)
    S = "seed 000: "
    addg("seed_blocked_32x32_2x2cta", "distributed",
         S + "blocked spt [2,2], tpw [8,4], wpc [1,2], order [1,0], CTAsPerCGA [2,2], CTASplitNum [2,2]",
         {"kind": "blocked", "spt": [2, 2], "tpw": [8, 4], "wpc": [1, 2], "order": [1, 0],
          "cga": [[2, 2], [2, 2], [1, 0]]}, [32, 32])
    addg("seed_mfma_32x32", "distributed", S + "AMD MFMA 32x32 (instr [32,32,8]), one warp",
         {"kind": "mfma", "version": 3, "instr": [32, 32, 8], "transposed": False, "wpc": [1, 1]}, [32, 32])
    addg("seed_mfma_16x16", "distributed", S + "AMD MFMA 16x16 (instr [16,16,16]), one warp",
         {"kind": "mfma", "version": 3, "instr": [16, 16, 16], "transposed": False, "wpc": [1, 1]}, [16, 16])
    addg("seed_slice_dim0", "distributed", S + "slice dim 0 of a 4x4-thread blocked parent, tensor [8]",
         {"kind": "slice", "dim": 0, "parent": {"kind": "blocked", "spt": [1, 1], "tpw": [4, 4], "wpc": [1, 1],
                                                 "order": [1, 0]}}, [8])
    addg("seed_distributed_2x8_on_4x4", "distributed", S + "4x4 threads (order [1,0]) on a [2,8] tensor",
         {"kind": "blocked", "spt": [1, 1], "tpw": [4, 4], "wpc": [1, 1], "order": [1, 0]}, [2, 8])
    addg("seed_order01_4x4", "distributed", S + "4x4 threads, order [0,1]",
         {"kind": "blocked", "spt": [1, 1], "tpw": [4, 4], "wpc": [1, 1], "order": [0, 1]}, [4, 4])
    addg("seed_spt_4x4", "distributed", S + "sizePerThread [4,4], order [1,0] (registers only)",
         {"kind": "blocked", "spt": [4, 4], "tpw": [1, 1], "wpc": [1, 1], "order": [1, 0]}, [4, 4])
    add("seed_swizzle_v1_p2_m2_4x8", "shared", S + "SwizzledShared vec 1, perPhase 2, maxPhase 2, order [1,0], [4,8]",
        *shared(swizzled_offsets(1, 2, 2, [4, 8], [1, 0]), [], [4, 8]))
    add("seed_swizzle_v1_p2_m2_8x4", "shared", S + "the same as drawn in the seed (8 rows of 4)",
        *shared(swizzled_offsets(1, 2, 2, [8, 4], [1, 0]), [], [8, 4]))
    add("seed_swizzle_v2_p1_m4_4x8", "shared", S + "SwizzledShared vec 2, perPhase 1, maxPhase 4, order [1,0], [4,8]",
        *shared(swizzled_offsets(2, 1, 4, [4, 8], [1, 0]), [], [4, 8]))

    # ---- probes: what Triton does with other in-dim sets (aborts expected)
    add("probe_no_block", "distributed", "probe: distributed view without a block in-dim",
        *dist([[0, 1]], L5, [], None, [8, 8]))
    add("probe_shared_no_block", "shared", "probe: shared view without a block in-dim",
        *shared(swizzled_offsets(1, 1, 8, [8, 8], [1, 0]), None, [8, 8]))
    return C


# ---------------------------------------------------------------- our model of the views

def m_apply(ins, outs, vals):
    res = [0] * len(outs)
    for n, vs in ins:
        x = vals.get(n, 0)
        for b, v in enumerate(vs):
            if (x >> b) & 1:
                res = [r ^ c for r, c in zip(res, v)]
    return res


def m_size(ins, name):
    for n, vs in ins:
        if n == name:
            return 1 << len(vs)
    return 1


def pad(value, mx):
    return " " * (len(str(mx)) - len(str(value)))


def padded(value, mx):
    return pad(value, mx) + str(value)


def delin(i, shape):
    r = [0] * len(shape)
    for d in range(len(shape) - 1, -1, -1):
        r[d] = i % shape[d]
        i //= shape[d]
    return r


def grid(cells, shape, sep):
    out = []
    rank = len(shape)
    total = 1
    for s in shape:
        total *= s
    newline = True
    for i in range(total):
        idx = delin(i, shape)
        nopen = 0
        for j in range(rank - 1, -1, -1):
            if idx[j] != 0:
                break
            out.append("[")
            nopen += 1
        if newline:
            out.append(" " * (rank - nopen))
            newline = False
        out.append(cells[i])
        nxt = delin(i + 1, shape)
        for j in range(rank - 1, -1, -1):
            if nxt[j] != 0:
                break
            out.append("]")
        if nxt[-1] == 0:
            out.append("\n")
            newline = True
        else:
            out.append(sep)
    return "".join(out)


def m_distributed(ins, outs, hw):
    shape = [s for _, s in outs]
    total = 1
    for s in shape:
        total *= s
    nreg, nlane, nwarp, nblock = (m_size(ins, n) for n in ("register", "lane", "warp", "block"))
    cells = [""] * total
    slots = []
    for b in range(nblock):
        for w in range(nwarp):
            for t in range(nlane):
                for r in range(nreg):
                    o = m_apply(ins, outs, {"block": b, "warp": w, "lane": t, "register": r})
                    lin = 0
                    for d in range(len(shape)):
                        lin = lin * shape[d] + o[d]
                    tid = t + w * nlane
                    s = cells[lin]
                    if s:
                        s += "|"
                    s += pad(b, nblock) + pad(tid, nwarp * nlane) + pad(r, nreg)
                    if nblock > 1:
                        s += "B%d:" % b
                    s += "T%d:%d" % (tid, r)
                    cells[lin] = s
                    slots.append("(" + ",".join(padded(v, shape[d]) for d, v in enumerate(o)) + ")")
    if not hw:
        return grid(cells, shape, ", ")
    out = []
    for b in range(nblock):
        if nblock > 1:
            out.append("Block%d:\n" % b)
        for w in range(nwarp):
            out.append("Warp%d:\n" % w)
            for r in range(nreg):
                row = []
                for t in range(nlane):
                    row.append(slots[((b * nwarp + w) * nlane + t) * nreg + r])
                out.append(", ".join(row) + "\n")
    return "".join(out)


def m_shared(ins, outs, hw):
    shape = [s for _, s in outs]
    total = 1
    for s in shape:
        total *= s
    nblock = m_size(ins, "block")
    bsize = total // nblock
    cells, slots = [], []
    for b in range(nblock):
        for off in range(bsize):
            o = m_apply(ins, outs, {"block": b, "offset": off})
            p = [padded(v, shape[d]) for d, v in enumerate(o)]
            cells.append("(" + ":".join(p) + ")")
            slots.append("(" + ",".join(p) + ")")
    if not hw:
        return grid(cells, shape, ",")
    out = []
    k = 0
    for b in range(nblock):
        out.append("Block: %d:\n" % b)
        for off in range(bsize):
            out.append("Offset: %d -> %s\n" % (off, slots[k]))
            k += 1
    return "".join(out)


# ---------------------------------------------------------------- Triton side

class Triton:
    def __init__(self):
        from triton._C.libtriton.linear_layout import LinearLayout
        self.LL = LinearLayout
        self.b = None

    def layout(self, ins, outs):
        return self.LL.from_bases([(n, [list(v) for v in vs]) for n, vs in ins],
                                  [n for n, _ in outs], [s for _, s in outs], False)

    def encoding(self, e, shape):
        from triton._C.libtriton import ir, gluon_ir
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language.amd import AMDMFMALayout
        if self.b is None:
            self.ctx = ir.context()
            ir.load_dialects(self.ctx)
            self.b = gluon_ir.GluonOpBuilder(self.ctx)

        def build(e):
            kw = {}
            if e.get("cga"):
                c = e["cga"]
                kw["cga_layout"] = [list(x) for x in gluon_ir.make_cga_layout(c[0], c[1], c[2])]
            if e["kind"] == "blocked":
                return gl.BlockedLayout(size_per_thread=e["spt"], threads_per_warp=e["tpw"],
                                        warps_per_cta=e["wpc"], order=e["order"], **kw)
            if e["kind"] == "slice":
                return gl.SliceLayout(dim=e["dim"], parent=build(e["parent"]))
            if e["kind"] == "mfma":
                return AMDMFMALayout(version=e["version"], instr_shape=e["instr"], transposed=e["transposed"],
                                     warps_per_cta=e["wpc"], **kw)
            raise ValueError(e["kind"])

        lay = build(e)
        r = self.b.to_linear_layout(lay._to_ir(self.b), list(shape))
        ins = [("register", r.reg_bases), ("lane", r.lane_bases), ("warp", r.warp_bases), ("block", r.block_bases)]
        ins = [(n, [[int(x) for x in v] for v in vs]) for n, vs in ins]
        outs = [("dim%d" % i, int(s)) for i, s in enumerate(r.shape)]
        return ins, outs, repr(lay)


def worker(cpath, rpath, start, mock):
    with open(cpath) as f:
        cs = json.load(f)
    tri = None if mock else Triton()
    out = open(rpath, "a")
    for i in range(start, len(cs)):
        c = cs[i]
        sys.stderr.write("@@BEGIN %d\n" % i)
        sys.stderr.flush()
        res = {"i": i}
        try:
            if "enc" in c:
                if mock:
                    raise RuntimeError("no Triton (mock run)")
                ins, outs, res["encoding_repr"] = tri.encoding(c["enc"], c["shape"])
                res["ins"], res["outs"] = ins, outs
            else:
                ins, outs = c["ins"], c["outs"]
            res["literal"] = lyt_literal(ins, outs)
            fn = m_distributed if c["picture"] == "distributed" else m_shared
            res["model_view"] = fn(ins, outs, False)
            res["model_hw_view"] = fn(ins, outs, True)
            if not mock:
                ll = tri.layout(ins, outs)
                res["str"] = str(ll)
                if c["picture"] == "distributed":
                    res["view"] = ll.get_distributed_view(False)
                    res["hw_view"] = ll.get_distributed_view(True)
                else:
                    res["view"] = ll.get_shared_view(False)
                    res["hw_view"] = ll.get_shared_view(True)
            else:
                res["view"], res["hw_view"] = res["model_view"], res["model_hw_view"]
            res["status"] = "ok"
        except BaseException as e:  # Python errors; C++ aborts kill the process
            res["status"] = "exception"
            res["msg"] = "%s: %s" % (type(e).__name__, str(e).strip()[:500])
        out.write(json.dumps(res) + "\n")
        out.flush()
    out.close()


def run_all(cs, workdir, mock):
    def abort_msg(errfile, i, rc):
        txt = open(errfile, errors="replace").read()
        k = txt.rfind("@@BEGIN %d\n" % i)
        tail = txt[k:] if k >= 0 else txt[-2000:]
        sig = ("signal %s" % signal.Signals(-rc).name) if isinstance(rc, int) and rc < 0 else "exit %s" % rc
        return sig + ": " + " | ".join(l.strip() for l in tail.splitlines()[1:8] if l.strip())[:800]
    results, _ = run_isolated(__file__, cs, workdir, mock, 120, abort_msg)
    return [dict(cs[i], **results.get(i, {"status": "missing"})) for i in range(len(cs))]


def drive(outdir, mock):
    os.makedirs(outdir, exist_ok=True)
    work = os.path.join(outdir, "work") if mock else "/tmp/gen_views_work"
    os.makedirs(work, exist_ok=True)
    meta = {"mock": mock}
    if not mock:
        import triton
        meta["triton"] = triton.__version__
        meta["python"] = sys.version.split()[0]
        from triton._C.libtriton.linear_layout import LinearLayout
        meta["doc_distributed"] = LinearLayout.get_distributed_view.__doc__
        meta["doc_shared"] = LinearLayout.get_shared_view.__doc__
    res = run_all(cases(), work, mock)
    mism = []
    for r in res:
        if r.get("status") == "ok" and not mock:
            for a, b in (("view", "model_view"), ("hw_view", "model_hw_view")):
                if r[a] != r[b]:
                    mism.append("%s %s" % (r["name"], a))
    meta["model_mismatches"] = mism
    meta["status"] = {r["name"]: r.get("status") for r in res}
    with open(os.path.join(outdir, "views.json"), "w") as f:
        json.dump({"meta": meta, "cases": res}, f, indent=1)
    print(json.dumps({"mismatches": mism, "not_ok": {k: v for k, v in meta["status"].items() if v != "ok"}}))


# ---------------------------------------------------------------- golden files

def emit(views_json, gdir):
    with open(views_json) as f:
        data = json.load(f)
    meta = data["meta"]
    lyt = ["# show of linear layouts: each .out block is Triton %s's get_distributed_view(False)"
           % meta.get("triton", "?"),
           "# or get_shared_view(False) of the same layout built with LinearLayout.from_bases,",
           "# verbatim (generated by tests/gen/triton/gen_views.py%s)." % (" --mock: NOT oracle text" if meta["mock"] else "")]
    out = []
    for c in data["cases"]:
        if c.get("status") != "ok" or "enc" in c or c["name"].startswith(("probe_", "seed_")):
            continue
        lyt.append("")
        # (views.json of the first run lacks "picture": its in-dims tell)
        pic = c.get("picture") or ("shared" if "offset:" in c["literal"] else "distributed")
        lyt.append("# %s (%s view): %s" % (c["name"], pic, c["source"]))
        lyt.append("show " + c["literal"])
        out.append(c["view"])
    os.makedirs(gdir, exist_ok=True)
    with open(os.path.join(gdir, "views.lyt"), "w") as f:
        f.write("\n".join(lyt) + "\n")
    with open(os.path.join(gdir, "views.out"), "w") as f:
        f.write("".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--mock", action="store_true")
    ap.add_argument("--worker", nargs=3)
    ap.add_argument("--emit")
    ap.add_argument("--golden", default="tests/golden/triton")
    a = ap.parse_args()
    if a.worker:
        worker(a.worker[0], a.worker[1], int(a.worker[2]), a.mock)
    elif a.emit:
        emit(a.emit, a.golden)
    else:
        drive(a.out or os.environ.get("OUT", "/tmp/gen_views"), a.mock)


if __name__ == "__main__":
    main()
