#!/usr/bin/env python3
"""tests/ll/ttgir.txt from tests/data/ttgir/encodings.jsonl: every encoding
alias of the real Triton 3.6 dumps, read by from_triton exactly as the dump
writes it (the alias definitions it refers to first), at each shape the
dump uses it with, against Triton's own toLinearLayout of it.

usage: python3 tests/gen/triton/ttgir_cases.py > tests/ll/ttgir.txt
"""
import sys
sys.dont_write_bytecode = True
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lyt_render import layout_text  # noqa: E402

DATA = os.path.join(HERE, "..", "..", "data", "ttgir")
ALIAS = re.compile(r"^(#[\w.]+) = (#\w+\.\w+(?:<.*>)?)\s*$")


def definitions(kernel):
    defs = {}
    for line in open(os.path.join(DATA, kernel + ".ttgir")):
        m = ALIAS.match(line.rstrip("\n"))
        if m:
            defs[m.group(1)] = m.group(2)
    return defs


def needed(text, defs, out):
    """The alias definitions text refers to, those they refer to first."""
    for ref in re.findall(r"#\w+(?![\w.])", text):
        if ref in defs and ref not in out:
            needed(defs[ref], defs, out)
            out[ref] = defs[ref]
    return out


TYPE = re.compile(r"(?:tensor|!ttg\.memdesc)<")


def types(kernel):
    """Every distinct tensor and memdesc type the dump writes, whole."""
    text = open(os.path.join(DATA, kernel + ".ttgir")).read()
    out = []
    for m in TYPE.finditer(text):
        depth, i = 0, m.start()
        while True:
            depth += text[i] == "<"
            depth -= text[i] == ">"
            i += 1
            if depth == 0 and text[i - 1] == ">":
                break
        t = text[m.start():i]
        if t not in out:
            out.append(t)
    return out


def lyt_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def main():
    rows = [json.loads(l) for l in open(os.path.join(DATA, "encodings.jsonl"))]
    cases = [r for r in rows if "bases" in r]
    oracle = {(r["kernel"], r["text"], tuple(r["shape"])): r for r in cases}
    kernels = sorted({r["kernel"] for r in rows})
    print("# Encodings and types of real Triton 3.6 dumps (tests/data/ttgir)")
    print("#! import \"triton.lyt\"")
    print("# computed by Triton 3.6.0 (toLinearLayout through gluon) on an NVIDIA H200,")
    print("# tests/gen/triton/dump_kernels.py; written by tests/gen/triton/ttgir_cases.py.")
    print("# An encoding read as the dump writes it (an alias, or inline in a type:")
    print("# #inline<k>), at each shape the dump uses it with, and each tensor type,")
    print("# equal Triton's layout; every other type of the dumps (memdesc types of")
    print("# shared encodings) is read, with its shape.")
    seen = set()
    for r in cases:
        defs = definitions(r["kernel"])
        pre = needed(r["text"], defs, {})
        text = "".join("%s = %s\n" % kv for kv in pre.items()) + r["text"]
        shape = "(%s%s)" % (",".join(str(d) for d in r["shape"]), "," if len(r["shape"]) == 1 else "")
        if (text, shape) in seen:
            continue
        seen.add((text, shape))
        print("# %s %s" % (r["kernel"], r["alias"]))
        print('to_linear(from_triton("%s"), %s) => %s' % (lyt_string(text), shape, expected(r)))
    for k in kernels:
        defs = definitions(k)
        for t in types(k):
            pre = needed(t, defs, {})
            text = "".join("%s = %s\n" % kv for kv in pre.items()) + t
            m = re.match(r"(?:tensor|!ttg\.memdesc)<((?:\d+x)*)", t)
            dims = tuple(int(d) for d in m.group(1).split("x") if d)
            enc = t[t.index(", ") + 2:-1] if t.startswith("tensor") and ", " in t else None
            hit = oracle.get((k, defs.get(enc, enc), dims)) if enc else None
            if hit:
                print('to_linear(from_triton("%s")) => %s' % (lyt_string(text), expected(hit)))
            else:
                print('from_triton("%s").shape => (%s)' % (lyt_string(text), ",".join(map(str, dims))))


def expected(r):
    ins = [(n, r["bases"][n]) for n in ("register", "lane", "warp", "block")]
    outs = [("dim%d" % i, s) for i, s in enumerate(r["out_shape"])]
    return layout_text(ins, outs)


main()
