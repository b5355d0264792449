"""Rendering of operation trees and encoding specs to lyt syntax, and of
results to lyt's print format (tests/gen/triton/README.md)."""


def vec(v):
    return "[" + ",".join(str(int(c)) for c in v) + "]"


def vecs(vs):
    return "[" + ",".join(vec(v) for v in vs) + "]"


def layout_text(ins, outs, sized=True):
    """ins: [(name, [vec...])], outs: [(name, size)] or [name] when not sized."""
    left = "{" + ", ".join("%s: %s" % (n, vecs(vs)) for n, vs in ins) + "}"
    if sized:
        right = "{" + ", ".join("%s: %d" % (n, s) for n, s in outs) + "}"
    else:
        right = "{" + ", ".join(n for n, _ in outs) + "}"
    return left + " -> " + right


def record(pairs):
    return "{" + ", ".join("%s: %d" % (n, v) for n, v in pairs) + "}"


def boolean(b):
    return "true" if b else "false"


def qs(s):
    return '"%s"' % s


# ------------------------------------------------------------ op trees
# ["lit", ins, outs, sized] ["identity_1d", n, i, o] ["zeros_1d", n, i, o, outsize|None]
# ["strided_1d", n, stride, i, o] ["mul", A, B] ["eq", A, B] ["compose", A, B]
# ["iac", A, B] ["invert", A] ["pseudoinvert", A] ["apply", A, [[name, v]...]]
# ["is_surjective", A] ["is_injective", A] ["is_invertible", A]
FUNC = {"compose": "compose", "iac": "invert_and_compose", "invert": "invert",
        "pseudoinvert": "pseudoinvert", "is_surjective": "is_surjective",
        "is_injective": "is_injective", "is_invertible": "is_invertible"}


def render(t, ctx="top"):
    k = t[0]
    if k == "lit":
        s = layout_text(t[1], t[2], t[3])
        return "(" + s + ")" if ctx == "bin" else s
    if k == "identity_1d":
        return "identity_1d(%d, %s, %s)" % (t[1], qs(t[2]), qs(t[3]))
    if k == "zeros_1d":
        if t[4] is None:
            return "zeros_1d(%d, %s, %s)" % (t[1], qs(t[2]), qs(t[3]))
        return "zeros_1d(%d, %s, %s, %d)" % (t[1], qs(t[2]), qs(t[3]), t[4])
    if k == "strided_1d":
        return "strided_1d(%d, %d, %s, %s)" % (t[1], t[2], qs(t[3]), qs(t[4]))
    if k in ("mul", "eq"):
        s = "%s %s %s" % (render(t[1], "bin"), "*" if k == "mul" else "==", render(t[2], "bin"))
        return "(" + s + ")" if ctx == "bin" else s
    if k == "apply":
        return "apply(%s, %s)" % (render(t[1], "arg"), record(t[2]))
    return "%s(%s)" % (FUNC[k], ", ".join(render(a, "arg") for a in t[1:]))


# ------------------------------------------------------------ encodings
def tup(t):
    t = list(t)
    if len(t) == 1:
        return "(%d,)" % t[0]
    return "(" + ",".join(str(int(x)) for x in t) + ")"


def _cga_kw(e):
    c = e.get("cga")
    if not c:
        return []
    return [("ctas_per_cga", tup(c[0])), ("cta_split_num", tup(c[1])), ("cta_order", tup(c[2]))]


def enc_text(e):
    k = e["kind"]
    if k == "blocked":
        kw = [("size_per_thread", tup(e["spt"])), ("threads_per_warp", tup(e["tpw"])),
              ("warps_per_cta", tup(e["wpc"])), ("order", tup(e["order"]))] + _cga_kw(e)
        name = "blocked"
    elif k == "slice":
        kw = [("dim", str(e["dim"])), ("parent", enc_text(e["parent"]))]
        name = "slice_layout"
    elif k == "dot":
        kw = [("operand_index", str(e["idx"])), ("parent", enc_text(e["parent"])),
              ("k_width", str(e["k_width"]))]
        name = "dot_operand"
    elif k == "mma":
        kw = [("version", tup(e["version"])), ("warps_per_cta", tup(e["wpc"])),
              ("instr_shape", tup(e["instr"]))] + _cga_kw(e)
        name = "nvidia_mma"
    elif k == "mfma":
        kw = [("version", str(e["version"])), ("instr_shape", tup(e["instr"])),
              ("transposed", boolean(e["transposed"])), ("warps_per_cta", tup(e["wpc"]))]
        if e.get("bits") is not None:
            kw.append(("element_bitwidth", str(e["bits"])))
        if e.get("tiles") is not None:
            kw.append(("tiles_per_warp", tup(e["tiles"])))
        kw += _cga_kw(e)
        name = "amd_mfma"
    elif k == "wmma":
        kw = [("version", str(e["version"])), ("transposed", boolean(e["transposed"])),
              ("warps_per_cta", tup(e["wpc"]))]
        if e.get("instr") is not None:
            kw.append(("instr_shape", tup(e["instr"])))
        if e.get("tiles") is not None:
            kw.append(("tiles_per_warp", tup(e["tiles"])))
        kw += _cga_kw(e)
        name = "amd_wmma"
    else:
        raise ValueError(k)
    return "%s(%s)" % (name, ", ".join("%s=%s" % p for p in kw))


def to_linear_text(e, shape):
    return "to_linear(%s, %s)" % (enc_text(e), tup(shape))
