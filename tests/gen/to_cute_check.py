#!/usr/bin/env python3
"""to_cute's C++, compiled against the CuTe headers and printed by CuTe.

For each sample layout, lyt writes both C++ forms (to_cute(L): the
make_layout expression; to_cute(L, static=true): the Layout<...> type).
g++ compiles them against CUTLASS's include/cute (host only) and runs
cute::print on each. The printed text is read back with from_cute and
must equal the sample: tests/ll/to_cute.txt, in the `expr => expected`
format of the other tests/ll files, where the expected value is the
sample as written here, not anything lyt computed.

usage: python3 tests/gen/to_cute_check.py --cutlass DIR --cuda-include DIR [--lyt build/lyt]
(see tests/gen/README.md for the CUTLASS commit)
"""
import argparse
import os
import subprocess
import sys
import tempfile

SAMPLES = [
    "8:1", "(2,4):(1,2)", "(2,4):(4,1)", "(4,2):(1,4)", "(8,64):(64,1)",
    "((2,2),3):((1,6),2)", "(2,(2,3)):(6,(3,1))", "((4,8),(2,2)):((16,1),(8,64))",
    "(4,(2,4)):(2,(1,8))", "(16,16):(0,1)", "(3,5):(5,1)", "(2,3,4):(12,4,1)",
    "(128,64):(1,128)", "((2,4),(2,8)):((1,32),(8,64))", "(8,8):(-1,8)",
    "composition(swizzle(3,4,3), (8,64):(64,1))", "composition(swizzle(2,0,3), 8:1)",
    "composition(swizzle(3,3,3), (8,64):(64,1))", "make_composed_layout(swizzle(3,4,3), 32, (8,64):(64,1))",
    "composition(swizzle(1,2,3), ((2,4),(8,2)):((1,16),(2,64)))",
]


def lyt_lines(lyt, exprs):
    src = "\n".join("print to_cute(%s)\nprint to_cute(%s, static=true)" % (e, e) for e in exprs)
    out = subprocess.run([lyt, "-e", src], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert len(lines) == 2 * len(exprs), out
    return [(lines[2 * i], lines[2 * i + 1]) for i in range(len(exprs))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutlass", required=True)
    ap.add_argument("--cuda-include", required=True)
    ap.add_argument("--lyt", default="build/lyt")
    ap.add_argument("--commit", default="7107b05535f8977f5ecb9d01ee203205b1fd9bc4")
    a = ap.parse_args()
    forms = lyt_lines(a.lyt, SAMPLES)
    cpp = ["#include <cute/layout.hpp>", "#include <cute/swizzle.hpp>",
           "#include <cute/swizzle_layout.hpp>", "#include <cute/layout_composed.hpp>",
           "#include <cute/util/print.hpp>", "#include <cstdio>", "using namespace cute;",
           "int main() {"]
    for dyn, stat in forms:
        cpp.append('  { auto L = %s; print(L); printf("\\n"); }' % dyn)
        cpp.append('  { print(%s{}); printf("\\n"); }' % stat)
    cpp.append("  return 0;\n}")
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "t.cpp"), "w") as f:
            f.write("\n".join(cpp) + "\n")
        subprocess.run(["g++", "-std=c++17", "-O0", "-w", "-I" + os.path.join(a.cutlass, "include"),
                        "-I" + a.cuda_include, "-I" + os.path.join(a.cuda_include, "cccl"), os.path.join(d, "t.cpp"), "-o", os.path.join(d, "t")],
                       check=True)
        printed = subprocess.run([os.path.join(d, "t")], capture_output=True, text=True,
                                 check=True).stdout.splitlines()
    gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    out = ["# to_cute's C++ compiled against CuTe and printed by cute::print, read back",
           "# by from_cute; the expected value is the sample layout itself.",
           "# CUTLASS %s, include/cute, host only, %s -std=c++17;" % (a.commit, gxx),
           "# written by tests/gen/to_cute_check.py. The C++ each line compiled:"]
    body = []
    for i, e in enumerate(SAMPLES):
        dyn, stat = forms[i]
        out.append("#   %s  |  %s" % (dyn, stat))
        for p in printed[2 * i: 2 * i + 2]:
            body.append('from_cute("%s") == %s => true' % (p, e))
    path = os.path.join(os.path.dirname(__file__), "..", "ll", "to_cute.txt")
    with open(path, "w") as f:
        f.write("\n".join(out + body) + "\n")
    print("wrote", path, len(body), "cases")


if __name__ == "__main__":
    main()
