"""Case lists for gen_oracle.py (hand-picked + random with fixed seeds)."""
import random
import itertools

import gf2
from gf2 import LL, LLError
from lyt_render import render, to_linear_text

CASES = []


def add_op(tree, rnd=False, note=None, expect_error=None):
    CASES.append({"group": "ops", "expr": render(tree), "op": tree, "rnd": rnd,
                  "note": note, "expect_error": expect_error})


def add_enc(group, enc, shape, rnd=False, note=None):
    CASES.append({"group": group, "expr": to_linear_text(enc, shape), "enc": enc,
                  "shape": list(shape), "rnd": rnd, "note": note})


# ================================================================ helpers
def lit(ll, sized=True):
    return ["lit", [[n, [list(v) for v in vs]] for n, vs in ll.ins],
            [[n, s] for n, s in ll.outs], sized]


def model(t):
    """Evaluate a tree with the gf2 model (raises LLError on precondition failure)."""
    k = t[0]
    if k == "lit":
        ins = [(n, [tuple(v) for v in vs]) for n, vs in t[1]]
        if t[3]:
            return gf2.from_bases(ins, [o for o, _ in t[2]], [s for _, s in t[2]], False)
        return gf2.from_bases(ins, [o for o, _ in t[2]])
    if k == "identity_1d":
        return gf2.identity_1d(*t[1:])
    if k == "zeros_1d":
        return gf2.zeros_1d(t[1], t[2], t[3], 1 if t[4] is None else t[4])
    if k == "strided_1d":
        return gf2.strided_1d(*t[1:])
    if k == "mul":
        return gf2.mul(model(t[1]), model(t[2]))
    if k == "eq":
        return model(t[1]) == model(t[2])
    if k == "compose":
        return gf2.compose(model(t[1]), model(t[2]))
    if k == "iac":
        return gf2.invert_and_compose(model(t[1]), model(t[2]))
    if k == "invert":
        return gf2.invert(model(t[1]))
    if k == "pseudoinvert":
        return gf2.pseudoinvert(model(t[1]))
    if k == "apply":
        a = model(t[1])
        return list(zip(a.out_names, a.apply(dict(t[2]))))
    if k == "is_surjective":
        return model(t[1]).is_surjective()
    if k == "is_injective":
        return model(t[1]).is_injective()
    if k == "is_invertible":
        return model(t[1]).is_invertible()
    raise ValueError(k)


def L(ins, outs):
    return LL([(n, [tuple(v) for v in vs]) for n, vs in ins], outs)


def S(ins, outs):  # sized literal tree
    return lit(L(ins, outs))


def I(n, i="in", o="out"):
    return ["identity_1d", n, i, o]


