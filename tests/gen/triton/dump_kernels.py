#!/usr/bin/env python3
"""Real Triton 3.6 kernels, compiled on the GPU machine, dumped as TTGIR and
PTX: the texts `lyt --explain` and `from_triton` are tested on
(tests/data/ttgir/). For every distributed encoding alias of every dump it
also asks Triton's own toLinearLayout (through gluon) for the layout at
each tensor shape the dump uses it with, so lyt's reading is checked
against Triton, not against itself.

usage (on the GPU machine): python3 tests/gen/triton/dump_kernels.py OUTDIR
writes OUTDIR/<kernel>.ttgir, OUTDIR/<kernel>.ptx, OUTDIR/encodings.jsonl,
OUTDIR/log.txt (what failed, with the exception).
  dump_kernels.py --more DIR: only the second set of kernels (TTGIR and PTX),
  compiled after `lyt --explain` was written (tests/data/ttgir/more/).
  dump_kernels.py --third DIR: the third set (other kinds: fp8, batched and
  split-K matmuls, causal attention, a scan, a gather, bf16 rows, an f16
  transpose), compiled after the shared-memory model was written
  (tests/data/ttgir/third/).
  dump_kernels.py --layouts-only DIR: only encodings.jsonl, for the dumps
  already in DIR. Encodings written inline in a type (#ttg.slice<...>) are
  named #inline0, #inline1, ... in order of first use.
"""
import sys
sys.dont_write_bytecode = True
import json
import os
import re
import traceback

import torch
import triton
import triton.language as tl

WORKER = len(sys.argv) > 1 and sys.argv[1] == "--alias"
LAYOUTS_ONLY = len(sys.argv) > 1 and sys.argv[1] == "--layouts-only"
MORE = len(sys.argv) > 1 and sys.argv[1] == "--more"
THIRD = len(sys.argv) > 1 and sys.argv[1] == "--third"
OUT = sys.argv[2] if WORKER or LAYOUTS_ONLY or MORE or THIRD else sys.argv[1] if len(sys.argv) > 1 else "dumps"
os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "log.txt"), "a")


def log(*a):
    print(*a, file=LOG, flush=True)
    print(*a, flush=True)


# ---------------------------------------------------------------- kernels
@triton.jit
def vector_add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def softmax(x, out, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=m, other=-float("inf"))
    v = v - tl.max(v, 0)
    e = tl.exp(v)
    tl.store(out + row * stride + cols, e / tl.sum(e, 0), mask=m)


@triton.jit
def layernorm(x, w, b, out, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(v, 0) / n_cols
    d = tl.where(m, v - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(d * d, 0) / n_cols + eps)
    y = d * rstd * tl.load(w + cols, mask=m) + tl.load(b + cols, mask=m)
    tl.store(out + row * stride + cols, y, mask=m)


@triton.jit
def column_sum(x, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros((BN,), dtype=tl.float32)
    for r0 in range(0, M, BM):
        rows = r0 + tl.arange(0, BM)
        t = tl.load(x + rows[:, None] * stride + cols[None, :],
                    mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
        acc += tl.sum(t, axis=0)
    tl.store(out + cols, acc, mask=cols < N)


@triton.jit
def row_sum(x, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros((BM,), dtype=tl.float32)
    for c0 in range(0, N, BN):
        cols = c0 + tl.arange(0, BN)
        t = tl.load(x + rows[:, None] * stride + cols[None, :],
                    mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
        acc += tl.sum(t, axis=1)
    tl.store(out + rows, acc, mask=rows < M)


@triton.jit
def transpose(x, out, M, N, sx, so, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    t = tl.load(x + rows[:, None] * sx + cols[None, :])
    tl.store(out + cols[:, None] * so + rows[None, :], tl.trans(t))


@triton.jit
def matmul(a, b, c, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * scm + rn[None, :], acc.to(c.dtype.element_ty))


@triton.jit
def persistent_matmul(a, b, c, M, N, K, sam, sbk, scm, NUM_SMS: tl.constexpr,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), tiles, NUM_SMS):
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :])
            y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :])
            acc = tl.dot(x, y, acc)
        tl.store(c + rm[:, None] * scm + rn[None, :], acc.to(c.dtype.element_ty))


@triton.jit
def attention(q, k, v, o, L, s, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * s + rd[None, :])
    mi = tl.full((BM,), -float("inf"), tl.float32)
    li = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, L, BN):
        rn = n0 + tl.arange(0, BN)
        kt = tl.load(k + rn[None, :] * s + rd[:, None])
        qk = tl.dot(qt, kt)
        mn = tl.maximum(mi, tl.max(qk, 1))
        p = tl.exp(qk - mn[:, None])
        alpha = tl.exp(mi - mn)
        li = li * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        vt = tl.load(v + rn[:, None] * s + rd[None, :])
        acc = tl.dot(p.to(tl.float16), vt, acc)
        mi = mn
    tl.store(o + rm[:, None] * s + rd[None, :], (acc / li[:, None]).to(tl.float16))


