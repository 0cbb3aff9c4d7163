#!/usr/bin/env python3
"""Do Hopper-specific Triton matmul variants beat the matmul family's fp32-accurate kernel?

C = A @ B in fp32 (A: M x K, B: K x N, both row-major), every variant checked against float64 products of
the same inputs under the strict tolerance (torch.allclose, atol = rtol = 1e-4, on every one of --seeds
input sets; on the GPU also bitwise repeatability), and timed in one harness (CUDA events, L2 flushed
before every repetition, median).

Variants:
  torch    torch.matmul in fp32 with TF32 off (cuBLAS), the baseline users compare against.
  V0       the matmul family's kernel (families/matmul/kernel.py.in) as it is: tiled tl.dot with
           input_precision="tf32x3", B first copied K-major. V0-tf32 is the same kernel with plain TF32:
           a speed reference only, it is not fp32-accurate and is expected to fail the strict check.
  V1       persistent grid (one program per SM looping over tiles in grouped order) with TMA tensor
           descriptors, tf32x3, B copied K-major; optionally the loop nest flattened, host-side
           descriptors, a TMA epilogue and Triton's automatic warp specialization (ws-tiles / ws-k).
  V2       3xTF32 with the split done once, outside the product: a staging kernel writes hi/lo TF32 parts
           of A and of B (K-major), and the product loop is three plain TF32 dots; `acc=` says how their
           results reach the running sum (chain, split, step[N], hybrid: see the V2 section).
  V2-TMA   the same operands through V1's persistent TMA kernel structure.

Times include the staging passes (the K-major copy, the split), since a user pays them; main_ms is the
product kernel alone on pre-staged operands.

Run on the GPU:        python3 bench/experiments/matmul_hopper.py --out results.json
Check math on the CPU: TRITON_INTERPRET=1 python3 bench/experiments/matmul_hopper.py --shape 256 256 256 --quick
Compile for sm_90:     python3 bench/experiments/matmul_hopper.py --compile-only   (no GPU needed)
Under the interpreter nothing is timed, and tl.dot runs in full fp32 whatever input_precision says; the
kernels written here (V1, V2) then emulate the tensor cores' TF32 operand handling in-kernel (see _dot).
V0 is kept verbatim, so it computes an fp32 product there. The tensor cores' accumulator rounding is not
modelled, so the interpreter understates the GPU errors of modes that accumulate long sums in the tensor
cores (V2's acc=chain and acc=split).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
import traceback

import torch
import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET", "0") == "1"

if INTERPRET:
    # Triton 3.6's interpreter holds a scalar as a one-element 1-D numpy array and turns it into a Python
    # int (the tensor's __index__, used by range() over runtime bounds such as the persistent kernels'
    # tile loop) with int(array), which numpy 2.4 rejects for arrays with ndim > 0. Same conversion
    # through .item(); the compiled (GPU) path never sees this.
    from triton.runtime import interpreter as _interpreter

    _patch_lang_tensor_orig = _interpreter._patch_lang_tensor

    def _patch_lang_tensor(tensor, scope):
        _patch_lang_tensor_orig(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.item()))

    _interpreter._patch_lang_tensor = _patch_lang_tensor

# Dense TF32 tensor-core peak of the H200 (SXM); a 3xTF32 product does three TF32 products' work.
H200_TF32_TFLOPS = 494.7


# ---------------------------------------------------------------------------------------------------------
# V0: the matmul family's kernels, loaded from families/matmul/kernel.py.in (everything before its ModelNew,
# whose placeholders stand only in comments there), so V0 is always the kernel the family emits. Triton
# reads a kernel's source from its file, so the part is written to a module file of its own and imported.
# ---------------------------------------------------------------------------------------------------------

def _load_family_kernels():
    import importlib.util
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "families", "matmul", "kernel.py.in"), encoding="utf-8") as f:
        source = f.read().split("\nclass ModelNew", 1)[0]
    path = os.path.join(tempfile.mkdtemp(prefix="ka_matmul_family_"), "ka_matmul_family.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("ka_matmul_family", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_family = _load_family_kernels()
ka_matmul_kernel = _family.ka_matmul_kernel
ka_k_major_kernel = _family.ka_k_major_kernel
ka_k_major = _family.ka_k_major


# ---------------------------------------------------------------------------------------------------------
# Shared helpers of the new kernels.
# ---------------------------------------------------------------------------------------------------------

@triton.jit
def _tf32_round(x):
    # x rounded to the nearest TF32 value (ties away from zero), kept in an fp32 container: TF32 keeps the
    # sign, the 8 exponent bits and the top 10 mantissa bits, i.e. the top 19 bits of the fp32 word. Adding
    # half a TF32 ulp (bit 12) to the magnitude bits and clearing the low 13 bits rounds; a carry out of the
    # mantissa correctly bumps the exponent. -8192 is 0xFFFFE000 as an int32.
    bits = x.to(tl.int32, bitcast=True)
    return ((bits + 0x1000) & -8192).to(tl.float32, bitcast=True)


@triton.jit
def _tf32_truncate(x):
    # What the tensor cores see of a 32-bit operand in a TF32 product: its top 19 bits.
    return (x.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)


@triton.jit
def _dot(a, b, acc, PRECISION: tl.constexpr, EMULATE: tl.constexpr):
    # tl.dot, or with EMULATE (the interpreter only) the same product with the tensor cores' operand
    # handling written out, because the interpreter computes every tl.dot in full fp32. "tf32x3" follows
    # Triton's own lowering (F32DotTC): big = round(x), small = x - big (truncated by the hardware),
    # small products first into a fresh accumulator with NaNs cleared, then the big product on top.
    # With EMULATE off this is exactly tl.dot, so the GPU code is unaffected.
    if EMULATE:
        if PRECISION == "tf32":
            acc = tl.dot(_tf32_truncate(a), _tf32_truncate(b), acc, input_precision="ieee")
        elif PRECISION == "tf32x3":
            a_big = _tf32_round(a)
            b_big = _tf32_round(b)
            a_small = _tf32_truncate(a - a_big)
            b_small = _tf32_truncate(b - b_big)
            small = tl.dot(a_small, b_big, tl.zeros(acc.shape, tl.float32), input_precision="ieee")
            small = tl.dot(a_big, b_small, small, input_precision="ieee")
            small = tl.where(small != small, 0.0, small)
            acc += tl.dot(a_big, b_big, small, input_precision="ieee")
        else:
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
    else:
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    return acc


@triton.jit
def _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    # The family's grouped order: GROUP_M row-tiles share the same column-tiles of B while they are in L2.
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def _store_tile(acc, c_dst, c_desc, pid_m, pid_n, M, N,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, C_STORE: tl.constexpr, WIDE: tl.constexpr):
    # C_STORE 0: masked pointer stores straight from registers (no shared memory, which the operand
    # pipeline keeps). 1: one TMA store of the tile (needs a BLOCK_M x BLOCK_N fp32 staging buffer in shared
    # memory: 64 KB at 128 x 128). 2: two TMA stores of half tiles (half the staging buffer).
    if C_STORE == 0:
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        if WIDE:
            offs_m = offs_m.to(tl.int64)
            offs_n = offs_n.to(tl.int64)
        tl.store(c_dst + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)
    elif C_STORE == 1:
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc)
    else:
        halves = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
        left, right = tl.split(halves)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], left)
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N + BLOCK_N // 2], right)


# ---------------------------------------------------------------------------------------------------------
# V1: persistent grid + TMA, tf32x3.
# Why it might pay: (1) TMA moves whole tiles with one instruction issued by one thread, freeing the
# registers and issue slots that cp.async address arithmetic takes, which matters here because the
# in-loop 3xTF32 split already competes for them; (2) one program per SM stays resident, so the next tile's
# operand loads can start while the previous tile's epilogue runs (with FLATTEN the compiler fuses the tile
# and K loops into one software-pipelined loop), and the launch's tail is even; (3) optionally, automatic
# warp specialization puts the loads in a producer warp group so the math warps never wait on issuing them.
# WARP_SPECIALIZE: 0 off, 1 on the tile loop (as Triton's persistent-matmul tutorial does for Blackwell),
# 2 on the K loop. Triton 3.6's Hopper pass (add_hopper_warpspec) only partitions the K loop, and only at
# num_warps=4; in other combinations the flag compiles to the same kernel as without it. Where it does
# partition, some configurations compile to wrong or racy code, hence the multi-seed and repeatability
# checks in the harness.
# ---------------------------------------------------------------------------------------------------------

@triton.jit
def persistent_tma_kernel(a_src, b_src, c_dst, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          GROUP_M: tl.constexpr, NUM_PROGRAMS: tl.constexpr,
                          INPUT_PRECISION: tl.constexpr, FLATTEN: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                          HOST_DESC: tl.constexpr, C_STORE: tl.constexpr, WIDE: tl.constexpr,
                          EMULATE: tl.constexpr):
    # a_src: A (M x K, K contiguous); b_src: B copied K-major (N x K, K contiguous), so each B tile lands in
    # shared memory K-major, the only layout Hopper's TF32 wgmma accepts for 32-bit operands. With
    # HOST_DESC they are host-built TensorDescriptors (no in-kernel descriptor creation); otherwise plain
    # pointers and the descriptors are made here (their 128-byte scratch comes from triton.set_allocator).
    if HOST_DESC:
        a_desc = a_src
        b_desc = b_src
        c_desc = c_dst
    else:
        a_desc = tl.make_tensor_descriptor(a_src, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_src, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
        if C_STORE == 0:
            c_desc = c_dst  # unused: pointer stores
        elif C_STORE == 1:
            c_desc = tl.make_tensor_descriptor(c_dst, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
        else:
            c_desc = tl.make_tensor_descriptor(c_dst, shape=[M, N], strides=[N, 1],
                                               block_shape=[BLOCK_M, BLOCK_N // 2])

    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    # The epilogue recomputes its tile from a second counter instead of reusing the prologue's values: the
    # flattened, pipelined loop runs the epilogue of one tile while it loads for the next, and a value used
    # in both places is a known pipelining hazard in Triton.
    tile_id_c = start - NUM_PROGRAMS
    for tile_id in tl.range(start, num_tiles, NUM_PROGRAMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE == 1):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in tl.range(k_tiles, warp_specialize=WARP_SPECIALIZE == 2):
            # Out-of-range rows/columns/K of a tile read as zero (the descriptors' padding), so no masks.
            a = a_desc.load([offs_am, ki * BLOCK_K])
            b = b_desc.load([offs_bn, ki * BLOCK_K])
            acc = _dot(a, b.T, acc, INPUT_PRECISION, EMULATE)
        tile_id_c += NUM_PROGRAMS
        pid_m_c, pid_n_c = _tile_coords(tile_id_c, num_pid_m, num_pid_n, GROUP_M)
        _store_tile(acc, c_dst, c_desc, pid_m_c, pid_n_c, M, N, BLOCK_M, BLOCK_N, C_STORE, WIDE)


# ---------------------------------------------------------------------------------------------------------
# V2: 3xTF32 with the split staged once.
# Why it might pay: with input_precision="tf32x3" Triton splits every operand tile inside the K loop
# (round, subtract, for A and B) and, because wgmma reads B only from shared memory, writes the split B
# parts back to shared memory before the products; it also sums each step's products into a fresh
# accumulator, clears NaNs and adds, so the wgmmas do not chain on the running sum (that fresh accumulator
# is also what keeps the result fp32-accurate: see ACC). Staging hi/lo once
# (one cheap pass over A and B) leaves the loop with pure loads and plain TF32 dots, which can chain on one
# accumulator (but see ACC below for what that costs in accuracy). The price: twice the operand bytes per
# K step (hi and lo of both operands), so fewer pipeline stages fit in shared memory and more L2 traffic.
# Accuracy: hi = round_tf32(x) and lo = round_tf32(x - hi) are both exact TF32 values (low 13 bits zero),
# so the tensor cores, which read only a 32-bit operand's top 19 bits, lose nothing more; dropping lo*lo
# and lo's own rounding cost about 2^-22 relative per product, as in Triton's tf32x3.
# ACC picks how the products reach the running sum. It matters because the tensor cores do not round their
# fp32 accumulator to nearest: each wgmma adds its products to the accumulator and drops the bits below the
# accumulator's precision, so the error grows with every instruction that adds into a large running sum,
# and it is biased. Only an ordinary fp32 add (FADD, round to nearest) keeps a long sum fp32-accurate.
#   0 chain: all three products into one accumulator: the fastest loop (the wgmmas chain with no
#     elementwise work), but the running sum takes three tensor-core additions per K sub-step instead of one;
#   1 split: the two small products into a second accumulator, hi*hi alone into the running sum;
#   2 step: each K step's three products into a fresh accumulator, then FADDed into the running sum, as
#     Triton's tf32x3 does; with FLUSH > 1 the fresh accumulator spans FLUSH K steps (fewer FADDs, more
#     tensor-core additions per partial sum);
#   3 hybrid: the small products chained into a second accumulator (its magnitude is ~2^-11 of the sum's,
#     so its dropped bits are negligible), hi*hi per K step into a fresh accumulator FADDed into the sum.
# ---------------------------------------------------------------------------------------------------------

@triton.jit
def tf32_split_kernel(src_ptr, hi_ptr, lo_ptr, R, K, stride_sr, stride_sk,
                      BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr):
    # hi[r, k] + lo[r, k] ~= src[r, k], hi and lo contiguous along K whatever the source's layout (the
    # K-major copy and the split in one pass; the transposing load/store goes through shared memory).
    offs_r = (tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)).to(tl.int64)
    offs_k = (tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)).to(tl.int64)
    mask = (offs_r[:, None] < R) & (offs_k[None, :] < K)
    x = tl.load(src_ptr + offs_r[:, None] * stride_sr + offs_k[None, :] * stride_sk, mask=mask, other=0.0)
    hi = _tf32_round(x)
    # x - hi is exact in fp32 (it is x's low bits); rounding it to TF32 as well makes the hardware's
    # truncation of the operand a no-op and halves the worst error on lo compared with truncating it.
    lo = _tf32_round(x - hi)
    dst = offs_r[:, None] * K + offs_k[None, :]
    tl.store(hi_ptr + dst, hi, mask=mask)
    tl.store(lo_ptr + dst, lo, mask=mask)


@triton.jit
def presplit_kernel(a_hi_ptr, a_lo_ptr, b_hi_ptr, b_lo_ptr, c_ptr, M, N, K,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    GROUP_M: tl.constexpr, K_STEPS: tl.constexpr, ACC: tl.constexpr, FLUSH: tl.constexpr,
                    WIDE: tl.constexpr, EMULATE: tl.constexpr):
    # A parts: M x K, B parts: N x K (K-major), all contiguous along K. One program per output tile, loads
    # and edge handling as the family's kernel (rows/columns wrap, the K tail is masked to zero).
    pid_m, pid_n = _tile_coords(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    rm = offs_m % M
    rn = offs_n % N
    if WIDE:
        rm = rm.to(tl.int64)
        rn = rn.to(tl.int64)
    a_offs = rm[:, None] * K + offs_k[None, :]
    b_offs = offs_k[:, None] + rn[None, :] * K
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if ACC == 1 or ACC == 3:
        acc_lo = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if ACC == 2 and FLUSH > 1:
        part = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, K_STEPS):
        k_left = K - i * BLOCK_K
        a_mask = offs_k[None, :] < k_left
        b_mask = offs_k[:, None] < k_left
        a_hi = tl.load(a_hi_ptr + a_offs, mask=a_mask, other=0.0)
        a_lo = tl.load(a_lo_ptr + a_offs, mask=a_mask, other=0.0)
        b_hi = tl.load(b_hi_ptr + b_offs, mask=b_mask, other=0.0)
        b_lo = tl.load(b_lo_ptr + b_offs, mask=b_mask, other=0.0)
        # Small terms first, as Triton's own tf32x3 orders them (see ACC in the section comment).
        if ACC == 0:
            acc = _dot(a_lo, b_hi, acc, "tf32", EMULATE)
            acc = _dot(a_hi, b_lo, acc, "tf32", EMULATE)
            acc = _dot(a_hi, b_hi, acc, "tf32", EMULATE)
        elif ACC == 1:
            acc_lo = _dot(a_lo, b_hi, acc_lo, "tf32", EMULATE)
            acc_lo = _dot(a_hi, b_lo, acc_lo, "tf32", EMULATE)
            acc = _dot(a_hi, b_hi, acc, "tf32", EMULATE)
        elif ACC == 3:
            acc_lo = _dot(a_lo, b_hi, acc_lo, "tf32", EMULATE)
            acc_lo = _dot(a_hi, b_lo, acc_lo, "tf32", EMULATE)
            # An fma, not `acc += ...`: Triton's combine pass rewrites add(acc, dot(a, b, 0)) into
            # dot(a, b, acc), which would put the running sum back into the tensor cores.
            acc = tl.fma(_dot(a_hi, b_hi, tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32), "tf32", EMULATE), 1.0, acc)
        elif FLUSH == 1:
            part = _dot(a_lo, b_hi, tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32), "tf32", EMULATE)
            part = _dot(a_hi, b_lo, part, "tf32", EMULATE)
            acc += _dot(a_hi, b_hi, part, "tf32", EMULATE)
        else:
            part = _dot(a_lo, b_hi, part, "tf32", EMULATE)
            part = _dot(a_hi, b_lo, part, "tf32", EMULATE)
            part = _dot(a_hi, b_hi, part, "tf32", EMULATE)
            if ((i % FLUSH) == (FLUSH - 1)) | (i == K_STEPS - 1):
                acc += part
                part = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        a_offs += BLOCK_K
        b_offs += BLOCK_K
    if ACC == 1 or ACC == 3:
        acc += acc_lo
    out_m = offs_m
    out_n = offs_n
    if WIDE:
        out_m = out_m.to(tl.int64)
        out_n = out_n.to(tl.int64)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptr + out_m[:, None] * N + out_n[None, :], acc, mask=mask)


@triton.jit
def presplit_persistent_tma_kernel(a_hi_src, a_lo_src, b_hi_src, b_lo_src, c_dst, M, N, K,
                                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                   GROUP_M: tl.constexpr, NUM_PROGRAMS: tl.constexpr,
                                   FLATTEN: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
                                   HOST_DESC: tl.constexpr, C_STORE: tl.constexpr, ACC: tl.constexpr,
                                   FLUSH: tl.constexpr, WIDE: tl.constexpr, EMULATE: tl.constexpr):
    # V2's operands through V1's structure (see persistent_tma_kernel for the descriptor arguments).
    if HOST_DESC:
        a_hi_desc = a_hi_src
        a_lo_desc = a_lo_src
        b_hi_desc = b_hi_src
        b_lo_desc = b_lo_src
        c_desc = c_dst
    else:
        a_hi_desc = tl.make_tensor_descriptor(a_hi_src, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
        a_lo_desc = tl.make_tensor_descriptor(a_lo_src, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
        b_hi_desc = tl.make_tensor_descriptor(b_hi_src, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
        b_lo_desc = tl.make_tensor_descriptor(b_lo_src, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
        if C_STORE == 0:
            c_desc = c_dst  # unused: pointer stores
        elif C_STORE == 1:
            c_desc = tl.make_tensor_descriptor(c_dst, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
        else:
            c_desc = tl.make_tensor_descriptor(c_dst, shape=[M, N], strides=[N, 1],
                                               block_shape=[BLOCK_M, BLOCK_N // 2])

    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    tile_id_c = start - NUM_PROGRAMS
    for tile_id in tl.range(start, num_tiles, NUM_PROGRAMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE == 1):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if ACC == 1 or ACC == 3:
            acc_lo = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if ACC == 2 and FLUSH > 1:
            part = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in tl.range(k_tiles, warp_specialize=WARP_SPECIALIZE == 2):
            offs_k = ki * BLOCK_K
            a_hi = a_hi_desc.load([offs_am, offs_k])
            a_lo = a_lo_desc.load([offs_am, offs_k])
            b_hi = b_hi_desc.load([offs_bn, offs_k]).T
            b_lo = b_lo_desc.load([offs_bn, offs_k]).T
            if ACC == 0:
                acc = _dot(a_lo, b_hi, acc, "tf32", EMULATE)
                acc = _dot(a_hi, b_lo, acc, "tf32", EMULATE)
                acc = _dot(a_hi, b_hi, acc, "tf32", EMULATE)
            elif ACC == 1:
                acc_lo = _dot(a_lo, b_hi, acc_lo, "tf32", EMULATE)
                acc_lo = _dot(a_hi, b_lo, acc_lo, "tf32", EMULATE)
                acc = _dot(a_hi, b_hi, acc, "tf32", EMULATE)
            elif ACC == 3:
                acc_lo = _dot(a_lo, b_hi, acc_lo, "tf32", EMULATE)
                acc_lo = _dot(a_hi, b_lo, acc_lo, "tf32", EMULATE)
                # An fma, not `acc += ...`: see presplit_kernel.
                acc = tl.fma(_dot(a_hi, b_hi, tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32), "tf32", EMULATE),
                             1.0, acc)
            elif FLUSH == 1:
                part = _dot(a_lo, b_hi, tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32), "tf32", EMULATE)
                part = _dot(a_hi, b_lo, part, "tf32", EMULATE)
                acc += _dot(a_hi, b_hi, part, "tf32", EMULATE)
            else:
                part = _dot(a_lo, b_hi, part, "tf32", EMULATE)
                part = _dot(a_hi, b_lo, part, "tf32", EMULATE)
                part = _dot(a_hi, b_hi, part, "tf32", EMULATE)
                if ((ki % FLUSH) == (FLUSH - 1)) | (ki == k_tiles - 1):
                    acc += part
                    part = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        if ACC == 1 or ACC == 3:
            acc += acc_lo
        tile_id_c += NUM_PROGRAMS
        pid_m_c, pid_n_c = _tile_coords(tile_id_c, num_pid_m, num_pid_n, GROUP_M)
        _store_tile(acc, c_dst, c_desc, pid_m_c, pid_n_c, M, N, BLOCK_M, BLOCK_N, C_STORE, WIDE)


# ---------------------------------------------------------------------------------------------------------
# Host side: each variant is prepare(a, b, cfg) -> staged operands and main(staged, cfg) -> C.
# ---------------------------------------------------------------------------------------------------------

class Ctx:
    """Problem-wide settings the variants need."""

    def __init__(self, M, N, K, device, num_programs, emulate):
        self.M, self.N, self.K = M, N, K
        self.device = device
        self.num_programs = num_programs  # persistent grid size: the SM count on a GPU
        self.emulate = emulate            # emulate TF32 operand handling in V1/V2 (interpreter only)
        self.wide = max(M * K, K * N, M * N) >= 2 ** 31


def k_major_b(ctx, b):
    # B (K x N, N contiguous) as N x K, K contiguous, with the family's staging kernel.
    return ka_k_major(b, 1, ctx.N, ctx.K, (0, b.stride(1), b.stride(0))).view(ctx.N, ctx.K)


def v0_prepare(ctx, cfg, a, b):
    return a, k_major_b(ctx, b)


def v0_main(ctx, cfg, staged):
    a, bt = staged
    M, N, K = ctx.M, ctx.N, ctx.K
    c = torch.empty((1, M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, cfg["bm"]) * triton.cdiv(N, cfg["bn"]), 1, 1)
    ka_matmul_kernel[grid](
        a, bt, c, M, N, K,
        0, a.stride(0), a.stride(1),
        0, bt.stride(1), bt.stride(0),
        0, c.stride(0), c.stride(1), c.stride(2),
        0,
        BLOCK_M=cfg["bm"], BLOCK_N=cfg["bn"], BLOCK_K=cfg["bk"], GROUP_M=cfg["group_m"], SPLIT_K=1,
        K_STEPS=triton.cdiv(K, cfg["bk"]), MASK=0, INPUT_PRECISION=cfg["precision"], WIDE=ctx.wide,
        num_warps=cfg["warps"], num_stages=cfg["stages"])
    return c.view(M, N)


def _persistent_grid(ctx, cfg):
    tiles = triton.cdiv(ctx.M, cfg["bm"]) * triton.cdiv(ctx.N, cfg["bn"])
    return min(ctx.num_programs, tiles)


def _descriptor_args(ctx, cfg, a_parts, b_parts, c):
    """Kernel arguments for the operands: host TensorDescriptors or the tensors themselves."""
    if not cfg["host_desc"]:
        return list(a_parts) + list(b_parts) + [c]
    from triton.tools.tensor_descriptor import TensorDescriptor
    bm, bn, bk = cfg["bm"], cfg["bn"], cfg["bk"]
    args = [TensorDescriptor.from_tensor(t, [bm, bk]) for t in a_parts]
    args += [TensorDescriptor.from_tensor(t, [bn, bk]) for t in b_parts]
    if cfg["c_store"] == 0:
        args.append(c)
    else:
        args.append(TensorDescriptor.from_tensor(c, [bm, bn if cfg["c_store"] == 1 else bn // 2]))
    return args


def _check_tma_shape(ctx):
    # TMA needs 16-byte aligned row strides: K (operands) and N (C) multiples of 4 fp32 elements.
    if ctx.K % 4 or ctx.N % 4:
        raise ValueError(f"TMA needs K and N multiples of 4 (got K={ctx.K}, N={ctx.N})")


def v1_prepare(ctx, cfg, a, b):
    return a, k_major_b(ctx, b)


def v1_main(ctx, cfg, staged):
    _check_tma_shape(ctx)
    a, bt = staged
    c = torch.empty((ctx.M, ctx.N), dtype=torch.float32, device=a.device)
    a_arg, b_arg, c_arg = _descriptor_args(ctx, cfg, [a], [bt], c)
    persistent_tma_kernel[(_persistent_grid(ctx, cfg),)](
        a_arg, b_arg, c_arg, ctx.M, ctx.N, ctx.K,
        BLOCK_M=cfg["bm"], BLOCK_N=cfg["bn"], BLOCK_K=cfg["bk"], GROUP_M=cfg["group_m"],
        NUM_PROGRAMS=ctx.num_programs, INPUT_PRECISION=cfg["precision"], FLATTEN=cfg["flatten"],
        WARP_SPECIALIZE=cfg["ws"], HOST_DESC=cfg["host_desc"], C_STORE=cfg["c_store"], WIDE=ctx.wide,
        EMULATE=ctx.emulate, num_warps=cfg["warps"], num_stages=cfg["stages"])
    return c


def tf32_split(src, rows, k, stride_r, stride_k):
    hi = torch.empty((rows, k), dtype=torch.float32, device=src.device)
    lo = torch.empty_like(hi)
    grid = (triton.cdiv(rows, 64), triton.cdiv(k, 64))
    tf32_split_kernel[grid](src, hi, lo, rows, k, stride_r, stride_k, BLOCK_R=64, BLOCK_K=64, num_warps=4)
    return hi, lo


def v2_prepare(ctx, cfg, a, b):
    a_hi, a_lo = tf32_split(a, ctx.M, ctx.K, a.stride(0), a.stride(1))
    b_hi, b_lo = tf32_split(b, ctx.N, ctx.K, b.stride(1), b.stride(0))  # B read K-major: (n, k) at k*N + n
    return a_hi, a_lo, b_hi, b_lo


def v2_main(ctx, cfg, staged):
    a_hi, a_lo, b_hi, b_lo = staged
    M, N, K = ctx.M, ctx.N, ctx.K
    c = torch.empty((M, N), dtype=torch.float32, device=a_hi.device)
    grid = (triton.cdiv(M, cfg["bm"]) * triton.cdiv(N, cfg["bn"]),)
    presplit_kernel[grid](
        a_hi, a_lo, b_hi, b_lo, c, M, N, K,
        BLOCK_M=cfg["bm"], BLOCK_N=cfg["bn"], BLOCK_K=cfg["bk"], GROUP_M=cfg["group_m"],
        K_STEPS=triton.cdiv(K, cfg["bk"]), ACC=cfg["acc"], FLUSH=cfg["flush"], WIDE=ctx.wide,
        EMULATE=ctx.emulate,
        num_warps=cfg["warps"], num_stages=cfg["stages"])
    return c


def v2_tma_main(ctx, cfg, staged):
    _check_tma_shape(ctx)
    a_hi, a_lo, b_hi, b_lo = staged
    c = torch.empty((ctx.M, ctx.N), dtype=torch.float32, device=a_hi.device)
    args = _descriptor_args(ctx, cfg, [a_hi, a_lo], [b_hi, b_lo], c)
    presplit_persistent_tma_kernel[(_persistent_grid(ctx, cfg),)](
        *args, ctx.M, ctx.N, ctx.K,
        BLOCK_M=cfg["bm"], BLOCK_N=cfg["bn"], BLOCK_K=cfg["bk"], GROUP_M=cfg["group_m"],
        NUM_PROGRAMS=ctx.num_programs, FLATTEN=cfg["flatten"], WARP_SPECIALIZE=cfg["ws"],
        HOST_DESC=cfg["host_desc"], C_STORE=cfg["c_store"], ACC=cfg["acc"], FLUSH=cfg["flush"], WIDE=ctx.wide,
        EMULATE=ctx.emulate,
        num_warps=cfg["warps"], num_stages=cfg["stages"])
    return c


def torch_prepare(ctx, cfg, a, b):
    return a, b


def torch_main(ctx, cfg, staged):
    a, b = staged
    return torch.matmul(a, b)


# ---------------------------------------------------------------------------------------------------------
# Configurations.
# ---------------------------------------------------------------------------------------------------------

def cfg(bm, bn, bk, warps, stages, group_m=8, precision="tf32x3", flatten=True, ws=0, host_desc=False,
        c_store=0, acc=0, flush=1):
    return dict(bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, group_m=group_m, precision=precision,
                flatten=flatten, ws=ws, host_desc=host_desc, c_store=c_store, acc=acc, flush=flush)


FAMILY_BEST = cfg(128, 128, 32, 8, 3)


def configs(variant, quick):
    """The configurations timed per variant. Shared-memory budget (H200: 227 KB per block): a pipeline
    stage holds BLOCK_K x (BLOCK_M + BLOCK_N) x 4 bytes per operand copy; V0/V1 hold one copy (plus
    Triton's split buffers), V2 two (hi and lo), so V2 trades BLOCK_K or stages for it."""
    if variant == "torch":
        return [dict()]
    if variant == "V0":
        if quick:
            return [FAMILY_BEST, cfg(128, 128, 64, 8, 3)]
        return [FAMILY_BEST, cfg(128, 128, 32, 8, 4), cfg(128, 128, 32, 4, 3),
                cfg(128, 128, 64, 8, 2), cfg(128, 128, 64, 8, 3), cfg(128, 128, 64, 4, 3),
                cfg(128, 256, 32, 8, 3), cfg(128, 256, 32, 8, 4), cfg(256, 128, 32, 8, 3),
                cfg(256, 128, 32, 16, 3)]
    if variant == "V0-tf32":
        return [cfg(128, 128, 32, 8, 3, precision="tf32")]
    if variant == "V1":
        if quick:
            return [cfg(128, 128, 32, 8, 3), cfg(128, 128, 64, 8, 3)]
        return [cfg(128, 128, 32, 8, 3, flatten=False), cfg(128, 128, 32, 8, 3), cfg(128, 128, 32, 8, 4),
                cfg(128, 128, 32, 4, 3), cfg(128, 128, 64, 8, 3, flatten=False), cfg(128, 128, 64, 8, 3),
                cfg(128, 128, 64, 8, 2), cfg(128, 256, 32, 8, 3), cfg(256, 128, 32, 8, 3),
                cfg(128, 128, 32, 8, 3, host_desc=True), cfg(128, 128, 32, 8, 3, c_store=2),
                cfg(128, 128, 32, 8, 3, ws=1), cfg(128, 128, 32, 4, 3, flatten=False, ws=2),
                cfg(128, 128, 32, 4, 4, flatten=False, ws=2)]
    if variant == "V2":
        if quick:
            return [cfg(128, 128, 32, 8, 3), cfg(128, 128, 32, 8, 3, acc=2)]
        return [cfg(128, 128, 32, 8, 3), cfg(128, 128, 32, 4, 3), cfg(128, 128, 32, 8, 3, acc=1),
                cfg(128, 256, 16, 8, 3), cfg(128, 256, 16, 8, 4), cfg(256, 128, 16, 8, 3),
                cfg(128, 128, 32, 8, 3, acc=2), cfg(128, 128, 32, 8, 3, acc=2, flush=2),
                cfg(128, 128, 32, 8, 3, acc=2, flush=4), cfg(128, 128, 32, 4, 3, acc=2, flush=2),
                cfg(128, 128, 32, 8, 2, acc=2, flush=2), cfg(128, 128, 16, 8, 4, acc=2, flush=4),
                cfg(128, 128, 16, 8, 5, acc=2, flush=4), cfg(128, 128, 32, 8, 3, acc=3),
                cfg(128, 128, 16, 8, 4, acc=3),
                cfg(256, 128, 16, 16, 3, acc=2)]
    if variant == "V2-TMA":
        if quick:
            return [cfg(128, 128, 32, 8, 3, flatten=False, acc=2),
                    cfg(128, 128, 32, 4, 2, flatten=False, ws=2, acc=2)]
        return [cfg(128, 128, 32, 8, 3, flatten=False), cfg(128, 128, 32, 8, 2), cfg(256, 128, 16, 8, 3),
                cfg(128, 256, 16, 8, 3, c_store=2), cfg(128, 128, 32, 8, 3, flatten=False, acc=1),
                cfg(128, 128, 32, 8, 3, flatten=False, acc=2), cfg(128, 128, 32, 8, 3, flatten=False, acc=2, flush=2),
                cfg(128, 128, 32, 8, 3, flatten=False, acc=2, flush=4), cfg(128, 128, 32, 8, 2, acc=2, flush=2),
                cfg(128, 128, 32, 8, 3, flatten=False, host_desc=True, acc=2, flush=2),
                cfg(128, 128, 16, 8, 4, flatten=False, acc=2, flush=4), cfg(128, 128, 32, 8, 3, flatten=False, acc=3),
                cfg(256, 128, 16, 16, 3, flatten=False, acc=2),
                cfg(128, 128, 32, 4, 3, flatten=False, ws=2), cfg(128, 128, 32, 4, 2, flatten=False, ws=2, acc=2),
                cfg(128, 128, 32, 4, 2, flatten=False, ws=2, acc=3),
                cfg(128, 128, 16, 4, 4, flatten=False, ws=2, acc=2),
                cfg(128, 128, 16, 4, 3, flatten=False, ws=2, acc=2)]
    raise ValueError(variant)


VARIANTS = {
    # name: (prepare, main, uses TMA descriptors, emulates TF32 under the interpreter)
    "torch": (torch_prepare, torch_main, False, False),
    "V0": (v0_prepare, v0_main, False, False),
    "V0-tf32": (v0_prepare, v0_main, False, False),
    "V1": (v1_prepare, v1_main, True, True),
    "V2": (v2_prepare, v2_main, False, True),
    "V2-TMA": (v2_prepare, v2_tma_main, True, True),
}


def describe(variant, c):
    if variant == "torch":
        return "cuBLAS fp32 (allow_tf32 off)" if not INTERPRET else "torch fp32"
    s = f"{c['bm']}x{c['bn']}x{c['bk']} g{c['group_m']} w{c['warps']} s{c['stages']}"
    if variant.startswith("V0"):
        return s + f" {c['precision']}"
    if variant in ("V1", "V2-TMA"):
        s += " flat" if c["flatten"] else " noflat"
        if c["ws"]:
            s += " ws-tiles" if c["ws"] == 1 else " ws-k"
        s += " hostdesc" if c["host_desc"] else " devdesc"
        s += {0: "", 1: " c=tma", 2: " c=tma2"}[c["c_store"]]
    if variant.startswith("V2"):
        s += {0: " acc=chain", 1: " acc=split", 2: " acc=step", 3: " acc=hybrid"}[c["acc"]]
        if c["acc"] == 2 and c["flush"] > 1:
            s += str(c["flush"])
    return s


# ---------------------------------------------------------------------------------------------------------
# Harness.
# ---------------------------------------------------------------------------------------------------------

def classify(exc):
    name = type(exc).__name__
    msg = str(exc)
    if name == "OutOfResources":
        return "out_of_resources"
    if name in ("CompilationError", "PTXASError", "UnsupportedLanguageConstruct", "CompileTimeAssertionFailure"):
        return "compile_error"
    if "PassManager" in msg or "MLIR" in msg or "failed to legalize" in msg or "LLVM" in msg:
        return "compile_error"
    if isinstance(exc, ValueError) and "TMA needs" in msg:
        return "unsupported_shape"
    return "runtime_error"


def cuda_alive():
    try:
        torch.zeros(1, device="cuda").add_(1)
        torch.cuda.synchronize()
        return True
    except Exception:
        return False


def time_ms(fn, reps, warmup, flush):
    """Median of CUDA-event times of fn(), the L2 flushed (a write over a buffer twice its size) before each
    repetition so every repetition reads its operands from HBM, as a cold call does."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        flush.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def check_split(a, staged):
    """V2 staging sanity: hi and lo exact TF32 values and hi + lo within 2^-21 relative of the input."""
    a_hi, a_lo = staged[0], staged[1]
    low_bits = (a_hi.view(torch.int32) & 0x1FFF).any().item() or (a_lo.view(torch.int32) & 0x1FFF).any().item()
    rel = ((a_hi.double() + a_lo.double() - a.double()).abs() / a.double().abs().clamp_min(1e-30)).max().item()
    return (not low_bits), rel


SM90_SHARED_LIMIT = 232448  # bytes of shared memory a block may opt into on the H100/H200 (227 KB)


class OfflineCompiler:
    """--compile-only: every kernel a configuration launches is compiled for sm_90 (the H100/H200) instead
    of run, with no GPU needed: the same Triton pipeline, ptxas included, so compile failures, shared memory
    over the limit, register use and spills, and whether warp specialization took effect are known before
    the GPU run. Launches are intercepted by replacing each kernel's run method; arguments are specialized
    as Triton's launcher does (ints equal to 1 become constants, pointers and multiples of 16 get the
    divisibility hint)."""

    def __init__(self, kernels):
        from triton.backends.compiler import GPUTarget
        self.target = GPUTarget("cuda", 90, 32)
        self.launched = []
        tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
        self.cuobjdump = tool if os.path.exists(tool) else None
        for kernel in kernels:
            kernel.run = self._make_run(kernel)

    def _make_run(self, kernel):
        def run(*args, grid, warmup, **kwargs):
            self.launched.append(self.compile(kernel, args, kwargs))
        return run

    def compile(self, kernel, args, kwargs):
        from triton.compiler import ASTSource
        from triton.runtime.jit import mangle_type
        kwargs = dict(kwargs)
        options = {k: kwargs.pop(k) for k in ("num_warps", "num_stages") if k in kwargs}
        values = dict(zip(kernel.arg_names, args), **kwargs)
        signature, constants, attrs = {}, {}, {}
        for i, param in enumerate(kernel.params):
            value = values[param.name]
            if param.is_constexpr or (isinstance(value, int) and not isinstance(value, bool) and value == 1):
                signature[param.name] = "constexpr"
                constants[param.name] = value
                continue
            signature[param.name] = mangle_type(value)
            aligned = (hasattr(value, "data_ptr") and value.data_ptr() % 16 == 0) or \
                (isinstance(value, int) and not isinstance(value, bool) and value % 16 == 0)
            if aligned:
                attrs[(i,)] = [["tt.divisibility", 16]]
        info = dict(kernel=kernel.__name__, smem=None, regs=None, spill_bytes=None, warp_specialized=None)
        compiled = triton.compile(ASTSource(kernel, signature, constants, attrs), target=self.target,
                                  options=options)
        info["smem"] = compiled.metadata.shared
        info["warp_specialized"] = compiled.asm["ttgir"].count("ttg.warp_specialize(") > 0
        if self.cuobjdump:
            import re
            import subprocess
            import tempfile
            with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
                f.write(compiled.asm["cubin"])
                f.flush()
                usage = subprocess.run([self.cuobjdump, "--dump-resource-usage", f.name], capture_output=True,
                                       text=True).stdout
            reg = re.search(r"REG:(\d+)", usage)
            local = re.search(r"LOCAL:(\d+)", usage)
            info["regs"] = int(reg.group(1)) if reg else None
            info["spill_bytes"] = int(local.group(1)) if local else None
        return info


def compile_variant(variant, c, ctx, a, b, compiler):
    """--compile-only counterpart of run_variant: compiles what the configuration would launch."""
    prepare, main, _, _ = VARIANTS[variant]
    row = dict(variant=variant, config=describe(variant, c), params=c, status="ok", max_abs_err=None,
               strict_pass=None, ms=None, main_ms=None, compile_s=None, note="", error=None)
    if variant == "torch":
        row["status"] = "skipped"
        return row
    compiler.launched = []
    try:
        t0 = time.perf_counter()
        main(ctx, c, prepare(ctx, c, a, b))
        row["compile_s"] = round(time.perf_counter() - t0, 2)
    except Exception as exc:
        row["status"] = classify(exc)
        row["error"] = f"{type(exc).__name__}: {str(exc).strip()[:600]}"
        return row
    product = compiler.launched[-1]  # the product kernel is launched last, after the staging passes
    row.update(smem=product["smem"], regs=product["regs"], spill_bytes=product["spill_bytes"],
               warp_specialized=product["warp_specialized"], kernels=compiler.launched)
    if any(k["smem"] > SM90_SHARED_LIMIT for k in compiler.launched):
        row["status"] = "out_of_resources"
        row["error"] = f"shared memory {product['smem']} bytes > {SM90_SHARED_LIMIT}"
    return row


def run_variant(variant, c, ctx, inputs, args, flush):
    prepare, main, uses_tma, emulates = VARIANTS[variant]
    row = dict(variant=variant, config=describe(variant, c), params=c, status="ok", max_abs_err=None,
               strict_pass=None, ms=None, main_ms=None, compile_s=None, note="", error=None)
    if INTERPRET:
        if variant == "torch":
            row["note"] = "CPU torch fp32"
        elif emulates and ctx.emulate:
            row["note"] = "interpreter: TF32 operand handling emulated in-kernel"
        else:
            row["note"] = "interpreter: tl.dot in full fp32 (input_precision ignored)"
        if variant in ("V1", "V2-TMA") and (c["ws"] or c["flatten"]):
            row["note"] += "; flatten/warp_specialize ignored by the interpreter"
    a, b, _ = inputs[0]
    try:
        t0 = time.perf_counter()
        out = main(ctx, c, prepare(ctx, c, a, b))
        if ctx.device == "cuda":
            torch.cuda.synchronize()
        row["compile_s"] = round(time.perf_counter() - t0, 2)
        # Every input set (one per seed): the worst error, and strict only if every set passes. NaN counts
        # as the worst error.
        errs, passes = [], []
        for i, (a_i, b_i, ref64) in enumerate(inputs):
            out_i = out if i == 0 else main(ctx, c, prepare(ctx, c, a_i, b_i))
            err = (out_i.double() - ref64).abs().max().item()
            errs.append(float("inf") if err != err else err)
            passes.append(bool(torch.allclose(out_i, ref64.float(), atol=1e-4, rtol=1e-4)))
        row["max_abs_err"] = max(errs)
        row["strict_pass"] = all(passes)
        row["errs_per_seed"] = errs
        if row["max_abs_err"] == float("inf"):
            row["status"] = "nonfinite_output"
        if ctx.device == "cuda":
            # The same inputs again must give the same bits: a race (e.g. in a warp-specialized pipeline)
            # shows up here even when the error happens to stay small.
            row["deterministic"] = bool(torch.equal(out, main(ctx, c, prepare(ctx, c, a, b))))
            if not row["deterministic"]:
                row["status"] = "nondeterministic"
        if variant.startswith("V2"):
            exact, rel = check_split(a, prepare(ctx, c, a, b))
            row["note"] = (row["note"] + "; " if row["note"] else "") + \
                f"split exact TF32: {exact}, max |hi+lo-x|/|x| = {rel:.1e}"
        if ctx.device == "cuda":
            row["ms"] = time_ms(lambda: main(ctx, c, prepare(ctx, c, a, b)), args.reps, args.warmup, flush)
            staged = prepare(ctx, c, a, b)
            row["main_ms"] = time_ms(lambda: main(ctx, c, staged), args.reps, args.warmup, flush)
            del staged
    except Exception as exc:  # failures are data: record and go on
        row["status"] = classify(exc)
        if INTERPRET and uses_tma and row["status"] == "runtime_error":
            row["status"] = "interpreter_unsupported"
        row["error"] = f"{type(exc).__name__}: {str(exc).strip()[:600]}"
        if args.verbose:
            traceback.print_exc()
    return row


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def print_table(rows, meta):
    v0_best = min((r["ms"] for r in rows if r["variant"] == "V0" and r["strict_pass"] and r["ms"]), default=None)
    torch_ms = next((r["ms"] for r in rows if r["variant"] == "torch" and r["ms"]), None)
    flops = 2.0 * meta["M"] * meta["N"] * meta["K"]
    for r in rows:
        r["speedup_vs_v0_best"] = (v0_best / r["ms"]) if (v0_best and r["ms"]) else None
        r["speedup_vs_torch"] = (torch_ms / r["ms"]) if (torch_ms and r["ms"]) else None
        r["tflops"] = (flops / (r["ms"] * 1e-3) / 1e12) if r["ms"] else None
    header = (f"{'variant':8} {'config':52} {'status':24} {'max err':>9} {'strict':>6} {'ms':>8} "
              f"{'main ms':>8} {'TFLOP/s':>8} {'vs V0':>6} {'vs torch':>8}")
    print()
    print(header)
    print("-" * len(header))
    for r in rows:
        strict = "-" if r["strict_pass"] is None else ("yes" if r["strict_pass"] else "NO")
        print(f"{r['variant']:8} {r['config'][:52]:52} {r['status'][:24]:24} {fmt(r['max_abs_err'], '9.2e')} "
              f"{strict:>6} {fmt(r['ms'], '8.3f')} {fmt(r['main_ms'], '8.3f')} {fmt(r['tflops'], '8.1f')} "
              f"{fmt(r['speedup_vs_v0_best'], '6.2f')} {fmt(r['speedup_vs_torch'], '8.2f')}")
    print()
    if any(r["ms"] for r in rows):
        print(f"3xTF32 floor at {H200_TF32_TFLOPS} TFLOP/s: {meta['floor_3xtf32_ms']:.3f} ms; "
              f"V0 best (strict): {fmt(v0_best, '.3f')} ms; torch: {fmt(torch_ms, '.3f')} ms")
    for r in rows:
        if r["error"]:
            print(f"  [{r['variant']} {r['config']}] {r['status']}: {r['error'].splitlines()[0][:200]}")
        if r["note"]:
            print(f"  [{r['variant']} {r['config']}] note: {r['note']}")


def print_compile_table(rows):
    header = (f"{'variant':8} {'config':52} {'status':18} {'smem KB':>8} {'regs':>5} {'spill B':>7} {'WS':>3} "
              f"{'compile s':>9}")
    print()
    print(header)
    print("-" * len(header))
    for r in rows:
        smem = r.get("smem")
        ws = r.get("warp_specialized")
        print(f"{r['variant']:8} {r['config'][:52]:52} {r['status'][:18]:18} "
              f"{fmt(None if smem is None else smem / 1024, '8.1f')} {fmt(r.get('regs'), '5d')} "
              f"{fmt(r.get('spill_bytes'), '7d')} {'-' if ws is None else ('yes' if ws else 'no'):>3} "
              f"{fmt(r['compile_s'], '9.1f')}")
    print()
    print(f"sm_90 shared-memory limit: {SM90_SHARED_LIMIT} bytes; WS: the product kernel has warp-specialized "
          "partitions")
    for r in rows:
        if r["error"]:
            print(f"  [{r['variant']} {r['config']}] {r['status']}: {r['error'].splitlines()[0][:200]}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shape", nargs=3, type=int, default=[4096, 4096, 4096], metavar=("M", "N", "K"))
    p.add_argument("--quick", action="store_true", help="a couple of configurations per variant")
    p.add_argument("--out", help="write all rows as JSON to this file (rewritten after every row)")
    p.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated subset of " + ",".join(VARIANTS))
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--seed", type=int, default=0, help="seed of the first input set")
    p.add_argument("--seeds", type=int, default=None,
                   help="input sets checked per configuration (default 3 on the GPU, 1 under the interpreter)")
    p.add_argument("--no-emulate", action="store_true", help="interpreter: do not emulate TF32 in V1/V2")
    p.add_argument("--compile-only", action="store_true",
                   help="compile every configuration for sm_90 (H100/H200) without running it; no GPU needed")
    p.add_argument("--num-sms", type=int, default=132, help="--compile-only: persistent grid size (H200: 132)")
    p.add_argument("--verbose", action="store_true", help="print tracebacks of failures")
    args = p.parse_args()

    M, N, K = args.shape
    if args.seeds is None:
        args.seeds = 1 if INTERPRET else 3
    if args.compile_only and INTERPRET:
        sys.exit("--compile-only compiles for the GPU: run it without TRITON_INTERPRET=1")
    device = "cpu" if INTERPRET or args.compile_only or not torch.cuda.is_available() else "cuda"
    if device == "cpu" and not (INTERPRET or args.compile_only):
        sys.exit("no CUDA device: run under TRITON_INTERPRET=1 (small shapes) to check the kernels' math, "
                 "or with --compile-only to compile every configuration for sm_90")
    # The reference and baseline must be true fp32: no TF32 in cuBLAS.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False

    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        num_programs = props.multi_processor_count
        l2 = getattr(props, "L2_cache_size", 0) or 0
        flush = torch.empty(max(128 << 20, 2 * l2) // 4, dtype=torch.float32, device=device)
        device_name = props.name
    elif args.compile_only:
        num_programs = args.num_sms
        flush = None
        device_name = "none (compiled for sm_90, not run)"
    else:
        # A few programs, deliberately not dividing the tile count, so the persistent loops run several
        # tiles per program with an uneven tail.
        num_programs = 3
        flush = None
        device_name = "cpu (Triton interpreter)"
    # TMA descriptors made inside a kernel need a small global scratch per program.
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device=device))

    ctx = Ctx(M, N, K, device, num_programs, emulate=INTERPRET and not args.no_emulate)
    gen = torch.Generator(device="cpu").manual_seed(args.seed)
    a = torch.randn((M, K), generator=gen, dtype=torch.float32).to(device)
    b = torch.randn((K, N), generator=gen, dtype=torch.float32).to(device)
    # One input set per seed (the first is also the timing input), each with its float64 reference.
    inputs = [(a, b, None if args.compile_only else a.double() @ b.double())]
    for seed in range(args.seed + 1, args.seed + (0 if args.compile_only else args.seeds)):
        gen_i = torch.Generator(device="cpu").manual_seed(seed)
        a_i = torch.randn((M, K), generator=gen_i, dtype=torch.float32).to(device)
        b_i = torch.randn((K, N), generator=gen_i, dtype=torch.float32).to(device)
        inputs.append((a_i, b_i, a_i.double() @ b_i.double()))
    compiler = None
    if args.compile_only:
        compiler = OfflineCompiler([ka_matmul_kernel, ka_k_major_kernel, persistent_tma_kernel, tf32_split_kernel,
                                    presplit_kernel, presplit_persistent_tma_kernel])

    meta = dict(M=M, N=N, K=K, device=device_name, torch=torch.__version__, triton=triton.__version__,
                python=platform.python_version(), interpreter=INTERPRET, compile_only=args.compile_only,
                emulate_tf32=ctx.emulate,
                reps=args.reps, warmup=args.warmup, seed=args.seed, seeds=args.seeds, quick=args.quick,
                num_programs=num_programs,
                tolerance="torch.allclose(out, ref64.float(), atol=1e-4, rtol=1e-4) on every seed",
                floor_3xtf32_ms=3 * 2.0 * M * N * K / (H200_TF32_TFLOPS * 1e12) * 1e3,
                flush_bytes=None if flush is None else flush.numel() * 4)
    print(f"matmul_hopper: C = A @ B fp32, M={M} N={N} K={K} on {device_name}; torch {torch.__version__}, "
          f"triton {triton.__version__}" + ("; interpreter" if INTERPRET else ""))

    rows = []

    def finite(x):
        # Strict JSON has no Infinity/NaN: a non-finite error is written as null (the status says why).
        if isinstance(x, float) and x != x or x in (float("inf"), float("-inf")):
            return None
        if isinstance(x, dict):
            return {k: finite(v) for k, v in x.items()}
        if isinstance(x, list):
            return [finite(v) for v in x]
        return x

    def save():
        if args.out:
            with open(args.out, "w") as f:
                json.dump(finite(dict(meta=meta, rows=rows)), f, indent=1, allow_nan=False)

    wanted = [v.strip() for v in args.variants.split(",") if v.strip()]
    for variant in wanted:
        if variant not in VARIANTS:
            sys.exit(f"unknown variant {variant}; choose from {', '.join(VARIANTS)}")
    # Warp-specialized configurations run last: on Hopper that path is the least proven, and a kernel that
    # hangs or faults then costs only the rows after it.
    jobs = [(variant, c) for variant in wanted for c in configs(variant, args.quick)]
    jobs.sort(key=lambda job: bool(job[1].get("ws")))
    context_lost = False
    started = time.perf_counter()
    for variant, c in jobs:
        if context_lost:
            rows.append(dict(variant=variant, config=describe(variant, c), params=c, status="skipped",
                             max_abs_err=None, strict_pass=None, ms=None, main_ms=None, compile_s=None,
                             note="CUDA context lost by an earlier failure", error=None))
            continue
        t0 = time.perf_counter()
        if compiler:
            row = compile_variant(variant, c, ctx, a, b, compiler)
            rows.append(row)
            print(f"  {variant:8} {row['config']:52} {row['status']:18} smem={fmt(row.get('smem'), 'd')} "
                  f"regs={fmt(row.get('regs'), 'd')} spill={fmt(row.get('spill_bytes'), 'd')} "
                  f"ws={row.get('warp_specialized', '-')} ({time.perf_counter() - t0:.1f} s)", flush=True)
            save()
            continue
        row = run_variant(variant, c, ctx, inputs, args, flush)
        rows.append(row)
        strict = "-" if row["strict_pass"] is None else row["strict_pass"]
        print(f"  {variant:8} {row['config']:52} {row['status']:18} err={fmt(row['max_abs_err'], '.2e')} "
              f"strict={strict} ms={fmt(row['ms'], '.3f')} main={fmt(row['main_ms'], '.3f')} "
              f"({time.perf_counter() - t0:.1f} s)", flush=True)
        if row["status"] != "ok" and device == "cuda" and not cuda_alive():
            context_lost = True
        save()
    meta["wall_s"] = round(time.perf_counter() - started, 1)
    order = {v: i for i, v in enumerate(wanted)}
    rows.sort(key=lambda r: order[r["variant"]])  # stable: configuration order kept within a variant
    if compiler:
        print_compile_table(rows)
    else:
        print_table(rows, meta)
    save()


if __name__ == "__main__":
    main()