# ================================================================ ops: hand-picked
def hand_ops():
    # factories
    for t in [I(8), I(1), I(32, "lane", "dim0"), ["zeros_1d", 8, "in", "out", None],
              ["zeros_1d", 8, "in", "out", 4], ["zeros_1d", 1, "in", "out", None],
              ["zeros_1d", 4, "register", "dim1", 16],
              ["strided_1d", 4, 2, "in", "out"], ["strided_1d", 8, 4, "i", "o"],
              ["strided_1d", 1, 4, "in", "out"], ["strided_1d", 2, 1, "in", "out"]]:
        add_op(t)
    add_op(["strided_1d", 4, 3, "in", "out"], note="out size 12 is not a power of two",
           expect_error="out size not a power of two")
    for t in [["is_surjective", ["zeros_1d", 8, "in", "out", 4]], ["is_injective", ["zeros_1d", 8, "in", "out", None]],
              ["is_surjective", ["strided_1d", 4, 2, "in", "out"]], ["is_injective", ["strided_1d", 4, 2, "in", "out"]],
              ["is_invertible", I(16)], ["is_invertible", I(1)]]:
        add_op(t)
    # literals: the spec example, inferred sizes, header example
    c01 = [["register", [[0, 1], [0, 2], [0, 16]]], ["lane", [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]]],
           ["warp", [[8, 0], [16, 0]]], ["block", []]]
    add_op(["lit", [["register", [[0, 1], [0, 2]]], ["lane", [[1, 0], [2, 0], [4, 0]]], ["warp", []], ["block", []]],
            [["dim0", 8], ["dim1", 4]], True])
    add_op(["lit", [["register", [[0, 1], [0, 2]]], ["lane", [[1, 0], [2, 0], [4, 0]]], ["warp", []], ["block", []]],
            [["dim0", 8], ["dim1", 4]], False], note="inferred out sizes")
    add_op(["lit", c01, [["dim0", 32], ["dim1", 32]], False], note="C01 blocked layout, inferred sizes")
    add_op(["lit", [["in", [[1, 0], [5, 1], [2, 2]]]], [["dim0", 8], ["dim1", 4]], True],
           note="header example with explicit sizes (not surjective)")
    add_op(["lit", [["in", [[1, 0], [5, 1], [2, 2]]]], [["dim0", 0], ["dim1", 0]], False],
           note="header example: inferred sizes (8,4) but not surjective", expect_error="non-surjective inferred")
    add_op(["is_surjective", ["lit", [["in", [[1, 0], [5, 1], [2, 2]]]], [["dim0", 8], ["dim1", 4]], True]])
    add_op(["is_injective", ["lit", [["in", [[1, 0], [5, 1], [2, 2]]]], [["dim0", 8], ["dim1", 4]], True]])
    add_op(["lit", [["in", [[4]]]], [["out", 0]], False], note="inferred size of a max component 4 is 8 (strict NextPowerOf2) -> not surjective",
           expect_error="non-surjective inferred")
    add_op(["lit", [["in", [[1], [4]]], ["j", []]], [["out", 16]], True], note="size-1 in-dim")
    add_op(["lit", [["in", [[4]]]], [["out", 4]], True], expect_error="component >= out size")
    add_op(["lit", [["in", [[1]]]], [["out", 6]], True], expect_error="out size not a power of two")
    add_op(["lit", [["in", [[1, 0]]]], [["out", 4]], True], expect_error="basis length != number of out dims")
    add_op(["lit", [["in", [[1], [2]]]], [["out", 2]], True], expect_error="component >= out size")
    add_op(["lit", [["in", []]], [["out", 1]], False], note="size-1 in-dim, inferred out size 1")
    # products (reference-verified)
    add_op(["mul", I(4, "i", "o"), I(2, "i", "o")])
    add_op(["mul", I(4, "i", "o1"), I(8, "i", "o2")])
    add_op(["mul", I(2, "i", "o"), I(4, "j", "o")], note="outer-only in-dim is shifted by inner's out size")
    add_op(["mul", I(4, "register", "dim1"), ["mul", I(8, "lane", "dim0"), I(4, "lane", "dim1")]])
    add_op(["mul", ["mul", I(4, "register", "dim1"), I(8, "lane", "dim0")], I(4, "lane", "dim1")])
    add_op(["mul", ["zeros_1d", 4, "register", "dim0", None], I(4, "register", "dim0")])
    add_op(["mul", ["zeros_1d", 4, "register", "dim0", 4], I(4, "register", "dim0")])
    add_op(["mul", ["strided_1d", 4, 2, "i", "o"], I(2, "i", "o")])
    add_op(["mul", S([["a", [[1]]], ["b", [[2]]]], [["o", 4]]), S([["b", [[1]]], ["c", [[2]]]], [["o", 4]])],
           note="supremum [a,b]+[b,c] = [a,b,c]")
    note_sup = "documented as 'no supremum' (an error); Triton 3.6 merges the lists, keeping the inner order"
    add_op(["mul", S([["a", [[1]]], ["b", [[2]]]], [["o", 4]]), S([["b", [[1]]], ["a", [[2]]]], [["o", 4]])],
           note="in-dims [a,b] and [b,a]: " + note_sup)
    add_op(["mul", S([["i", [[1, 0]]]], [["x", 2], ["y", 1]]), S([["i", [[1, 0]]]], [["y", 2], ["x", 1]])],
           note="out-dims [x,y] and [y,x]: " + note_sup)
    add_op(["mul", S([["a", [[1]]], ["b", [[2]]], ["c", [[4]]]], [["o", 8]]),
            S([["c", [[1]]], ["b", [[2]]], ["a", [[4]]]], [["o", 8]])], note="in-dims [a,b,c] and [c,b,a]")
    add_op(["mul", S([["a", [[1]]], ["b", [[2]]]], [["o", 4]]), S([["c", [[1]]], ["a", [[2]]]], [["o", 4]])],
           note="in-dims [a,b] and [c,a]")
    add_op(["mul", S([["b", [[1]]]], [["o", 2]]), S([["a", [[1]]], ["b", [[1]]]], [["o", 2]])],
           note="in-dims [b] and [a,b]")
    add_op(["mul", S([["a", [[1]]], ["c", [[2]]]], [["o", 4]]), S([["b", [[1]]], ["c", [[2]]], ["a", [[1]]]], [["o", 4]])],
           note="in-dims [a,c] and [b,c,a]")
    add_op(["mul", S([["i", [[1, 0, 0]]]], [["x", 2], ["z", 1], ["y", 1]]), S([["i", [[1, 0]]]], [["y", 2], ["w", 1]])],
           note="out-dims [x,z,y] and [y,w]")
    add_op(["mul", S([["i", [[1, 1]]]], [["x", 2], ["y", 2]]), S([["i", [[1, 1]]], ["j", [[0, 1]]]], [["z", 2], ["x", 2]])],
           note="out-dims [x,y] and [z,x]")
    add_op(["mul", I(1, "i", "o"), I(1, "i", "o")])
    # compose
    add_op(["compose", I(4, "i", "o"), I(8, "o", "p")])
    add_op(["compose", ["strided_1d", 4, 2, "i", "o"], ["strided_1d", 8, 2, "o", "p"]])
    add_op(["compose", ["lit", c01, [["dim0", 32], ["dim1", 32]], True],
            S([["dim0", [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]], ["dim1", [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]]],
              [["dim1", 32], ["dim0", 32]])], note="transpose the C01 layout's out dims through compose")
    add_op(["compose", I(8, "i", "o"), I(4, "o", "p")], note="out size of A (8) > in size of B (4)",
           expect_error="compose size")
    add_op(["compose", I(4, "i", "o"), I(4, "x", "p")], note="out dims of A != in dims of B",
           expect_error="compose dims")
    add_op(["compose", S([["i", [[1, 0], [0, 1]]]], [["a", 2], ["b", 2]]),
            S([["b", [[1]]], ["a", [[2]]]], [["o", 4]])], note="out dims of A equal B's in-dims in another order")
    # invert / pseudoinvert / invert_and_compose (reference examples)
    p = S([["in", [[2], [1], [4]]]], [["out", 8]])
    q = S([["in", [[4], [1], [2]]]], [["out", 8]])
    add_op(["iac", p, q])
    add_op(["iac", q, p])
    add_op(["iac", I(8), S([["in", [[0], [2], [1], [4]]]], [["out", 8]])],
           note="non-injective outer: lowest outer input bits chosen")
    add_op(["iac", S([["register", [[1], [2]]], ["lane", [[4], [8]]]], [["out", 16]]),
            S([["register", [[1], [2]]], ["lane", [[8], [4]]]], [["out", 16]])], note="register is an identity dim")
    add_op(["iac", S([["register", [[1], [2]]], ["lane", [[8], [4]]]], [["out", 16]]),
            S([["register", [[1], [2]]], ["lane", [[4], [8]]]], [["out", 16]])])
    add_op(["invert", p])
    add_op(["invert", q])
    add_op(["invert", ["lit", c01, [["dim0", 32], ["dim1", 32]], True]])
    add_op(["pseudoinvert", ["lit", c01, [["dim0", 32], ["dim1", 32]], True]])
    add_op(["invert", ["zeros_1d", 4, "in", "out", None]], expect_error="not invertible")
    add_op(["invert", ["strided_1d", 4, 2, "in", "out"]], expect_error="not invertible")
    add_op(["invert", S([["in", [[1], [2], [0]]]], [["out", 4]])], note="surjective, not injective",
           expect_error="not invertible")
    add_op(["pseudoinvert", S([["in", [[1], [2], [0]]]], [["out", 4]])])
    add_op(["pseudoinvert", S([["in", [[1], [1], [2]]]], [["out", 4]])])
    add_op(["pseudoinvert", ["strided_1d", 4, 2, "in", "out"]], note="not surjective",
           expect_error="pseudoinvert of non-surjective")
    add_op(["iac", S([["in", [[1], [2]]]], [["out", 4]]), S([["x", [[1], [2], [4]]]], [["out", 8]])],
           note="outer out size 8 >= this out size 4")
    add_op(["iac", S([["in", [[1], [2], [4]]]], [["out", 8]]), S([["x", [[1], [2]]]], [["out", 4]])],
           note="outer out size 4 < this out size 8", expect_error="iac sizes")
    add_op(["iac", S([["in", [[1], [2]]]], [["out", 4]]), S([["x", [[2], [2]]]], [["out", 4]])],
           note="Im(this) not inside Im(outer)", expect_error="iac image")
    add_op(["iac", S([["in", [[1]]]], [["a", 2]]), S([["x", [[1]]]], [["b", 2]])], expect_error="iac dims")
    add_op(["iac", S([["register", [[0, 1], [1, 0]]], ["warp", [[0, 0]]]], [["dim0", 2], ["dim1", 2]]),
            S([["register", [[1, 0], [0, 1]]], ["warp", [[0, 0]]]], [["dim1", 2], ["dim0", 2]])],
           note="out dims in another order; warp (broadcast) is an identity dim")
    # identity-dim heuristic: equal sublayouts (out sizes included) map as the identity
    add_op(["iac", S([["register", [[1], [0]]], ["lane", [[2], [4]]]], [["out", 8]]),
            S([["register", [[1], [0]]], ["lane", [[4], [2]]]], [["out", 8]])],
           note="register equal on both sides (zero basis kept as identity)")
    add_op(["iac", S([["register", [[1], [0]]], ["lane", [[2], [4]]]], [["out", 8]]),
            S([["register", [[1], [0]]], ["lane", [[4], [2], [8]]]], [["out", 16]])],
           note="same register bases but outer out size 16 != 8: not an identity dim")
    add_op(["iac", S([["register", [[0]]], ["lane", [[1], [2]]]], [["out", 4]]),
            S([["lane", [[1], [2]]], ["register", [[0]]]], [["out", 4]])],
           note="in-dims in another order, both identity dims")
    add_op(["iac", S([["warp", [[0], [0]]], ["lane", [[1], [2]]]], [["out", 4]]),
            S([["lane", [[2], [1]]], ["warp", [[0], [0]]]], [["out", 4]])],
           note="broadcast warp maps as the identity")
    add_op(["iac", S([["register", [[1], [2]]]], [["out", 4]]),
            S([["register", [[1], [2]]], ["lane", [[1], [2]]]], [["out", 4]])],
           note="outer keeps a non-identity in-dim (lane), this keeps none: asserted",
           expect_error="iac: one side has no non-identity in-dims")
    # apply
    c01t = ["lit", c01, [["dim0", 32], ["dim1", 32]], True]
    for vals in ([0, 0, 0, 0], [1, 0, 0, 0], [7, 31, 3, 0], [5, 9, 2, 0], [4, 16, 1, 0]):
        add_op(["apply", c01t, list(zip(["register", "lane", "warp", "block"], vals))])
    add_op(["apply", c01t, [["lane", 3], ["block", 0], ["register", 2], ["warp", 1]]],
           note="in-dims given in another order")
    add_op(["apply", ["zeros_1d", 8, "in", "out", 4], [["in", 5]]])
    add_op(["apply", S([["in", [[1, 0], [5, 1], [2, 2]]]], [["dim0", 8], ["dim1", 4]]), [["in", 7]]])
    # equality
    add_op(["eq", I(8), S([["in", [[1], [2], [4]]]], [["out", 8]])])
    add_op(["eq", I(8), S([["in", [[1], [2], [4]]]], [["out", 16]])], note="differs only in out size")
    add_op(["eq", ["mul", I(4, "i", "o"), I(2, "i", "o")], I(8, "i", "o")])
    add_op(["eq", ["mul", I(2, "i", "o"), I(2, "j", "o")], ["mul", I(2, "j", "o"), I(2, "i", "o")]],
           note="same map, different in-dim order")
    add_op(["eq", ["zeros_1d", 4, "in", "out", None], ["zeros_1d", 4, "in", "out", 2]])
    add_op(["eq", ["invert", p], q])


