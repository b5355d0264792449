"""Compile-and-run harness: evaluates C++ expressions with CuTe (static ints).

Every case becomes one function on one line of a generated translation unit.
Cases whose instantiation fails to compile (CuTe static_assert) are detected
from the g++ diagnostics (`tu.cpp:LINE`), recorded as compile errors, removed,
and the TU is recompiled.  Nothing from CUTLASS is copied: the headers are
only included from the checkout given with --cutlass.
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HEADER = """#include <cute/layout.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/util/print.hpp>
#include <cstdio>
using namespace cute;
"""
NHEAD = HEADER.count("\n")


def _write_tu(path, cases):
    lines = HEADER.rstrip("\n").split("\n")
    linemap = {}
    for cid, expr in cases:
        linemap[len(lines) + 1] = cid
        lines.append('void c%d(){ printf("@%d\\t"); print(%s); printf("\\n"); fflush(stdout); }'
                     % (cid, cid, expr))
    lines.append("int main(){")
    for cid, _ in cases:
        lines.append("  c%d();" % cid)
    lines.append("  return 0; }")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return linemap


def _compile_run(workdir, name, cases, incs, log):
    """Returns (outputs {cid: text}, errors {cid: first error message})."""
    cases = list(cases)
    errors = {}
    outputs = {}
    for attempt in range(20):
        if not cases:
            break
        src = os.path.join(workdir, name + ".cpp")
        exe = os.path.join(workdir, name)
        linemap = _write_tu(src, cases)
        cmd = ["g++", "-std=c++17", "-O0", "-w"] + ["-I" + i for i in incs] + [src, "-o", exe]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            bad = {}
            for m in re.finditer(re.escape(src) + r":(\d+):\d+:", p.stderr):
                ln = int(m.group(1))
                if ln in linemap:
                    bad.setdefault(linemap[ln], None)
            if not bad:
                log.write(p.stderr[:4000])
                raise RuntimeError("compile failed without attributable case in " + name)
            for cid in bad:
                ln = [l for l, c in linemap.items() if c == cid][0]
                pos = p.stderr.find("%s:%d:" % (src, ln))
                m = re.compile(r"error: ([^\n]*)").search(p.stderr, pos)
                errors[cid] = m.group(1) if m else "?"
            # per-case messages: collect static assertion texts following the case's line
            cases = [(c, e) for c, e in cases if c not in bad]
            log.write("%s: %d cases failed to compile: %s\n" % (name, len(bad), sorted(bad))); log.flush()
            continue
        r = subprocess.run([exe], capture_output=True, text=True)
        done = set()
        for line in r.stdout.splitlines():
            if line.startswith("@") and "\t" in line:
                cid, txt = line[1:].split("\t", 1)
                outputs[int(cid)] = txt
                done.add(int(cid))
        if r.returncode != 0:
            # crashed in the first case without a newline-terminated output
            rest = [c for c, _ in cases if c not in done]
            crashed = rest[0]
            errors[crashed] = "runtime failure rc=%d" % r.returncode
            outputs.pop(crashed, None)
            cases = [(c, e) for c, e in cases if c not in done and c != crashed]
            log.write("%s: case %d crashed at run time\n" % (name, crashed))
            continue
        break
    return outputs, errors


def run_all(cases, incs, workdir, per_tu=150, jobs=2, log=sys.stderr):
    """cases: list of (cid, cpp_expr). Returns (outputs, errors)."""
    os.makedirs(workdir, exist_ok=True)
    chunks = [cases[i:i + per_tu] for i in range(0, len(cases), per_tu)]
    outputs, errors = {}, {}
    with ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(_compile_run, workdir, "tu%03d" % k, ch, incs, log)
                for k, ch in enumerate(chunks)]
        for f in futs:
            o, e = f.result()
            outputs.update(o)
            errors.update(e)
    return outputs, errors
