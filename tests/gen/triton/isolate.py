"""Run generator cases in worker processes that may die.

Triton 3.6 aborts the whole process on some inputs (LLVM assertions), so
each generator runs its cases in a child process (`script --worker
cases.json results.jsonl start [--mock]`, writing one JSON line per case).
When a child dies, the first case without a result is the one that killed
it: it is recorded as an abort, and a new child resumes after it.
"""
import json
import os
import subprocess
import sys


def run_isolated(script, cases, workdir, mock, timeout, abort_msg):
    """Returns (results by case index, number of child launches).
    abort_msg(errfile, index, rc) gives the message of a killed case."""
    cpath = os.path.join(workdir, "cases.json")
    rpath = os.path.join(workdir, "results.jsonl")
    with open(cpath, "w") as f:
        json.dump(cases, f)
    open(rpath, "w").close()
    results, start, launches = {}, 0, 0
    while start < len(cases):
        errfile = os.path.join(workdir, "stderr_%d.txt" % launches)
        launches += 1
        cmd = [sys.executable, os.path.abspath(script), "--worker", cpath, rpath, str(start)]
        if mock:
            cmd.append("--mock")
        with open(errfile, "w") as ef:
            try:
                rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=ef,
                                    timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                rc = "timeout"
        with open(rpath) as f:
            for line in f:
                if line.strip():
                    d = json.loads(line)
                    results[d["i"]] = d
        if rc == 0:
            break
        missing = next((i for i in range(start, len(cases)) if i not in results), None)
        if missing is None:
            break
        d = {"i": missing, "status": "abort", "msg": abort_msg(errfile, missing, rc)}
        results[missing] = d
        with open(rpath, "a") as f:
            f.write(json.dumps(d) + "\n")
        start = missing + 1
    return results, launches