# ================================================================ ops: random
SEED = 0       # gen_oracle.py --seed: added to every fixed seed below
SCALE = 1      # --scale: how many times the usual number of random cases
RANDOM_ONLY = False  # --random-only: no hand-picked cases


def N(k):
    return k * SCALE


R = random.Random(20260611)
IN_SETS = [["register", "lane", "warp", "block"], ["register", "lane", "warp"], ["register", "lane"],
           ["in"], ["i", "j"], ["offset", "block"], ["lane", "warp"]]
OUT_SETS = [["dim0"], ["dim0", "dim1"], ["dim1", "dim0"], ["dim0", "dim1", "dim2"], ["out"], ["x", "y"]]


def rand_vec(r, outs, zero_p=0.15):
    if r.random() < zero_p:
        return tuple(0 for _ in outs)
    return tuple(r.randrange(s) for _, s in outs)


def rand_outs(r, names, max_bits):
    logs = [r.randint(0, 4) for _ in names]
    while sum(logs) > max_bits:
        k = r.randrange(len(logs))
        if logs[k]:
            logs[k] -= 1
    return [(n, 1 << l) for n, l in zip(names, logs)]


def split_bits(r, total, k):
    cuts = [0] * k
    for _ in range(total):
        cuts[r.randrange(k)] += 1
    return cuts


