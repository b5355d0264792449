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
ALIAS = re.compile(r"^(#[\w.]+) = (#\w+\.\w+<.*>)\s*$")


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


def main():
    rows = [json.loads(l) for l in open(os.path.join(DATA, "encodings.jsonl"))]
    cases = [r for r in rows if "bases" in r]
    print("# Encodings of real Triton 3.6 dumps (tests/data/ttgir) -> LinearLayout")
    print("#! import \"triton.lyt\"")
    print("# computed by Triton 3.6.0 (toLinearLayout through gluon) on an NVIDIA H200,")
    print("# tests/gen/triton/dump_kernels.py; written by tests/gen/triton/ttgir_cases.py")
    print("# format: <lyt expression> => <expected printed value>; %d cases" % len(cases))
    seen = set()
    for r in cases:
        defs = definitions(r["kernel"])
        pre = needed(r["text"], defs, {})
        text = "".join("%s = %s\\n" % kv for kv in pre.items()) + r["text"]
        shape = "(%s%s)" % (",".join(str(d) for d in r["shape"]), "," if len(r["shape"]) == 1 else "")
        key = (text, shape)
        if key in seen:
            continue
        seen.add(key)
        ins = [(n, r["bases"][n]) for n in ("register", "lane", "warp", "block")]
        outs = [("dim%d" % i, s) for i, s in enumerate(r["out_shape"])]
        quoted = text.replace('"', '\\"')
        print("# %s %s" % (r["kernel"], r["alias"]))
        print('to_linear(from_triton("%s"), %s) => %s' % (quoted, shape, layout_text(ins, outs)))


main()
