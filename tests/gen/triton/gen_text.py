#!/usr/bin/env python3
"""Triton 3.6's text forms of linear layouts, for lyt's triton_attr and
triton_str: the MLIR attribute of a DistributedLinearLayout and
str(LinearLayout). Run on the GPU machine:

  python3 tests/gen/triton/gen_text.py --out $OUT

Writes text.json: a list of {bases, shape, attr, str}.
"""
import argparse, json, os

CASES = [
    ({"register": [[0, 1], [0, 2], [0, 16]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
      "warp": [[8, 0], [16, 0]], "block": []}, [32, 32]),
    ({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]], "warp": [], "block": []}, [128]),
    ({"register": [], "lane": [[0, 0], [1, 0]], "warp": [[0, 1]], "block": [[2, 0]]}, [4, 2]),
    ({"register": [[0, 0, 1]], "lane": [[1, 0, 0], [0, 1, 0]], "warp": [], "block": []}, [2, 2, 2]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    from triton._C.libtriton import ir, gluon_ir
    from triton._C.libtriton.linear_layout import LinearLayout
    import triton.experimental.gluon.language as gl
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    res = []
    for bases, shape in CASES:
        names = ["dim%d" % i for i in range(len(shape))]
        ll = LinearLayout.from_bases(list(bases.items()), names, shape, True)
        lay = gl.DistributedLinearLayout(bases["register"], bases["lane"], bases["warp"],
                                         bases["block"], shape)
        # The attribute has no str() of its own; a tensor type prints it.
        ty = str(b.get_distributed_ty(b.get_float_ty(), shape, lay._to_ir(b)))
        attr = ty[ty.index("#ttg.linear"):-1]
        res.append({"bases": bases, "shape": shape, "attr": attr, "str": str(ll)})
    with open(os.path.join(a.out, "text.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