def rand_ll(r, ins=None, outs=None, in_bits=None, kind="any"):
    """kind: any | surj | inj | bij | perm (bases are distinct powers of two / zero)."""
    ins = ins or r.choice(IN_SETS)
    if outs is None:
        outs = rand_outs(r, r.choice(OUT_SETS), 8 if kind != "inj" else 6)
    ob = sum(gf2.log2(s) for _, s in outs)
    if in_bits is None:
        if kind == "bij":
            in_bits = ob
        elif kind == "surj":
            in_bits = ob + r.randint(0, 3)
        elif kind == "inj":
            in_bits = r.randint(0, ob)
        else:
            in_bits = r.randint(1, 10)
    if kind == "surj":
        in_bits = max(in_bits, ob)
    elif kind == "bij":
        in_bits = ob
    elif kind == "inj":
        in_bits = min(in_bits, ob)
    in_bits = min(in_bits, 16)
    split = split_bits(r, in_bits, len(ins))
    for _ in range(2000):
        if kind == "perm":
            unit = []
            for k, (_, s) in enumerate(outs):
                for b in range(gf2.log2(s)):
                    v = [0] * len(outs)
                    v[k] = 1 << b
                    unit.append(tuple(v))
            r.shuffle(unit)
            pool = unit[:in_bits] + [tuple([0] * len(outs))] * max(0, in_bits - len(unit))
            r.shuffle(pool)
            it = iter(pool)
            bases = [(n, [next(it) for _ in range(c)]) for n, c in zip(ins, split)]
        else:
            bases = [(n, [rand_vec(r, outs, 0.1 if kind == "any" else 0.0) for _ in range(c)])
                     for n, c in zip(ins, split)]
        ll = LL(bases, outs)
        ok = {"any": True, "perm": True, "surj": ll.is_surjective(), "inj": ll.is_injective(),
              "bij": ll.is_invertible()}[kind]
        if ok:
            return ll
    raise RuntimeError("could not generate %s" % kind)


def try_model(t):
    try:
        model(t)
        return None
    except LLError as e:
        return str(e)


def rand_ops():
    r = R
    # printing literals + predicates
    for k in range(N(16)):
        ll = rand_ll(r, kind=["any", "surj", "inj", "bij", "perm"][k % 5])
        t = lit(ll)
        add_op(t, rnd=True)
        add_op([["is_surjective", "is_injective", "is_invertible"][k % 3], t], rnd=True)
        add_op([["is_injective", "is_invertible", "is_surjective"][k % 3], t], rnd=True)
    # inferred-size literals (surjective => ok; a few non-surjective => error)
    for k in range(N(10)):
        ll = rand_ll(r, kind="surj" if k < 8 else "any")
        t = lit(ll, sized=False)
        err = try_model(t)
        add_op(t, rnd=True, expect_error=err and "non-surjective inferred")
    # products
    for k in range(N(26)):
        ins_all = ["register", "lane", "warp", "block"]
        outs_all = ["dim0", "dim1", "dim2"]
        ai = sorted(r.sample(range(4), r.randint(1, 3)))
        bi = sorted(r.sample(range(4), r.randint(1, 3)))
        ao = sorted(r.sample(range(3), r.randint(1, 2)))
        bo = sorted(r.sample(range(3), r.randint(1, 2)))
        a = rand_ll(r, [ins_all[i] for i in ai], rand_outs(r, [outs_all[i] for i in ao], 5),
                    r.randint(1, 5), kind=r.choice(["any", "perm", "surj"]) if k % 2 else "perm")
        b = rand_ll(r, [ins_all[i] for i in bi], rand_outs(r, [outs_all[i] for i in bo], 5),
                    r.randint(1, 5), kind=r.choice(["any", "perm"]))
        add_op(["mul", lit(a), lit(b)], rnd=True)
    # compose: A: ins -> (dims), B: (dims) -> outs
    for k in range(N(26)):
        mids = r.choice([["dim0"], ["dim0", "dim1"], ["a", "b", "c"]])
        bouts = rand_outs(r, r.choice([["x"], ["x", "y"], ["dim0", "dim1"]]), 7)
        bins = [(m, r.randint(0, 3)) for m in mids]
        b = rand_ll(r, [m for m, _ in bins], bouts, None, kind="any")
        # re-split B's bits by the chosen in sizes
        bases = [(m, [rand_vec(r, bouts, 0.15) for _ in range(c)]) for m, c in bins]
        b = LL(bases, bouts)
        amids = list(mids)
        r.shuffle(amids) if k % 4 == 3 else None
        aouts = [(m, 1 << max(0, dict(bins)[m] - (1 if k % 3 == 2 and dict(bins)[m] else 0))) for m in amids]
        a = rand_ll(r, r.choice(IN_SETS[:3] + [["in"]]), aouts, r.randint(1, 7),
                    kind=r.choice(["any", "perm", "any"]))
        t = ["compose", lit(a), lit(b)]
        add_op(t, rnd=True, expect_error=try_model(t))
    # invert (invertible) and errors
    for k in range(N(18)):
        if k < 14:
            a = rand_ll(r, kind="bij" if k % 2 else "perm", in_bits=None)
            if not a.is_invertible():
                outs = a.outs
                a = rand_ll(r, outs=outs, kind="bij")
        else:
            a = rand_ll(r, kind=r.choice(["inj", "any"]))
        t = ["invert", lit(a)]
        add_op(t, rnd=True, expect_error=try_model(t) and "not invertible")
    # pseudoinvert of surjective (often non-injective)
    for k in range(N(20)):
        a = rand_ll(r, kind="surj" if k < 18 else "any")
        t = ["pseudoinvert", lit(a)]
        add_op(t, rnd=True, expect_error=try_model(t) and "pseudoinvert of non-surjective")
    # invert_and_compose: outer B (often non-injective), this A with Im(A) in Im(B)
    for k in range(N(36)):
        outs = rand_outs(r, r.choice([["dim0"], ["dim0", "dim1"], ["dim1", "dim0"], ["x", "y", "z"]]), 6)
        bkind = r.choice(["any", "surj", "perm", "surj"])
        B = rand_ll(r, r.choice(IN_SETS[:3] + [["in"], ["i", "j"]]), outs, r.randint(1, 8), kind=bkind)
        # this: maybe smaller out sizes
        aouts = [(n, s if k % 3 else max(1, s >> r.randint(0, 1))) for n, s in outs]
        if k % 5 == 4:
            aouts = aouts[::-1]
        span = set([0])
        for c in B.columns():
            span |= set(x ^ c for x in span)
        amap = dict(aouts)
        cand = []
        for f in span:
            v = []
            for n, s in B.outs:
                v.append(f % s)
                f //= s
            d = dict(zip(B.out_names, v))
            if all(d[n] < amap[n] for n in amap):
                cand.append(tuple(d[n] for n, _ in aouts))
        cand.sort()
        ains = r.choice([B.in_names, ["register", "lane"], ["in"], B.in_names[::-1]])
        if k % 6 == 5:  # share an equal in-dim with B (identity heuristic)
            ains = B.in_names
        abits = split_bits(r, r.randint(1, 7), len(ains))
        abases = []
        for n, c in zip(ains, abits):
            if k % 6 == 5 and n == B.in_names[0]:
                abases.append((n, [tuple(dict(zip(B.out_names, v))[o] for o, _ in aouts) for v in B.bases(n)]))
                if any(x >= amap[o] for v in abases[-1][1] for x, (o, _) in zip(v, aouts)):
                    abases[-1] = (n, [r.choice(cand) for _ in range(c)])
            else:
                abases.append((n, [r.choice(cand) for _ in range(c)]))
        A = LL(abases, aouts)
        if k >= 33:  # break Im(A) in Im(B)
            outside = [f for f in range(1, A.out_bits() and (1 << A.out_bits())) if False]
            full = []
            for f in range(1 << A.out_bits()):
                v, g = [], f
                for n, s in aouts:
                    v.append(g % s)
                    g //= s
                d = dict(zip([n for n, _ in aouts], v))
                flat = B.flat(tuple(d[n] for n in B.out_names))
                if not gf2.in_span(B.columns(), flat):
                    full.append(tuple(v))
            if full:
                first = A.ins[0]
                A = LL([(first[0], first[1] + [r.choice(full)])] + A.ins[1:], aouts)
        t = ["iac", lit(A), lit(B)]
        add_op(t, rnd=True, expect_error=try_model(t))
    # apply
    for k in range(N(20)):
        a = rand_ll(r, kind=r.choice(["any", "perm", "surj"]))
        vals = [[n, r.randrange(a.in_size(n))] for n in a.in_names]
        if k % 5 == 4:
            r.shuffle(vals)
        add_op(["apply", lit(a), vals], rnd=True)
    # equality
    for k in range(N(10)):
        a = rand_ll(r, kind="any")
        if k % 3 == 0:
            b = a
        elif k % 3 == 1:
            b = LL(a.ins, [(n, s * 2) for n, s in a.outs])
        else:
            b = rand_ll(r, a.in_names, a.outs, a.in_bits(), kind="any")
        add_op(["eq", lit(a), lit(b)], rnd=True)
    # product then invert/compose chains
    for k in range(N(8)):
        a = rand_ll(r, ["register"], [("dim0", 4), ("dim1", 4)], 4, kind="bij")
        b = rand_ll(r, ["lane"], [("dim0", 4), ("dim1", 2)], 3, kind="bij")
        add_op(["invert", ["mul", lit(a), lit(b)]], rnd=True)