@triton.jit
def copy2d(x, out, sx, so, BM: tl.constexpr, BN: tl.constexpr):
    # loads vectorized only because the strides are known multiples of 16
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    tl.store(out + rows[:, None] * so + cols[None, :], tl.load(x + rows[:, None] * sx + cols[None, :]))


# ---------------------------------------------------------------- the second set
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


# ---------------------------------------------------------------- the third set
@triton.jit
def matmul_fp8(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * 512 + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * 512 + rn[None, :], acc.to(tl.float16))


@triton.jit
def batched_matmul(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    z, pm = tl.program_id(1), tl.program_id(0)
    rm = pm * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + z * 256 * K + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + z * K * BN + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + z * 256 * BN + rm[:, None] * BN + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def causal_attention(q, k, v, o, L, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    pm = tl.program_id(0)
    rm = pm * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * D + rd[None, :])
    m = tl.full((BM,), float("-inf"), tl.float32)
    s = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, (pm + 1) * BM, BN):
        rn = start + tl.arange(0, BN)
        kt = tl.load(k + rn[None, :] * D + rd[:, None])
        qk = tl.dot(qt, kt)
        qk = tl.where(rm[:, None] >= rn[None, :], qk, float("-inf"))
        mn = tl.maximum(m, tl.max(qk, 1))
        p = tl.exp(qk - mn[:, None])
        alpha = tl.exp(m - mn)
        s = s * alpha + tl.sum(p, 1)
        vt = tl.load(v + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
        m = mn
    tl.store(o + rm[:, None] * D + rd[None, :], (acc / s[:, None]).to(tl.float16))


@triton.jit
def row_cumsum(x, out, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = rn[None, :] < N
    t = tl.load(x + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
    tl.store(out + rm[:, None] * N + rn[None, :], tl.cumsum(t, 1), mask=mask)


@triton.jit
def gather_rows(x, idx, out, D: tl.constexpr, BM: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    i = tl.load(idx + rm)
    t = tl.load(x + i[:, None] * D + rd[None, :])
    tl.store(out + rm[:, None] * D + rd[None, :], t)


@triton.jit
def center_rows(x, out, N, BN: tl.constexpr):
    r = tl.program_id(0)
    rn = tl.arange(0, BN)
    t = tl.load(x + r * N + rn, mask=rn < N, other=0.0).to(tl.float32)
    mean = tl.sum(t, 0) / N
    d = tl.where(rn < N, t - mean, 0.0)
    var = tl.sum(d * d, 0) / N
    tl.store(out + r * N + rn, (d / tl.sqrt(var + 1e-5)).to(tl.bfloat16), mask=rn < N)


@triton.jit
def splitk_matmul(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT: tl.constexpr):
    pm, pk = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(pk * BK, K, BK * SPLIT):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(x, y)
    tl.atomic_add(c + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def transpose_f16(x, out, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    t = tl.load(x + rm[:, None] * 1024 + rn[None, :])
    tl.store(out + rn[None, :] * 1024 + rm[:, None], t)


def compile_third():
    """The third set, compiled after the shared-memory model was written:
    kernels of other kinds, held out from everything built before
    (tests/data/ttgir/third/)."""
    dev = "cuda"
    f16, f32, bf16 = torch.float16, torch.float32, torch.bfloat16

    def t(*shape, dtype=f32):
        if dtype == torch.float8_e4m3fn:
            return torch.randn(*shape, device=dev).to(dtype)
        return torch.randn(*shape, device=dev, dtype=dtype)

    run("matmul_fp8", lambda: matmul_fp8[(4, 4)](t(512, 512, dtype=torch.float8_e4m3fn),
                                                 t(512, 512, dtype=torch.float8_e4m3fn),
                                                 t(512, 512, dtype=f16), 512, BM=128, BN=128, BK=128))
    run("batched_matmul", lambda: batched_matmul[(4, 4)](t(4, 256, 256, dtype=bf16), t(4, 256, 256, dtype=bf16),
                                                         t(4, 256, 256, dtype=bf16), 256, BM=64, BN=256, BK=32,
                                                         num_warps=8))
    run("causal_attention", lambda: causal_attention[(8,)](t(1024, 64, dtype=f16), t(1024, 64, dtype=f16),
                                                           t(1024, 64, dtype=f16), t(1024, 64, dtype=f16), 1024,
                                                           BM=128, BN=64, D=64, num_warps=8))
    run("row_cumsum", lambda: row_cumsum[(16,)](t(64, 100), t(64, 100), 100, BM=4, BN=128))
    run("gather_rows", lambda: gather_rows[(8,)](t(512, 64, dtype=f16),
                                                 torch.randint(0, 512, (512,), device=dev, dtype=torch.int32),
                                                 t(512, 64, dtype=f16), D=64, BM=64))
    run("center_rows", lambda: center_rows[(32,)](t(32, 3000, dtype=bf16), t(32, 3000, dtype=bf16), 3000,
                                                  BN=4096, num_warps=8))
    run("splitk_matmul", lambda: splitk_matmul[(4, 4)](t(256, 1024, dtype=f16), t(1024, 64, dtype=f16),
                                                       t(256, 64), 1024, BM=64, BN=64, BK=64, SPLIT=4))
    run("transpose_f16", lambda: transpose_f16[(8, 8)](t(1024, 1024, dtype=f16), t(1024, 1024, dtype=f16),
                                                       BM=128, BN=128, num_warps=8))


# ---------------------------------------------------------------- compile and dump
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


def compile_all():
    dev = "cuda"
    f16, f32 = torch.float16, torch.float32

    def t(*shape, dtype=f32):
        return torch.randn(*shape, device=dev, dtype=dtype)

    run("vector_add", lambda: vector_add[(4,)](t(4096), t(4096), t(4096), 4096, BLOCK=1024))
    run("softmax", lambda: softmax[(64,)](t(64, 1000), t(64, 1000), 1000, 1000, BLOCK=1024))
    run("layernorm", lambda: layernorm[(64,)](t(64, 768, dtype=f16), t(768, dtype=f16), t(768, dtype=f16),
                                              t(64, 768, dtype=f16), 768, 768, 1e-5, BLOCK=1024))
    run("column_sum", lambda: column_sum[(8,)](t(512, 512), t(512), 512, 512, 512, BM=64, BN=64))
    run("row_sum", lambda: row_sum[(8,)](t(512, 512), t(512), 512, 512, 512, BM=64, BN=64))
    run("transpose", lambda: transpose[(8, 8)](t(512, 512), t(512, 512), 512, 512, 512, 512, BM=64, BN=64))
    run("matmul_f16", lambda: matmul[(4, 4)](t(512, 512, dtype=f16), t(512, 512, dtype=f16), t(512, 512, dtype=f16),
                                             512, 512, 512, 512, 512, 512, BM=128, BN=128, BK=64))
    run("matmul_f32", lambda: matmul[(8, 8)](t(512, 512), t(512, 512), t(512, 512),
                                             512, 512, 512, 512, 512, 512, BM=64, BN=64, BK=32))
    run("persistent_matmul", lambda: persistent_matmul[(132,)](t(1024, 1024, dtype=f16), t(1024, 1024, dtype=f16),
                                                               t(1024, 1024, dtype=f16), 1024, 1024, 1024, 1024,
                                                               1024, 1024, NUM_SMS=132, BM=128, BN=128, BK=64))
    run("attention", lambda: attention[(8,)](t(1024, 64, dtype=f16), t(1024, 64, dtype=f16), t(1024, 64, dtype=f16),
                                             t(1024, 64, dtype=f16), 1024, 64, BM=128, BN=64, D=64))
    run("copy2d_vec", lambda: copy2d[(8,)](t(512, 64, dtype=f16), t(512, 64, dtype=f16), 64, 64, BM=64, BN=64))

    def sm80_matmul():
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget
        sig = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
               "sam": "i32", "sbk": "i32", "scm": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
        consts = {"BM": 128, "BN": 128, "BK": 32}
        errors = []
        for variant in ("names", "tuples"):
            try:
                c = consts if variant == "names" else {(list(sig).index(k),): v for k, v in consts.items()}
                src = ASTSource(fn=matmul, signature=sig, constexprs=c)
                return triton.compile(src, target=GPUTarget("cuda", 80, 32))
            except Exception as e:
                errors.append("%s: %r" % (variant, e))
        raise RuntimeError("; ".join(errors))

    run("matmul_f16_sm80", sm80_matmul)


def sm80(fn, sig, consts):
    from triton.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    src = ASTSource(fn=fn, signature=sig, constexprs=consts)
    return triton.compile(src, target=GPUTarget("cuda", 80, 32), options={"num_warps": 8})


def compile_more():
    """The second set, compiled after `lyt --explain` was written: a check on
    kernels it was not built from (tests/data/ttgir/more/)."""
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
    run("attention_d128", lambda: attention[(8,)](t(512, 128, dtype=f16), t(512, 128, dtype=f16),
                                                  t(512, 128, dtype=f16), t(512, 128, dtype=f16), 512, 128,
                                                  BM=64, BN=64, D=128))
    sig = {"a": "*fp16", "b": "*fp16", "bias": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    run("matmul_bias_relu_sm80", lambda: sm80(matmul_bias_relu, sig, {"BM": 128, "BN": 64, "BK": 64}))


# ---------------------------------------------------------------- Triton's layouts
ALIAS = re.compile(r"^(#[\w.]+) = (#\w+\.\w+<.*>|#\w+\.\w+)\s*$")


def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[<{(":
            depth += 1
        elif ch in "]>})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def value(v):
    v = v.strip()
    if v.startswith("["):
        return [value(x) for x in split_top(v[1:-1])]
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v)
    except ValueError:
        return v


def fields(text):
    m = re.match(r"#(\w+)\.(\w+)<\{(.*)\}>$", text)
    if not m:
        return None, {}
    kv = {}
    for part in split_top(m.group(3)):
        k, _, v = part.partition("=")
        kv[k.strip()] = value(v)
    return m.group(2), kv


class Oracle:
    def __init__(self):
        from triton._C.libtriton import ir, gluon_ir
        import triton.experimental.gluon.language as gl
        self.gl, self.gluon_ir = gl, gluon_ir
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.b = gluon_ir.GluonOpBuilder(self.ctx)

    def cga(self, kv, kw):
        if "CTAsPerCGA" in kv:
            kw["cga_layout"] = [list(x) for x in self.gluon_ir.make_cga_layout(
                kv["CTAsPerCGA"], kv["CTASplitNum"], kv["CTAOrder"])]
        return kw

    def build(self, text, aliases):
        gl = self.gl
        kind, kv = fields(text)
        if kind == "blocked":
            return gl.BlockedLayout(**self.cga(kv, dict(size_per_thread=kv["sizePerThread"],
                                                        threads_per_warp=kv["threadsPerWarp"],
                                                        warps_per_cta=kv["warpsPerCTA"], order=kv["order"])))
        if kind == "slice":
            return gl.SliceLayout(dim=kv["dim"], parent=self.build(aliases.get(kv["parent"], kv["parent"]), aliases))
        if kind == "dot_op":
            return gl.DotOperandLayout(operand_index=kv["opIdx"],
                                       parent=self.build(aliases.get(kv["parent"], kv["parent"]), aliases),
                                       k_width=kv.get("kWidth", 0))
        if kind == "nvidia_mma":
            return gl.NVMMADistributedLayout(**self.cga(kv, dict(
                version=[kv["versionMajor"], kv["versionMinor"]], warps_per_cta=kv["warpsPerCTA"],
                instr_shape=kv["instrShape"])))
        raise ValueError("no gluon form for %s" % kind)

    def linear(self, text, aliases, shape):
        r = self.b.to_linear_layout(self.build(text, aliases)._to_ir(self.b), list(shape))
        ins = {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases, "block": r.block_bases}
        return {k: [[int(c) for c in v] for v in vs] for k, vs in ins.items()}, [int(x) for x in r.shape]


def tensor_types(text):
    """(dims, encoding text) of every tensor<...> type, its <> balanced."""
    out = []
    for m in re.finditer(r"tensor<", text):
        depth, i = 0, m.start() + len("tensor")
        while True:
            depth += text[i] == "<"
            depth -= text[i] == ">"
            i += 1
            if depth == 0:
                break
        body = text[m.end():i - 1]
        dims = re.match(r"((?:\d+x)+)", body)
        enc = body.split(", ", 1)[1] if ", " in body else None
        if dims and enc:
            out.append((tuple(int(d) for d in dims.group(1).split("x") if d), enc))
    return out


def aliases_and_shapes(path):
    """Aliases by name, and the shapes each encoding is used with. An
    encoding written inline in a type (#ttg.slice<...>) gets the name
    #inline<k>, in order of first use, so that a worker finds it again."""
    text = open(path).read()
    aliases, shapes, inline = {}, {}, {}
    for line in text.splitlines():
        m = ALIAS.match(line)
        if m:
            aliases[m.group(1)] = m.group(2)
    for dims, enc in tensor_types(text):
        if not enc.startswith("#ttg."):
            shapes.setdefault(enc, set()).add(dims)
            continue
        if enc not in inline:
            inline[enc] = "#inline%d" % len(inline)
            aliases[inline[enc]] = enc
        shapes.setdefault(inline[enc], set()).add(dims)
    return aliases, shapes


def one_alias(kernel, name):
    """Worker: Triton's layout of one alias at each of its shapes. A C++
    abort kills only this process; the driver records it."""
    aliases, shapes = aliases_and_shapes(os.path.join(OUT, kernel + ".ttgir"))
    orc = Oracle()
    rec = {"kernel": kernel, "alias": name, "text": aliases[name]}
    with open(os.path.join(OUT, "encodings.jsonl"), "a") as out:
        if not shapes.get(name):
            out.write(json.dumps(dict(rec, shape=None)) + "\n")
        for shape in sorted(shapes.get(name, ())):
            try:
                bases, got = orc.linear(aliases[name], aliases, shape)
                out.write(json.dumps(dict(rec, shape=list(shape), bases=bases, out_shape=got)) + "\n")
            except Exception as e:
                out.write(json.dumps(dict(rec, shape=list(shape), error=repr(e))) + "\n")
            out.flush()


def layouts():
    import subprocess
    open(os.path.join(OUT, "encodings.jsonl"), "w").close()
    for fn in sorted(os.listdir(OUT)):
        if not fn.endswith(".ttgir"):
            continue
        aliases, _ = aliases_and_shapes(os.path.join(OUT, fn))
        for name in aliases:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--alias", OUT, fn[:-6], name],
                               capture_output=True, text=True)
            if r.returncode != 0:
                log("alias %s %s: status %d\n%s" % (fn, name, r.returncode, r.stderr[-2000:]))


if WORKER:
    one_alias(sys.argv[3], sys.argv[4])
elif MORE:
    compile_more()
    log("triton", triton.__version__, "device", torch.cuda.get_device_name())
elif THIRD:
    compile_third()
    log("triton", triton.__version__, "device", torch.cuda.get_device_name())
elif LAYOUTS_ONLY:  # the dumps are already in OUT: Triton's layouts only
    layouts()
    log("triton", triton.__version__, "layouts only")
else:
    compile_all()
    layouts()
    log("triton", triton.__version__, "device", torch.cuda.get_device_name())
