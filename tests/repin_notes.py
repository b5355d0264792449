#!/usr/bin/env python3
"""Re-pins the stdlib line numbers in the expected notes of bad-input cases.

The expected output of a case in tests/errors/*.txt may end with a note
pointing into the stdlib ("stdlib/cute.lyt:126:5: note: raised here, inside
make_tiled_mma()"). Editing a stdlib file above that line moves it. This
rewrites such a case only when its output, stdlib positions aside, is still
exactly what it expects; every other difference is left for the runner to
report.

usage: python3 tests/repin_notes.py [--lyt build/lyt] tests/errors/FILE.txt ...
"""
import argparse
import os
import re
import subprocess
import tempfile

POS = re.compile(r"stdlib/\w+\.lyt:\d+:\d+")


def repin(path, lyt):
    parts = re.split(r"(?m)^(=== .*\n)", open(path).read())
    out, changed = [parts[0]], 0
    for head, body in zip(parts[1::2], parts[2::2]):
        if "stdlib/" in body and "\n---\n" in body:
            src, want = body.split("\n---\n", 1)
            with tempfile.TemporaryDirectory() as d:
                open(os.path.join(d, "input"), "w").write(src + "\n")
                r = subprocess.run([lyt, "input"], cwd=d, capture_output=True, text=True)
            got = r.stdout + r.stderr
            if POS.sub("X", got).strip() == POS.sub("X", want).strip() and got.strip() != want.strip():
                want = got.rstrip("\n") + want[len(want.rstrip("\n")):]
                changed += 1
            body = src + "\n---\n" + want
        out += [head, body]
    open(path, "w").write("".join(out))
    print("%s: %d cases re-pinned" % (path, changed))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lyt", default="build/lyt")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    for f in a.files:
        repin(f, os.path.abspath(a.lyt))


if __name__ == "__main__":
    main()