# ================================================================ encodings
def pow2s(lo, hi):
    out, x = [], lo
    while x <= hi:
        out.append(x)
        x *= 2
    return out


def blocked(spt, tpw, wpc, order, cga=None):
    e = {"kind": "blocked", "spt": list(spt), "tpw": list(tpw), "wpc": list(wpc), "order": list(order)}
    if cga:
        e["cga"] = [list(x) for x in cga]
    return e


def mma(version, wpc, instr, cga=None):
    e = {"kind": "mma", "version": list(version), "wpc": list(wpc), "instr": list(instr)}
    if cga:
        e["cga"] = [list(x) for x in cga]
    return e


def mfma(version, instr, transposed, wpc, bits=None, tiles=None, cga=None):
    e = {"kind": "mfma", "version": version, "instr": list(instr), "transposed": transposed, "wpc": list(wpc),
         "bits": bits, "tiles": list(tiles) if tiles else None}
    if cga:
        e["cga"] = [list(x) for x in cga]
    return e


def wmma(version, transposed, wpc, instr=None, tiles=None, cga=None):
    e = {"kind": "wmma", "version": version, "transposed": transposed, "wpc": list(wpc),
         "instr": list(instr) if instr else None, "tiles": list(tiles) if tiles else None}
    if cga:
        e["cga"] = [list(x) for x in cga]
    return e


def slc(dim, parent):
    return {"kind": "slice", "dim": dim, "parent": parent}


def dot(idx, parent, k_width):
    return {"kind": "dot", "idx": idx, "parent": parent, "k_width": k_width}


def split_pow2(r, total_log, k):
    return [1 << c for c in split_bits(r, total_log, k)]


def rand_blocked(r, rank, lanes_log=5):
    spt = [r.choice([1, 1, 2, 4, 8]) for _ in range(rank)]
    tpw = split_pow2(r, lanes_log, rank)
    wpc = split_pow2(r, r.randint(0, 3), rank)
    order = list(range(rank))
    r.shuffle(order)
    return blocked(spt, tpw, wpc, order)


def rand_shape(r, rank, max_log=13):
    while True:
        s = [1 << r.randint(0, 8 if rank == 1 else 7) for _ in range(rank)]
        if sum(gf2.log2(x) for x in s) <= max_log:
            return s


