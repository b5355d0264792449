#!/usr/bin/env python3
"""A second set of ordinary Triton 3.6 kernels, dumped as TTGIR and PTX
after `lyt --explain` was written: a check on kernels it was not built
from (tests/data/ttgir/more/). Same output as dump_kernels.py: for each
kernel OUTDIR/<kernel>.ttgir and .ptx, and OUTDIR/log.txt.

usage (on the GPU machine): python3 tests/gen/triton/dump_more.py OUTDIR
"""
import sys
sys.dont_write_bytecode = True
import os
import traceback

import torch
import triton
import triton.language as tl

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "log.txt"), "a")


def log(*a):
    print(*a, file=LOG, flush=True)
    print(*a, flush=True)


@triton.jit
def softmax_rows(x, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(x + rows[:, None] * stride + cols[None, :], mask=m, other=-float("inf"))
    v = v - tl.max(v, 1)[:, None]
    e = tl.exp(v)
    tl.store(out + rows[:, None] * stride + cols[None, :], e / tl.sum(e, 1)[:, None], mask=m)


@triton.jit
def matmul_bias_relu(a, b, bias, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    acc = acc + tl.load(bias + rn)[None, :].to(tl.float32)
    acc = tl.maximum(acc, 0.0)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_i8(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * 512 + rn[None, :])
        acc = tl.dot(x, y, acc, out_dtype=tl.int32)
    tl.store(c + rm[:, None] * 512 + rn[None, :], acc)


@triton.jit
def permute3d(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    i = tl.arange(0, A)[:, None, None]
    j = tl.arange(0, B)[None, :, None]
    k = tl.arange(0, C)[None, None, :]
    t = tl.load(x + i * B * C + j * C + k)
    p = tl.permute(t, (0, 2, 1))
    ii = tl.arange(0, A)[:, None, None]
    kk = tl.arange(0, C)[None, :, None]
    jj = tl.arange(0, B)[None, None, :]
    tl.store(out + ii * C * B + kk * B + jj, p)


@triton.jit
def col_norm(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    rows = tl.arange(0, BM)
    t = tl.load(x + rows[:, None] * N + cols[None, :]).to(tl.float32)
    s = tl.sqrt(tl.sum(t * t, 0))
    tl.store(out + rows[:, None] * N + cols[None, :], (t / s[None, :]).to(tl.float16))


@triton.jit
def argmax_rows(x, out, N, BN: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BN)
    v = tl.load(x + r * N + cols, mask=cols < N, other=-float("inf"))
    tl.store(out + r, tl.argmax(v, 0))


@triton.jit
def join_split(x, y, out, BN: tl.constexpr):
    c = tl.arange(0, BN)
    a = tl.load(x + c)
    b = tl.load(y + c)
    j = tl.join(a, b)
    p, q = tl.split(tl.permute(j, (1, 0)).reshape(BN, 2))
    tl.store(out + c, p + q)


@triton.jit
def attention_d128(q, k, v, o, L, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * D + rd[None, :])
    mi = tl.full((BM,), -float("inf"), tl.float32)
    li = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, L, BN):
        rn = n0 + tl.arange(0, BN)
        kt = tl.load(k + rn[None, :] * D + rd[:, None])
        qk = tl.dot(qt, kt)
        mn = tl.maximum(mi, tl.max(qk, 1))
        p = tl.exp(qk - mn[:, None])
        alpha = tl.exp(mi - mn)
        li = li * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        vt = tl.load(v + rn[:, None] * D + rd[None, :])
        acc = tl.dot(p.to(tl.float16), vt, acc)
        mi = mn
    tl.store(o + rm[:, None] * D + rd[None, :], (acc / li[:, None]).to(tl.float16))


def keep(name, compiled):
    for kind in ("ttgir", "ptx"):
        with open(os.path.join(OUT, "%s.%s" % (name, kind)), "w") as f:
            f.write(compiled.asm[kind])
    log("ok", name)


def run(name, fn):
    try:
        keep(name, fn())
    except Exception:
        log("FAILED", name)
        log(traceback.format_exc())


def sm80(fn, sig, consts):
    from triton.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    src = ASTSource(fn=fn, signature=sig, constexprs=consts)
    return triton.compile(src, target=GPUTarget("cuda", 80, 32), options={"num_warps": 8})


def main():
    dev = "cuda"
    f16, f32 = torch.float16, torch.float32

    def t(*shape, dtype=f32):
        if dtype == torch.int8:
            return torch.randint(-8, 8, shape, device=dev, dtype=dtype)
        return torch.randn(*shape, device=dev, dtype=dtype)

    run("softmax_rows", lambda: softmax_rows[(16,)](t(128, 128), t(128, 128), 128, 128, 128, BM=8, BN=128))
    run("matmul_bias_relu", lambda: matmul_bias_relu[(8, 4)](
        t(512, 512, dtype=f16), t(512, 512, dtype=f16), t(512, dtype=f16), t(512, 512, dtype=f16),
        512, 512, 512, BM=64, BN=128, BK=32, num_warps=8))
    run("matmul_i8", lambda: matmul_i8[(4, 4)](t(512, 512, dtype=torch.int8), t(512, 512, dtype=torch.int8),
                                               torch.empty(512, 512, device=dev, dtype=torch.int32), 512,
                                               BM=128, BN=128, BK=64))
    run("permute3d", lambda: permute3d[(1,)](t(4, 32, 64, dtype=f16), t(4, 64, 32, dtype=f16), A=4, B=32, C=64))
    run("col_norm", lambda: col_norm[(8,)](t(64, 512, dtype=f16), t(64, 512, dtype=f16), 64, 512, BM=64, BN=64))
    run("argmax_rows", lambda: argmax_rows[(64,)](t(64, 300), torch.empty(64, device=dev, dtype=torch.int32),
                                                  300, BN=512))
    run("join_split", lambda: join_split[(1,)](t(256), t(256), t(256), BN=256))
    run("attention_d128", lambda: attention_d128[(8,)](t(512, 128, dtype=f16), t(512, 128, dtype=f16),
                                                       t(512, 128, dtype=f16), t(512, 128, dtype=f16), 512,
                                                       BM=64, BN=64, D=128))
    sig = {"a": "*fp16", "b": "*fp16", "bias": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    run("matmul_bias_relu_sm80", lambda: sm80(matmul_bias_relu, sig, {"BM": 128, "BN": 64, "BK": 64}))
    log("triton", triton.__version__, "on", torch.cuda.get_device_name(0))


if __name__ == "__main__":
    main()
