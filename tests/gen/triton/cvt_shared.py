#!/usr/bin/env python3
"""How each conversion of tests/data/ttgir/*/cvt moves data through shared
memory in Triton 3.6, from its PTX and from the GPU's own counters.

Takes the modules cvt_oracle.py wrote (one ttg.convert_layout each, between
a global load and a global store of the same offsets, so the output must
equal the input), and for each:

  compile  the module (Triton 3.6, from the TTGIR text) and count every
           shared-memory instruction form in its PTX: st.shared.v4.b32,
           ldmatrix.sync.aligned.m8n8.x4.shared.b16, ...
  launch   it once on a random input, under Nsight Compute: the bank
           conflicts and wavefronts of its shared loads and stores
           (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum,
           l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum),
           and whether the output equals the input.

usage (on the GPU machine; ncu is /usr/local/cuda/bin/ncu or on PATH):
  python3 tests/gen/triton/cvt_shared.py CVTDIR OUT.tsv
writes OUT.tsv: case, the PTX forms ("form*count" joined by ' '), ncu's
st and ld conflicts, st and ld wavefronts, and ok (1: output == input).
A case whose module does not compile or run has an error line instead.
"""
import sys
sys.dont_write_bytecode = True
import csv
import io
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cvt_oracle import ptx_of, shared_forms  # noqa: E402

METRICS = ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]

# Runs every module, in the order given, once each: under ncu the n-th
# profiled "cvt" launch is the n-th case.
LAUNCH = r'''
import sys, re, torch, triton
from triton.backends.compiler import GPUTarget
TYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
         "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "i1": torch.bool}
for path in sys.argv[1:]:
    text = open(path).read()
    m = re.search(r"tt\.load %\S+ : tensor<([0-9x]+)x!tt\.ptr<(\w+)>", text)
    n = 1
    for d in m.group(1).split("x"):
        n *= int(d)
    ty = TYPES[m.group(2)]
    x = (torch.randint(0, 2, (n,), device="cuda") > 0 if ty == torch.bool
         else (torch.randn(n, device="cuda") * 100).to(ty))
    y = torch.zeros_like(x)
    k = triton.compile(path, target=GPUTarget("cuda", 90, 32))
    k[(1, 1, 1)](x, y)
    torch.cuda.synchronize()
    print("ok" if torch.equal(x, y) else "bad", path, flush=True)
'''


def compile_one(path):
    ptx, err = ptx_of(path)
    return (None, err[:200]) if err else (shared_forms(ptx), None)


def main():
    cvtdir, out = sys.argv[1], sys.argv[2]
    names = sorted(f[:-6] for f in os.listdir(cvtdir) if f.endswith(".ttgir"))
    paths = [os.path.join(cvtdir, n + ".ttgir") for n in names]
    with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) - 2)) as ex:
        forms = list(ex.map(compile_one, paths))  # also fills Triton's cache
    # only sm_90 modules launch here (the GPU is an H100 or H200)
    run = [p for p, (f, e) in zip(paths, forms) if not e and 'cuda:90"' in open(p).read()]
    ncu = "/usr/local/cuda/bin/ncu" if os.path.exists("/usr/local/cuda/bin/ncu") else "ncu"
    p = subprocess.run([ncu, "--csv", "--kernel-name", "cvt", "--metrics", ",".join(METRICS),
                        sys.executable, "-c", LAUNCH] + run, capture_output=True, text=True,
                       timeout=540)
    oks = [l.split()[0] for l in p.stdout.splitlines() if l.startswith(("ok ", "bad "))]
    rows = [r for r in csv.reader(io.StringIO(p.stdout)) if len(r) > 10]
    head = rows[0] if rows else []
    got = {}  # launch index -> metric -> value
    for r in rows[1:]:
        d = dict(zip(head, r))
        got.setdefault(int(d["ID"]), {})[d["Metric Name"]] = d["Metric Value"].replace(",", "")
    ids = sorted(got)
    measured = {}
    for i, path in enumerate(run):
        if i < len(ids) and i < len(oks):
            m = got[ids[i]]
            measured[path] = [m.get(k, "n/a") for k in METRICS] + ["1" if oks[i] == "ok" else "0"]
    with open(out, "w") as f:
        f.write("# case\tforms\tst_conflicts\tld_conflicts\tst_wavefronts\tld_wavefronts\tok\n")
        for name, path, (form, err) in zip(names, paths, forms):
            if err:
                f.write("%s\terror\t%s\n" % (name, err.replace("\t", " ")))
            else:
                f.write("\t".join([name, form] + measured.get(path, ["n/a"] * 5)) + "\n")
    import triton, torch
    print("triton", triton.__version__, "on", torch.cuda.get_device_name(0), "cases", len(names),
          "launched", len(run), "measured", len(measured), "ncu rc", p.returncode)
    if p.returncode:
        print(p.stderr[-2000:])


if __name__ == "__main__":
    main()