def enc_cases():
    r = random.Random(424242 + SEED)
    # ---------------- blocked
    c01 = blocked((1, 4), (8, 4), (4, 1), (1, 0))
    for sh in [(32, 32), (16, 16), (64, 128), (8, 4), (1, 1), (32, 1), (1, 256), (256, 64)]:
        add_enc("blocked", c01, sh)
    c01t = blocked((1, 4), (8, 4), (4, 1), (0, 1))
    for sh in [(32, 32), (64, 16), (8, 8)]:
        add_enc("blocked", c01t, sh)
    b1 = blocked((4,), (32,), (4,), (0,))
    for sh in [(512,), (128,), (1024,), (64,), (4096,), (4,), (1,)]:
        add_enc("blocked", b1, sh)
    add_enc("blocked", blocked((1,), (32,), (1,), (0,)), (32,))
    add_enc("blocked", blocked((8,), (32,), (8,), (0,)), (256,))
    add_enc("blocked", blocked((2,), (64,), (2,), (0,)), (512,), note="64 threads per warp")
    b3 = blocked((1, 1, 4), (2, 4, 4), (2, 2, 1), (2, 1, 0))
    for sh in [(4, 16, 32), (2, 8, 16), (8, 32, 64), (1, 1, 1)]:
        add_enc("blocked", b3, sh)
    for order in [(0, 1, 2), (1, 2, 0), (0, 2, 1)]:
        add_enc("blocked", blocked((2, 1, 2), (4, 2, 4), (1, 2, 2), order), (8, 8, 16))
    add_enc("blocked", blocked((1, 8), (4, 8), (8, 1), (1, 0)), (128, 64))
    add_enc("blocked", blocked((2, 2), (4, 8), (2, 2), (1, 0)), (64, 64))
    add_enc("blocked", blocked((2, 2), (4, 8), (2, 2), (0, 1)), (64, 64))
    add_enc("blocked", blocked((4, 4), (8, 8), (1, 4), (1, 0)), (32, 128), note="64 threads per warp")
    add_enc("blocked", blocked((1, 1), (1, 32), (4, 1), (0, 1)), (4, 32))
    add_enc("blocked", blocked((1, 1), (32, 1), (1, 4), (1, 0)), (16, 2), note="tensor smaller than the tile (broadcast)")
    add_enc("blocked", blocked((1, 1, 1, 4), (1, 2, 4, 4), (1, 1, 2, 2), (3, 2, 1, 0)), (2, 4, 8, 16), note="rank 4")
    for k in range(N(50)):
        rank = [1, 2, 2, 2, 3, 3][k % 6]
        add_enc("blocked", rand_blocked(r, rank), rand_shape(r, rank), rnd=True)

    # ---------------- slice
    for dim, sh in [(1, (32,)), (0, (32,)), (1, (128,)), (0, (8,)), (1, (1,))]:
        add_enc("slice", slc(dim, c01), sh)
    for dim, sh in [(0, (16, 32)), (1, (4, 32)), (2, (4, 16)), (2, (1, 1))]:
        add_enc("slice", slc(dim, b3), sh)
    add_enc("slice", slc(0, slc(0, b3)), (32,), note="slice of slice")
    add_enc("slice", slc(1, slc(2, b3)), (8,), note="slice of slice")
    m2 = mma((2, 0), (2, 2), (16, 8))
    m3 = mma((3, 0), (4, 1), (16, 64, 16))
    for dim, sh in [(0, (16,)), (1, (16,)), (1, (8,)), (0, (64,)), (1, (128,))]:
        add_enc("slice", slc(dim, m2), sh)
    for dim, sh in [(0, (64,)), (1, (64,)), (1, (128,)), (0, (16,))]:
        add_enc("slice", slc(dim, m3), sh)
    add_enc("slice", slc(1, mfma(3, (32, 32, 8), False, (2, 2))), (64,))
    add_enc("slice", slc(0, mfma(3, (32, 32, 8), True, (2, 2))), (64,))
    add_enc("slice", slc(1, wmma(2, False, (2, 2))), (32,))
    add_enc("slice", slc(1, dot(0, m2, 2)), (32,), note="slice of a dot operand")
    for k in range(N(14)):
        rank = [2, 3][k % 2]
        p = rand_blocked(r, rank)
        sh = rand_shape(r, rank, 12)
        d = r.randrange(rank)
        add_enc("slice", slc(d, p), sh[:d] + sh[d + 1:], rnd=True)

    # ---------------- dot operand of blocked (FMA)
    for idx in (0, 1):
        for sh in [(32, 32), (64, 16), (16, 64), (128, 128), (8, 8)]:
            add_enc("dot_blocked", dot(idx, c01, 0), sh)
        add_enc("dot_blocked", dot(idx, blocked((2, 2), (4, 8), (2, 2), (0, 1)), 0), (64, 64))
        add_enc("dot_blocked", dot(idx, b3, 0), (2, 32, 32))
        add_enc("dot_blocked", dot(idx, blocked((1, 1, 1), (1, 4, 8), (2, 2, 1), (2, 1, 0)), 0), (4, 16, 16))
    add_enc("dot_blocked", dot(0, c01, 2), (32, 32), note="k_width 2 with a blocked parent")
    add_enc("dot_blocked", dot(1, c01, 1), (32, 32), note="k_width 1 with a blocked parent")
    for k in range(N(14)):
        p = rand_blocked(r, 2)
        add_enc("dot_blocked", dot(k % 2, p, 0), rand_shape(r, 2, 12), rnd=True)

    # ---------------- NVIDIA MMA v2 / v3 + dot operands
    for wpc in [(1, 1), (2, 2), (4, 1), (1, 4), (2, 4), (8, 1)]:
        for sh in [(16, 8), (32, 32), (64, 64), (128, 256)]:
            add_enc("mma", mma((2, 0), wpc, (16, 8)), sh)
    add_enc("mma", m2, (8, 8), note="tensor smaller than the instruction tile")
    add_enc("mma", m2, (16, 4))
    add_enc("mma", mma((2, 0), (2, 2, 1), (1, 16, 8)), (2, 32, 32), note="batched rank 3")
    add_enc("mma", mma((2, 0), (1, 2, 2), (1, 16, 8)), (4, 32, 16), note="batched rank 3")
    for n in (8, 16, 32, 64, 128, 256):
        add_enc("mma", mma((3, 0), (4, 1), (16, n, 16)), (64, max(n, 64)))
    for wpc, sh in [((4, 2), (128, 128)), ((8, 1), (128, 64)), ((4, 4), (256, 256)), ((4, 1), (128, 128)),
                    ((4, 1), (32, 64)), ((8, 2), (256, 128))]:
        add_enc("mma", mma((3, 0), wpc, (16, 64, 16)), sh)
    add_enc("mma", mma((3, 0), (4, 1), (16, 256, 16)), (128, 512))
    for kw in (1, 2, 4, 8):
        for idx in (0, 1):
            for sh in ([(16, 16), (64, 64), (32, 128)] if idx == 0 else [(16, 8), (64, 64), (128, 32)]):
                add_enc("mma", dot(idx, mma((2, 0), (2, 2), (16, 8)), kw), sh)
    add_enc("mma", dot(0, mma((2, 0), (4, 1), (16, 8)), 2), (64, 32))
    add_enc("mma", dot(1, mma((2, 0), (1, 4), (16, 8)), 2), (32, 64))
    add_enc("mma", dot(0, mma((2, 0), (2, 2, 1), (1, 16, 8)), 2), (2, 32, 32), note="batched rank 3")
    for kw in (1, 2, 4, 8):
        for sh in [(64, 32), (128, 64)]:
            add_enc("mma", dot(0, mma((3, 0), (4, 1), (16, 64, 16)), kw), sh)
    add_enc("mma", dot(0, mma((3, 0), (4, 2), (16, 128, 16)), 2), (128, 64))
    add_enc("mma", dot(1, mma((3, 0), (4, 1), (16, 64, 16)), 2), (64, 64),
            note="Hopper B operand comes from shared memory")

    # ---------------- AMD MFMA
    for ver in (2, 3, 4):
        for sh in [(32, 32), (64, 64), (128, 128)]:
            add_enc("mfma", mfma(ver, (32, 32, 8), False, (2, 2)), sh)
    for sh in [(16, 16), (64, 64), (128, 32)]:
        add_enc("mfma", mfma(3, (16, 16, 16), False, (2, 2)), sh)
    for sh in [(64, 64), (128, 128), (32, 32)]:
        add_enc("mfma", mfma(3, (32, 32, 8), True, (2, 2)), sh)
        add_enc("mfma", mfma(3, (16, 16, 16), True, (2, 2)), sh)
    add_enc("mfma", mfma(3, (32, 32, 8), True, (2, 4)), (128, 128), note="reference pitfall 2")
    add_enc("mfma", mfma(3, (32, 32, 8), False, (2, 4)), (128, 128))
    add_enc("mfma", mfma(3, (32, 32, 8), False, (4, 1)), (128, 64))
    add_enc("mfma", mfma(3, (32, 32, 8), False, (1, 4)), (32, 256))
    add_enc("mfma", mfma(3, (32, 32, 8), False, (2, 2)), (16, 16), note="smaller than the tile")
    for tiles in [(2, 2), (1, 2), (2, 1)]:
        add_enc("mfma", mfma(4, (32, 32, 16), False, (2, 2), tiles=tiles), (128, 128))
        add_enc("mfma", mfma(4, (16, 16, 32), True, (2, 2), tiles=tiles), (64, 64))
    add_enc("mfma", mfma(3, (16, 16, 4), False, (2, 2), bits=64), (32, 32), note="64-bit elements")
    add_enc("mfma", mfma(3, (16, 16, 4), True, (2, 2), bits=64), (64, 64), note="64-bit elements")
    add_enc("mfma", mfma(3, (32, 32, 8), False, (2, 2), bits=32), (64, 64), note="explicit default bitwidth")
    add_enc("mfma", mfma(3, (32, 32, 8), False, (2, 2), bits=16), (64, 64), note="16-bit elements")
    add_enc("mfma", mfma(3, (64, 4, 4), True, (1, 1)), (64, 4))
    add_enc("mfma", mfma(3, (4, 64, 4), False, (1, 1)), (4, 64))
    add_enc("mfma", mfma(3, (64, 4, 4), False, (1, 1)), (64, 4), note="64x4 must be transposed")
    add_enc("mfma", mfma(3, (32, 32, 8), False, (2, 2, 1)), (2, 64, 64), note="batched rank 3")
    for idx in (0, 1):
        for kw in (4, 8):
            for sh in ([(32, 16), (64, 64), (128, 32)] if idx == 0 else [(16, 32), (64, 64), (32, 128)]):
                add_enc("mfma", dot(idx, mfma(3, (32, 32, 8), False, (2, 2)), kw), sh)
        for kw in (4, 8):
            add_enc("mfma", dot(idx, mfma(3, (16, 16, 16), False, (2, 2)), kw), (64, 64))
        add_enc("mfma", dot(idx, mfma(3, (32, 32, 8), True, (2, 2)), 4), (64, 64), note="transposed parent")
        add_enc("mfma", dot(idx, mfma(4, (32, 32, 16), False, (2, 2), tiles=(2, 2)), 8), (128, 128))
        add_enc("mfma", dot(idx, mfma(3, (16, 16, 4), False, (2, 2), bits=64), 1), (32, 32), note="64-bit elements")
        add_enc("mfma", dot(idx, mfma(4, (16, 16, 32), False, (4, 1)), 16), (64, 128))

    # ---------------- AMD WMMA
    for ver in (1, 2):
        for tr in (False, True):
            for sh in [(16, 16), (64, 64), (32, 128)]:
                add_enc("wmma", wmma(ver, tr, (2, 2)), sh)
    add_enc("wmma", wmma(1, False, (4, 1)), (128, 32))
    add_enc("wmma", wmma(2, False, (1, 4)), (32, 128))
    add_enc("wmma", wmma(3, False, (2, 2), instr=(16, 16, 32)), (64, 64))
    add_enc("wmma", wmma(3, True, (2, 2), instr=(16, 16, 32)), (64, 64))
    add_enc("wmma", wmma(3, False, (2, 2)), (64, 64), note="default instr_shape")
    add_enc("wmma", wmma(2, False, (2, 2), instr=(16, 16, 16)), (64, 64), note="explicit default instr_shape")
    add_enc("wmma", wmma(2, False, (2, 2)), (8, 8), note="smaller than the tile")
    add_enc("wmma", wmma(2, False, (2, 2, 1)), (2, 32, 32), note="batched rank 3")
    for ver, kws in [(1, (16, 8)), (2, (8, 4)), (3, (8, 16))]:
        for idx in (0, 1):
            for kw in kws:
                par = wmma(ver, False, (2, 2), instr=(16, 16, 32) if ver == 3 else None)
                add_enc("wmma", dot(idx, par, kw), (64, 64))
            add_enc("wmma", dot(idx, wmma(ver, False, (2, 2), instr=(16, 16, 32) if ver == 3 else None), kws[0]),
                    (32, 16) if idx == 0 else (16, 32))

    # ---------------- CGA
    cgas = [((2, 2), (2, 1), (1, 0)), ((2, 2), (2, 2), (1, 0)), ((2, 2), (1, 2), (0, 1)), ((1, 2), (1, 2), (1, 0)),
            ((4, 1), (4, 1), (1, 0)), ((2, 1), (1, 1), (1, 0)), ((4, 2), (2, 2), (0, 1))]
    for cga in cgas:
        for sh in [(64, 64), (16, 16)]:
            add_enc("cga", blocked((1, 4), (8, 4), (4, 1), (1, 0), cga=cga), sh)
    for cga in [((4,), (2,), (0,)), ((4,), (4,), (0,)), ((2,), (2,), (0,))]:
        add_enc("cga", blocked((4,), (32,), (4,), (0,), cga=cga), (2048,))
        add_enc("cga", blocked((4,), (32,), (4,), (0,), cga=cga), (64,))
    add_enc("cga", blocked((1, 1, 4), (2, 4, 4), (2, 2, 1), (2, 1, 0), cga=((2, 1, 2), (2, 1, 1), (2, 1, 0))),
            (8, 16, 64))
    for cga in cgas[:4]:
        add_enc("cga", mma((2, 0), (2, 2), (16, 8), cga=cga), (128, 128))
        add_enc("cga", mma((3, 0), (4, 1), (16, 64, 16), cga=cga), (256, 256))
    add_enc("cga", mma((3, 0), (4, 1), (16, 64, 16), cga=cgas[0]), (64, 64), note="smaller than the CGA tile")
    add_enc("cga", dot(0, mma((2, 0), (2, 2), (16, 8), cga=cgas[0]), 2), (128, 64))
    add_enc("cga", dot(1, mma((2, 0), (2, 2), (16, 8), cga=cgas[1]), 2), (64, 128))
    add_enc("cga", slc(0, blocked((1, 4), (8, 4), (4, 1), (1, 0), cga=cgas[0])), (64,))
    add_enc("cga", slc(1, blocked((1, 4), (8, 4), (4, 1), (1, 0), cga=cgas[0])), (64,))
    add_enc("cga", mfma(3, (32, 32, 8), False, (2, 2), cga=cgas[0]), (128, 128))
    add_enc("cga", wmma(2, False, (2, 2), cga=cgas[0]), (64, 64))

    # ---------------- random MMA / MFMA / WMMA / CGA
    r2 = random.Random(777 + SEED)
    for k in range(N(24)):
        if k % 2 == 0:
            e = mma((2, 0), split_pow2(r2, r2.randint(0, 3), 2), (16, 8))
            sh = [1 << r2.randint(3, 8), 1 << r2.randint(3, 8)]
        else:
            n = r2.choice([8, 16, 32, 64, 128, 256])
            e = mma((3, 0), [4 << r2.randint(0, 1), 1 << r2.randint(0, 1)], (16, n, 16))
            sh = [1 << r2.randint(4, 8), 1 << r2.randint(3, 8)]
        if k % 3 == 2:
            kw = r2.choice([1, 2, 4])
            idx = 0 if e["version"][0] == 3 else r2.randint(0, 1)
            add_enc("mma", dot(idx, e, kw), sh, rnd=True)
        else:
            add_enc("mma", e, sh, rnd=True)
    for k in range(N(24)):
        ver = r2.choice([2, 3, 4])
        instr = r2.choice([(32, 32, 8), (16, 16, 16)] + ([(32, 32, 16), (16, 16, 32)] if ver == 4 else []))
        tiles = r2.choice([None, (1, 1), (2, 1), (1, 2), (2, 2)])
        e = mfma(ver, instr, r2.random() < 0.5, split_pow2(r2, r2.randint(0, 3), 2), tiles=tiles)
        sh = [1 << r2.randint(4, 8), 1 << r2.randint(4, 8)]
        if k % 3 == 2:
            add_enc("mfma", dot(r2.randint(0, 1), e, r2.choice([4, 8])), sh, rnd=True)
        else:
            add_enc("mfma", e, sh, rnd=True)
    for k in range(N(12)):
        ver = r2.choice([1, 2])
        e = wmma(ver, r2.random() < 0.5, split_pow2(r2, r2.randint(0, 3), 2))
        sh = [1 << r2.randint(4, 7), 1 << r2.randint(4, 7)]
        if k % 3 == 2:
            add_enc("wmma", dot(r2.randint(0, 1), e, 16 if ver == 1 else 8), sh, rnd=True)
        else:
            add_enc("wmma", e, sh, rnd=True)
    for k in range(N(14)):
        cpc = split_pow2(r2, r2.randint(1, 3), 2)
        split = [1 << r2.randint(0, gf2.log2(c)) for c in cpc]
        corder = r2.choice([(1, 0), (0, 1)])
        p = rand_blocked(r2, 2)
        p["cga"] = [list(cpc), split, list(corder)]
        add_enc("cga", p, rand_shape(r2, 2, 14), rnd=True)


def build():
    CASES.clear()
    R.seed(20260611 + SEED)
    hand_ops()
    rand_ops()
    enc_cases()
    if RANDOM_ONLY:
        CASES[:] = [c for c in CASES if c.get("rnd")]
    return CASES
