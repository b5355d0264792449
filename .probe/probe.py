import inspect, sys
out = []
def w(*a): out.append(" ".join(str(x) for x in a))
import triton
w("triton", triton.__version__)
from triton._C.libtriton import linear_layout as llm
LL = llm.LinearLayout
for n in sorted(dir(LL)):
    if n.startswith("__") and n not in ("__mul__", "__eq__"): continue
    f = getattr(LL, n)
    w("LL.%s: %s" % (n, (getattr(f, "__doc__", "") or "").strip().replace("\n", " | ")[:400]))
w("linear_layout module:", dir(llm))
from triton._C.libtriton import gluon_ir, ir
w("gluon_ir module:", dir(gluon_ir))
for n in sorted(dir(gluon_ir.GluonOpBuilder)):
    if n.startswith("_"): continue
    f = getattr(gluon_ir.GluonOpBuilder, n)
    d = (getattr(f, "__doc__", "") or "").strip().split("\n")[0][:300]
    w("B.%s: %s" % (n, d))
for n in sorted(dir(gluon_ir)):
    if n.startswith("_"): continue
    f = getattr(gluon_ir, n)
    d = (getattr(f, "__doc__", "") or "").strip().split("\n")[0][:300]
    w("gluon_ir.%s: %s" % (n, d))
import triton.experimental.gluon.language as gl
w("gl:", [n for n in dir(gl) if "ayout" in n or "layout" in n])
try:
    import triton.experimental.gluon.language._layouts as L
    w("_layouts:", dir(L))
except Exception as e:
    w("no _layouts", e)
for mod in ["triton.experimental.gluon.language.nvidia.blackwell", "triton.experimental.gluon.language.nvidia.hopper", "triton.experimental.gluon.language.amd", "triton.experimental.gluon.language.amd.cdna3", "triton.experimental.gluon.language.amd.cdna4", "triton.experimental.gluon.language.nvidia.ampere"]:
    try:
        m = __import__(mod, fromlist=["x"])
        w(mod, [n for n in dir(m) if not n.startswith("_")])
    except Exception as e:
        w(mod, "ERR", e)
import os
open(os.path.join(os.environ.get("OUT", "."), "probe.txt"), "w").write("\n".join(out) + "\n")
print("\n".join(out)[:11000])
