"""Each case's answer from a child process: Triton 3.6 aborts the whole
process on some inputs, so a generator runs itself with `--worker CASES`
(answer) and, when a child dies, records the case it died on as an abort
and starts a new child after it. Used by tmem_regs.py and tmem_ldst.py
(gen_oracle.py keeps its own, file-based driver: isolate.py)."""
import json
import subprocess
import sys


def worker(cases, answer):
    """Prints each case, then "OK <answer>" or "ERROR <message>"."""
    for c in cases:
        print(json.dumps(c), flush=True)
        try:
            print("OK " + answer(c), flush=True)
        except Exception as e:
            print("ERROR " + str(e).replace("\n", " ")[:120], flush=True)


def answers(script, cases):
    """One line per case: "OK ...", "ERROR ..." or "ABORT ..."."""
    out, start = [], 0
    while start < len(cases):
        p = subprocess.run([sys.executable, script, "--worker", json.dumps(cases[start:])],
                           capture_output=True, text=True)
        lines = p.stdout.splitlines()
        got = [lines[i + 1] for i in range(0, len(lines) - 1, 2)]
        out += got
        start += len(got)
        if start < len(cases) and p.returncode != 0:
            out.append("ABORT (Triton aborts the process: an assertion)")
            start += 1
    return out


def run(script, answer, main):
    """The generator's entry: a worker when asked, else main()."""
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(json.loads(sys.argv[2]), answer)
    else:
        main()
