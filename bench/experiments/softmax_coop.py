"""Experiment: where the single-read cooperative softmax of long rows loses time, and which changes pay.

    python3 bench/experiments/softmax_coop.py [--rows 4096] [--cols 393216] [--set NAME] [--rounds N] [--out FILE.json]
    NAME: exchange, tagged (default), pipe, regs, reload, spin, prefetch, keep, decide, family

The reduction family's cooperative softmax (families/reduction/kernel.py.in, ka_softmax_coop_kernel) has
SPLIT co-resident programs share a row, each holding its CHUNK of the row in registers; they exchange the
chunk's max and sum of exponentials through global memory and a per-row counter, so the row is read once.
At 4096 x 393216 fp32 on an H200 it ran at 3.69 ms (split 96, 4 warps), 1.28x torch.compile; the input
read once and the output written once at 4.1 TB/s (a copy's rate there) would take 3.14 ms.

This script times, in one harness (L2 flushed before every repetition, CUDA events, median), the
family's kernel and variants of it:
  - split/warps pairs that keep 32 elements per thread (96/4, 192/2, 384/1, 48/8) and 16 (96/8, 192/4, 384/2):
    fewer warps per program means cheaper barriers in the in-program reductions;
  - `last`: the program that arrives last at the row's counter combines the SPLIT pairs and publishes the
    row's max and sum; the others wait for that one flag and read two numbers instead of SPLIT pairs;
  - `cs`: the output stored with the streaming cache hint (.cs), so it does not displace other lines;
  - `exp1`: each thread keeps exp(x - chunk max) instead of x, so the output is one multiply per element;
  - `tagged`: no counter: each program publishes its (max, sum) as one 64-bit word in a slot of its own that
    starts as -1, and waits until none of its row's slots is -1 (the data is the flag; no single address
    that every program of the row polls);
  - `nosync`: the exchange left out (wrong results, timing only), the streaming ceiling of the pattern;
  - `pipe` (--set pipe): the tagged exchange with the next row's chunk loaded before the wait on this row's,
    so the wait overlaps a load; `loop` is the same code without that; `sleep` adds a nanosleep between polls;
  - `reload` (--set reload): the tagged exchange with the chunk walked in tiles for its max and sum and read
    again after the exchange, the second read meant to come from L2 (the rows in flight fit it), so the
    registers do not hold the chunk and more rows are in flight; `hint` sets evict_last / evict_first;
  - `spin` (--set spin): the tagged exchange waited on per thread (inline PTX: each thread spins on its own
    slots, so a poll is no block-wide sum and a slot already seen is not read again); `pair` also takes the
    chunk's (max, sum), and the row's, from one reduction of (max, sum) pairs instead of two reductions;
  - `family ... +maxnreg N` (--set regs): the family's own kernel, loaded from its template, under a register
    cap, so that more programs share an SM and more rows are in flight; softmax and log-softmax;
  - `prefetch` (--set prefetch): the spin wait in a row loop that Triton's software pipeliner takes (no nested
    loop), so the next row's chunk is copied to shared memory (cp.async) during this row; `sN` is the
    pipeliner's stages (s1: none); `keep` (--set keep, decide) holds exp(x - chunk max) instead of x, so the
    output is one multiply an element;
  - `--set family`: the family's kernel as the template has it now, by exchange (counter, tagged, spin).
With --rounds N every variant and torch.compile are timed N times round-robin after the first pass, and each
row's figure is the median of its rounds (a drift of the GPU's speed during the run lands on all alike).
Each correct variant is checked against torch.softmax (atol = rtol = 1e-4, the strict policy); rows are
printed as a table and written as JSON with --out.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

import torch
import triton
import triton.language as tl

from harness import l2_flush_buffer, reduction_family_kernels, time_ms


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax(x_ptr, out_ptr, stats_ptr, count_ptr, final_ptr, ROWS, GROUPS, R: tl.constexpr,
                 SPLIT: tl.constexpr, SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr,
                 SYNC: tl.constexpr, LAST: tl.constexpr, STREAM_STORE: tl.constexpr, REUSE_EXP: tl.constexpr):
    pid = tl.program_id(0)
    part = pid % SPLIT
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_ok = cols < R
    parts = tl.arange(0, SPLIT_P2)
    row = pid // SPLIT
    while row < ROWS:
        v = tl.load(x_ptr + row.to(tl.int64) * R + cols, mask=col_ok, other=float("-inf")).to(tl.float32)
        mx = tl.max(v, axis=0)
        e = tl.exp(v - mx)
        sm = tl.where(mx == float("-inf"), 0.0, tl.sum(e, axis=0))
        if REUSE_EXP:
            v = e  # keep exp(v - mx) instead of v: the output is then one multiply, not an exp
        if SYNC:
            stat = stats_ptr + (row.to(tl.int64) * SPLIT + part) * 2
            tl.store(stat, mx)
            tl.store(stat + 1, sm)
            tl.debug_barrier()
            if LAST:
                # The last to arrive combines the pairs and publishes the row's (max, sum), then raises the
                # row's flag (count SPLIT + 1); the others wait for the flag and read two numbers.
                old = tl.atomic_add(count_ptr + row, 1, sem="acq_rel", scope="gpu")
                if old == SPLIT - 1:
                    pm = parts < SPLIT
                    stats = stats_ptr + (row.to(tl.int64) * SPLIT + parts) * 2
                    ms = tl.load(stats, mask=pm, other=float("-inf"), cache_modifier=".cg")
                    ss = tl.load(stats + 1, mask=pm, other=0.0, cache_modifier=".cg")
                    rmax = tl.max(ms, axis=0)
                    rsum = tl.sum(ss * tl.exp(ms - rmax), axis=0)
                    tl.store(final_ptr + row.to(tl.int64) * 2, rmax)
                    tl.store(final_ptr + row.to(tl.int64) * 2 + 1, rsum)
                    tl.debug_barrier()
                    tl.atomic_add(count_ptr + row, 1, sem="release", scope="gpu")
                seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
                while seen < SPLIT + 1:
                    seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
                row_max = tl.load(final_ptr + row.to(tl.int64) * 2, cache_modifier=".cg")
                row_sum = tl.load(final_ptr + row.to(tl.int64) * 2 + 1, cache_modifier=".cg")
            else:
                tl.atomic_add(count_ptr + row, 1, sem="release", scope="gpu")
                seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
                while seen < SPLIT:
                    seen = tl.atomic_add(count_ptr + row, 0, sem="acquire", scope="gpu")
                pm = parts < SPLIT
                stats = stats_ptr + (row.to(tl.int64) * SPLIT + parts) * 2
                ms = tl.load(stats, mask=pm, other=float("-inf"), cache_modifier=".cg")
                ss = tl.load(stats + 1, mask=pm, other=0.0, cache_modifier=".cg")
                row_max = tl.max(ms, axis=0)
                row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        else:
            row_max = mx
            row_sum = sm
        if REUSE_EXP:
            y = v * (tl.exp(mx - row_max) / row_sum)
        else:
            y = tl.exp(v - row_max) / row_sum
        if STREAM_STORE:
            tl.store(out_ptr + row.to(tl.int64) * R + cols, y, mask=col_ok, cache_modifier=".cs")
        else:
            tl.store(out_ptr + row.to(tl.int64) * R + cols, y, mask=col_ok)
        row += GROUPS


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax_tagged(x_ptr, out_ptr, words_ptr, ROWS, GROUPS, R: tl.constexpr, SPLIT: tl.constexpr,
                        SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr):
    # The exchange without a shared counter: each program publishes its chunk's (max, sum) as one 64-bit
    # word in a slot of its own (an aligned 64-bit write is seen whole or not at all), and the slots start
    # as -1 (all ones: a NaN sum, which no chunk produces). A program waits until none of its row's SPLIT
    # slots is -1, reading them with volatile loads from L2: the data is its own flag, so there is no
    # release/acquire pair, and SPLIT pollers no longer contend for one address.
    pid = tl.program_id(0)
    part = pid % SPLIT
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_ok = cols < R
    parts = tl.arange(0, SPLIT_P2)
    pm = parts < SPLIT
    row = pid // SPLIT
    while row < ROWS:
        v = tl.load(x_ptr + row.to(tl.int64) * R + cols, mask=col_ok, other=float("-inf")).to(tl.float32)
        mx = tl.max(v, axis=0)
        sm = tl.where(mx == float("-inf"), 0.0, tl.sum(tl.exp(v - mx), axis=0))
        hi = mx.to(tl.int32, bitcast=True).to(tl.int64)
        lo = sm.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
        slots = words_ptr + row.to(tl.int64) * SPLIT
        tl.atomic_xchg(slots + part, (hi << 32) | lo, sem="relaxed", scope="gpu")
        w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        while tl.sum((w == -1).to(tl.int32), axis=0) > 0:
            w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        ms = tl.where(pm, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), float("-inf"))
        ss = tl.where(pm, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)
        row_max = tl.max(ms, axis=0)
        row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        y = tl.exp(v - row_max) / row_sum
        tl.store(out_ptr + row.to(tl.int64) * R + cols, y, mask=col_ok)
        row += GROUPS


# Each thread spins on its own slots until they are not -1 (no block-wide reduction per poll; a slot seen once
# is not read again; bounded, so a bug cannot hang the GPU): the family's own wait (ka_wait_slots in
# families/reduction/kernel.py.in), so the spin and prefetch variants wait exactly as its spin exchange does.
wait_slot = reduction_family_kernels().ka_wait_slots


@triton.jit
def combine_max_sum(m1, s1, m2, s2):
    # (max, sum of exp(x - max)) pairs: rescale the smaller side's sum to the larger max (one exp); a side
    # whose max is -inf holds nothing and adds 0.
    big = tl.maximum(m1, m2)
    small = tl.minimum(m1, m2)
    first_big = m1 >= m2
    s_big = tl.where(first_big, s1, s2)
    s_small = tl.where(first_big, s2, s1)
    return big, s_big + tl.where(small == float("-inf"), 0.0, s_small * tl.exp(small - big))


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax_spin(x_ptr, out_ptr, words_ptr, ROWS, GROUPS, R: tl.constexpr, SPLIT: tl.constexpr,
                      SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr, PAIR: tl.constexpr):
    # The tagged exchange with a per-thread wait (wait_slot) instead of polling all slots with a block-wide
    # sum each time; with PAIR, the chunk's (max, sum) and the row's come from one reduction of pairs each
    # instead of a max and then a sum (one barrier round fewer each).
    pid = tl.program_id(0)
    part = pid % SPLIT
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_ok = cols < R
    parts = tl.arange(0, SPLIT_P2)
    pm = parts < SPLIT
    row = pid // SPLIT
    while row < ROWS:
        v = tl.load(x_ptr + row.to(tl.int64) * R + cols, mask=col_ok, other=float("-inf")).to(tl.float32)
        if PAIR:
            mx, sm = tl.reduce((v, tl.where(v == float("-inf"), 0.0, 1.0)), 0, combine_max_sum)
        else:
            mx = tl.max(v, axis=0)
            sm = tl.where(mx == float("-inf"), 0.0, tl.sum(tl.exp(v - mx), axis=0))
        hi = mx.to(tl.int32, bitcast=True).to(tl.int64)
        lo = sm.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
        slots = words_ptr + row.to(tl.int64) * SPLIT
        tl.atomic_xchg(slots + part, (hi << 32) | lo, sem="relaxed", scope="gpu")
        w = wait_slot(slots + parts, pm)
        ms = tl.where(pm, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), float("-inf"))
        ss = tl.where(pm, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)
        if PAIR:
            row_max, row_sum = tl.reduce((ms, ss), 0, combine_max_sum)
        else:
            row_max = tl.max(ms, axis=0)
            row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        y = tl.exp(v - row_max) / row_sum
        tl.store(out_ptr + row.to(tl.int64) * R + cols, y, mask=col_ok)
        row += GROUPS


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax_prefetch(x_ptr, out_ptr, words_ptr, ROWS, GROUPS, R: tl.constexpr, SPLIT: tl.constexpr,
                          SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr, STAGES: tl.constexpr, SYNC: tl.constexpr,
                          LOG: tl.constexpr, KEEP: tl.constexpr):
    # The spin variant's per-thread wait (inline PTX, so no loop nests in the row loop) in a row loop that
    # Triton's software pipeliner takes: with STAGES 2 it copies the program's next chunk into shared memory
    # (cp.async) while this row waits, computes and stores, so the next row's read overlaps the exchange
    # without holding a second chunk in registers (the `pipe` round's cost). A nested `while` (the tagged
    # poll) keeps the pipeliner off the loop. With KEEP (softmax only) the registers hold exp(x - chunk max)
    # instead of x, so the output is one multiply an element instead of an exponential and a division.
    pid = tl.program_id(0)
    part = pid % SPLIT
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_ok = cols < R
    parts = tl.arange(0, SPLIT_P2)
    pm = parts < SPLIT
    for row in tl.range(pid // SPLIT, ROWS, GROUPS, num_stages=STAGES):
        v = tl.load(x_ptr + row.to(tl.int64) * R + cols, mask=col_ok, other=float("-inf")).to(tl.float32)
        mx = tl.max(v, axis=0)
        if KEEP:
            v = tl.where(mx == float("-inf"), 0.0, tl.exp(v - mx))
            sm = tl.sum(v, axis=0)
        else:
            sm = tl.where(mx == float("-inf"), 0.0, tl.sum(tl.exp(v - mx), axis=0))
        if SYNC:
            hi = mx.to(tl.int32, bitcast=True).to(tl.int64)
            lo = sm.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
            slots = words_ptr + row.to(tl.int64) * SPLIT
            tl.atomic_xchg(slots + part, (hi << 32) | lo, sem="relaxed", scope="gpu")
            w = wait_slot(slots + parts, pm)
            ms = tl.where(pm, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), float("-inf"))
            ss = tl.where(pm, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)
            row_max = tl.max(ms, axis=0)
            row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        else:
            row_max, row_sum = mx, sm
        if LOG:
            y = v - row_max - tl.log(row_sum)
        elif KEEP:
            y = v * (tl.exp(mx - row_max) / row_sum)
        else:
            y = tl.exp(v - row_max) / row_sum
        tl.store(out_ptr + row.to(tl.int64) * R + cols, y, mask=col_ok)


@triton.jit
def backoff(x):
    # A short sleep between polls, so that the waiting programs leave L2 to the loads of the others.
    return tl.inline_asm_elementwise("nanosleep.u32 100;\n mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax_pipe(x_ptr, out_ptr, words_ptr, ROWS, GROUPS, R: tl.constexpr, SPLIT: tl.constexpr,
                      SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr, PIPE: tl.constexpr, SLEEP: tl.constexpr):
    # The tagged exchange, software-pipelined (PIPE): the chunk of the program's next row is loaded before it
    # waits on this row's exchange, so the wait overlaps a load instead of leaving the program idle; its
    # (max, sum) is published after this row's output is written. Twice the data registers per thread, so
    # it pays only with small chunks per thread (16 or fewer elements). SLEEP adds a backoff to the polls.
    pid = tl.program_id(0)
    part = pid % SPLIT
    cols = part * CHUNK + tl.arange(0, CHUNK)
    col_ok = cols < R
    parts = tl.arange(0, SPLIT_P2)
    pm = parts < SPLIT
    row = pid // SPLIT
    v = tl.load(x_ptr + row.to(tl.int64) * R + cols, mask=col_ok & (row < ROWS), other=float("-inf")).to(tl.float32)
    mx = tl.max(v, axis=0)
    sm = tl.where(mx == float("-inf"), 0.0, tl.sum(tl.exp(v - mx), axis=0))
    if row < ROWS:
        word = (mx.to(tl.int32, bitcast=True).to(tl.int64) << 32) | (sm.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF)
        tl.atomic_xchg(words_ptr + row.to(tl.int64) * SPLIT + part, word, sem="relaxed", scope="gpu")
    while row < ROWS:
        nxt = row + GROUPS
        if PIPE:
            v2 = tl.load(x_ptr + nxt.to(tl.int64) * R + cols, mask=col_ok & (nxt < ROWS),
                         other=float("-inf")).to(tl.float32)
        slots = words_ptr + row.to(tl.int64) * SPLIT
        w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        while tl.sum((w == -1).to(tl.int32), axis=0) > 0:
            if SLEEP:
                backoff(part)
            w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        ms = tl.where(pm, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), float("-inf"))
        ss = tl.where(pm, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)
        row_max = tl.max(ms, axis=0)
        row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        tl.store(out_ptr + row.to(tl.int64) * R + cols, tl.exp(v - row_max) / row_sum, mask=col_ok)
        if not PIPE:
            v2 = tl.load(x_ptr + nxt.to(tl.int64) * R + cols, mask=col_ok & (nxt < ROWS),
                         other=float("-inf")).to(tl.float32)
        v = v2
        mx = tl.max(v, axis=0)
        sm = tl.where(mx == float("-inf"), 0.0, tl.sum(tl.exp(v - mx), axis=0))
        if nxt < ROWS:
            word = (mx.to(tl.int32, bitcast=True).to(tl.int64) << 32) | \
                (sm.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF)
            tl.atomic_xchg(words_ptr + nxt.to(tl.int64) * SPLIT + part, word, sem="relaxed", scope="gpu")
        row = nxt


@triton.jit(do_not_specialize=["ROWS", "GROUPS"])
def coop_softmax_reload(x_ptr, out_ptr, words_ptr, ROWS, GROUPS, R: tl.constexpr, SPLIT: tl.constexpr,
                        SPLIT_P2: tl.constexpr, CHUNK: tl.constexpr, TILE: tl.constexpr, HINT: tl.constexpr):
    # The tagged exchange without holding the chunk: a program walks its chunk in TILEs for the max and sum,
    # exchanges, then reads the chunk again to write it. The rows in flight (a few tens of MB) fit the L2, so
    # the second read should come from L2, not HBM; the registers no longer hold the chunk, so more programs,
    # hence more rows, are in flight. HINT keeps the first read in L2 (evict_last) and lets the second go.
    pid = tl.program_id(0)
    part = pid % SPLIT
    offs = tl.arange(0, TILE)
    parts = tl.arange(0, SPLIT_P2)
    pm = parts < SPLIT
    row = pid // SPLIT
    while row < ROWS:
        base = x_ptr + row.to(tl.int64) * R + part * CHUNK
        m_i = float("-inf")
        l_i = 0.0
        for t in tl.static_range(0, CHUNK, TILE):
            ok = part * CHUNK + t + offs < R
            if HINT:
                v = tl.load(base + t + offs, mask=ok, other=float("-inf"), eviction_policy="evict_last")
            else:
                v = tl.load(base + t + offs, mask=ok, other=float("-inf"))
            new_m = tl.maximum(m_i, tl.max(v, axis=0))
            scale = tl.where(new_m == float("-inf"), 0.0, tl.exp(m_i - new_m))
            l_i = l_i * scale + tl.where(new_m == float("-inf"), 0.0, tl.sum(tl.exp(v - new_m), axis=0))
            m_i = new_m
        slots = words_ptr + row.to(tl.int64) * SPLIT
        word = (m_i.to(tl.int32, bitcast=True).to(tl.int64) << 32) | (l_i.to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF)
        tl.atomic_xchg(slots + part, word, sem="relaxed", scope="gpu")
        w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        while tl.sum((w == -1).to(tl.int32), axis=0) > 0:
            w = tl.load(slots + parts, mask=pm, other=0, volatile=True)
        ms = tl.where(pm, (w >> 32).to(tl.int32).to(tl.float32, bitcast=True), float("-inf"))
        ss = tl.where(pm, w.to(tl.int32).to(tl.float32, bitcast=True), 0.0)
        row_max = tl.max(ms, axis=0)
        row_sum = tl.sum(ss * tl.exp(ms - row_max), axis=0)
        obase = out_ptr + row.to(tl.int64) * R + part * CHUNK
        for t in tl.static_range(0, CHUNK, TILE):
            ok = part * CHUNK + t + offs < R
            if HINT:
                v = tl.load(base + t + offs, mask=ok, other=0.0, eviction_policy="evict_first")
            else:
                v = tl.load(base + t + offs, mask=ok, other=0.0)
            tl.store(obase + t + offs, tl.exp(v - row_max) / row_sum, mask=ok)
        row += GROUPS


@triton.jit
def fill_i64(ptr, n, value, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ptr + offs, tl.full([BLOCK], value, tl.int64), mask=offs < n)


@triton.jit
def zero_i32(ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ptr + offs, tl.zeros([BLOCK], tl.int32), mask=offs < n)


def resident_programs(compiled, warps: int) -> tuple[int, int]:
    props = torch.cuda.get_device_properties(0)
    compiled._init_handles()
    regs_per_warp = -(-max(compiled.n_regs, 1) * 32 // 256) * 256
    by_regs = props.regs_per_multiprocessor // (regs_per_warp * warps)
    by_threads = props.max_threads_per_multi_processor // (warps * 32)
    by_smem = props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024)
    return compiled.n_regs, max(0, min(by_regs, by_threads, by_smem, 32))


def coop_chunk(r: int, split: int) -> int:
    # Each of the SPLIT programs of a row holds a power-of-two share of it.
    return triton.next_power_of_2(triton.cdiv(r, split))


def launch_on_slots(kernel, x: torch.Tensor, out: torch.Tensor, split: int, warps: int, max_rows=None, **extra):
    """A persistent cooperative kernel that exchanges through one 64-bit slot per program (all -1 before
    every call), sized so that all its programs are resident at once. Returns (run, info)."""
    rows, r = x.shape
    chunk = coop_chunk(r, split)
    words = torch.empty(rows * split, dtype=torch.int64, device=x.device)
    meta = dict(R=r, SPLIT=split, SPLIT_P2=triton.next_power_of_2(split), CHUNK=chunk, num_warps=warps, **extra)
    n = words.numel()
    if x.device.type != "cuda":  # the interpreter: programs run one after another, so one per row only
        groups, info = rows, {"chunk": chunk}
    else:
        compiled = kernel.warmup(x, out, words, rows, rows, grid=(1,), **meta)
        regs, per_sm = resident_programs(compiled, warps)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        groups = min(rows, (sms * per_sm) // split, max_rows or rows)
        if groups < 1:
            raise RuntimeError(f"{split} programs of {regs} registers do not fit at once")
        info = {"regs": regs, "programs_per_sm": per_sm, "rows_in_flight": groups, "chunk": chunk}

    def run():
        fill_i64[(triton.cdiv(n, 1024),)](words, n, -1, BLOCK=1024)
        kernel[(groups * split,)](x, out, words, rows, groups, **meta)
    return run, info


class Variant:
    def __init__(self, split: int, warps: int, sync=True, last=False, stream=False, reuse=False, tagged=False,
                 pipe=None, sleep=False):
        self.split, self.warps, self.sync, self.last, self.stream = split, warps, sync, last, stream
        self.reuse, self.tagged, self.pipe, self.sleep = reuse, tagged, pipe, sleep

    @property
    def name(self) -> str:
        tags = [t for t, on in (("tagged", self.tagged), ("last", self.last), ("cs", self.stream), ("exp1", self.reuse),
                                ("nosync", not self.sync), ("pipe", self.pipe is True),
                                ("loop", self.pipe is False), ("sleep", self.sleep)) if on]
        return f"split{self.split}/w{self.warps}" + ("+" + "+".join(tags) if tags else "")

    def build(self, x: torch.Tensor, out: torch.Tensor):
        if self.pipe is not None:
            return self.build_pipe(x, out)
        if self.tagged:
            return self.build_tagged(x, out)
        rows, r = x.shape
        chunk = coop_chunk(r, self.split)
        stats = torch.empty(rows * self.split * 2, dtype=torch.float32, device=x.device)
        final = torch.empty(rows * 2, dtype=torch.float32, device=x.device)
        count = torch.empty(rows, dtype=torch.int32, device=x.device)
        meta = dict(R=r, SPLIT=self.split, SPLIT_P2=triton.next_power_of_2(self.split), CHUNK=chunk, SYNC=self.sync,
                    LAST=self.last, STREAM_STORE=self.stream, REUSE_EXP=self.reuse, num_warps=self.warps)
        compiled = coop_softmax.warmup(x, out, stats, count, final, rows, rows, grid=(1,), **meta)
        regs, per_sm = resident_programs(compiled, self.warps)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        groups = min(rows, (sms * per_sm) // self.split)
        if groups < 1:
            raise RuntimeError(f"{self.split} programs of {regs} registers do not fit at once")

        def run():
            zero_i32[(triton.cdiv(rows, 1024),)](count, rows, BLOCK=1024)
            coop_softmax[(groups * self.split,)](x, out, stats, count, final, rows, groups, **meta)
        return run, {"regs": regs, "programs_per_sm": per_sm, "rows_in_flight": groups, "chunk": chunk}


    def build_tagged(self, x: torch.Tensor, out: torch.Tensor):
        return launch_on_slots(coop_softmax_tagged, x, out, self.split, self.warps)

    def build_pipe(self, x: torch.Tensor, out: torch.Tensor):
        return launch_on_slots(coop_softmax_pipe, x, out, self.split, self.warps, PIPE=self.pipe, SLEEP=self.sleep)


class SpinVariant:
    """coop_softmax_spin: the tagged exchange waited on per thread, optionally with pair reductions."""

    def __init__(self, split: int, warps: int, pair: bool):
        self.split, self.warps, self.pair = split, warps, pair
        self.sync = True

    @property
    def name(self) -> str:
        return f"split{self.split}/w{self.warps}+spin" + ("+pair" if self.pair else "")

    def build(self, x: torch.Tensor, out: torch.Tensor):
        return launch_on_slots(coop_softmax_spin, x, out, self.split, self.warps, PAIR=self.pair)


class PrefetchVariant:
    """coop_softmax_prefetch: the next row's chunk copied to shared memory by Triton's pipeliner during this row."""

    def __init__(self, split: int, warps: int, stages: int, sync=True, log=False, keep=False):
        self.split, self.warps, self.stages, self.sync, self.log, self.keep = split, warps, stages, sync, log, keep

    @property
    def name(self) -> str:
        return (f"prefetch{'-log' if self.log else ''} {self.split}/w{self.warps} s{self.stages}"
                + ("+keep" if self.keep else "") + ("" if self.sync else "+nosync"))

    def build(self, x: torch.Tensor, out: torch.Tensor):
        return launch_on_slots(coop_softmax_prefetch, x, out, self.split, self.warps, STAGES=self.stages,
                               SYNC=self.sync, LOG=self.log, KEEP=self.keep)


class ReloadVariant:
    """coop_softmax_reload: the chunk read twice, the second time (it is hoped) from L2."""

    def __init__(self, split: int, warps: int, tile: int, hint=False, max_rows=None):
        self.split, self.warps, self.tile, self.hint, self.max_rows = split, warps, tile, hint, max_rows
        self.sync = True

    @property
    def name(self) -> str:
        return (f"reload {self.split}/w{self.warps} t{self.tile}" + ("+hint" if self.hint else "")
                + (f" rows<={self.max_rows}" if self.max_rows else ""))

    def build(self, x: torch.Tensor, out: torch.Tensor):
        tile = min(self.tile, coop_chunk(x.shape[1], self.split))
        return launch_on_slots(coop_softmax_reload, x, out, self.split, self.warps, self.max_rows, TILE=tile,
                               HINT=self.hint)


class FamilyVariant:
    """The family's ka_softmax_coop_kernel as the template has it now (tagged exchange unless told), optionally
    with a register cap (maxnreg): fewer registers per thread let more programs share an SM, so more rows are in
    flight, at the price of a few spilled values."""

    def __init__(self, split: int, warps: int, maxnreg=None, log=False, exchange=1):
        self.split, self.warps, self.maxnreg, self.log, self.exchange = split, warps, maxnreg, log, exchange
        self.sync = True

    @property
    def name(self) -> str:
        cap = f"+maxnreg{self.maxnreg}" if self.maxnreg else ""
        how = {0: "+counter", 1: "", 2: "+spin"}[self.exchange]
        return f"family{'-log' if self.log else ''} {self.split}/w{self.warps}{how}{cap}"

    def build(self, x: torch.Tensor, out: torch.Tensor):
        fam = FAMILY
        rows, r = x.shape
        chunk = coop_chunk(r, self.split)
        # The buffers the family's launcher makes: for the counter, (max, sum) pairs and a counter per row at 0;
        # for the slot exchanges, a 64-bit slot per program at -1.
        if self.exchange == 0:
            words = torch.empty(rows * self.split * 2, dtype=torch.float32, device=x.device)
            count = torch.empty(rows, dtype=torch.int32, device=x.device)
            fill, n, value = count, rows, 0
        else:
            words = torch.empty(rows * self.split, dtype=torch.int64, device=x.device)
            count = words
            fill, n, value = words, words.numel(), -1
        meta = dict(R=r, LOG=self.log, SPLIT=self.split, SPLIT_P2=triton.next_power_of_2(self.split), CHUNK=chunk,
                    EXCHANGE=self.exchange, num_warps=self.warps)
        if self.maxnreg:
            meta["maxnreg"] = self.maxnreg
        compiled = fam.ka_softmax_coop_kernel.warmup(x, out, words, count, rows, rows, grid=(1,), **meta)
        sms, per_sm = fam.ka_resident_programs(compiled, x.device)
        groups = min(rows, (sms * per_sm) // self.split)
        if groups < 1:
            raise RuntimeError(f"{self.split} programs of {compiled.n_regs} registers do not fit at once")

        def run():
            fam.ka_fill_kernel[(triton.cdiv(n, 1024),)](fill, n, value, BLOCK=1024)
            fam.ka_softmax_coop_kernel[(groups * self.split,)](x, out, words, count, rows, groups, **meta)
        return run, {"regs": compiled.n_regs, "spills": compiled.n_spills, "programs_per_sm": per_sm,
                     "rows_in_flight": groups, "chunk": chunk}


FAMILY = None


def main() -> int:
    global FAMILY
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=393216)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every variant and torch.compile this many times round-robin; report the median round")
    ap.add_argument("--set", choices=["exchange", "tagged", "pipe", "regs", "reload", "spin", "prefetch", "keep", "decide", "family"], default="tagged")
    ap.add_argument("--out")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("softmax_coop: needs a CUDA GPU (the programs of a row wait on each other)", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    x = torch.randn(args.rows, args.cols, device="cuda", dtype=torch.float32)
    out = torch.empty_like(x)
    flush = l2_flush_buffer()
    ref = torch.softmax(x, dim=1)
    ref_log = torch.log_softmax(x, dim=1) if args.set in ("regs", "prefetch", "keep", "decide", "family") else None

    rows = []
    eager = time_ms(lambda: torch.softmax(x, dim=1), flush, args.reps)
    compiled_fn = torch.compile(lambda t: torch.softmax(t, dim=1))
    compiled_fn(x)
    compiled = time_ms(lambda: compiled_fn(x), flush, args.reps)
    rows.append({"variant": "torch eager", "ms": eager})
    rows.append({"variant": "torch.compile", "ms": compiled})

    if args.set == "exchange":
        # The first round: split/warps pairs and changes to the counter exchange (results/softmax_coop.h200.1.json).
        pairs = [(96, 4), (192, 2), (384, 1), (48, 8), (96, 8), (192, 4), (384, 2), (96, 2), (192, 1)]
        variants = [Variant(s, w) for s, w in pairs]
        extra = [(96, 4), (192, 2), (384, 1)]
        variants += [Variant(s, w, last=True) for s, w in extra]
        variants += [Variant(s, w, stream=True) for s, w in extra[:2]]
        variants += [Variant(s, w, reuse=True) for s, w in extra]
        variants += [Variant(s, w, reuse=True, last=True) for s, w in extra]
        variants += [Variant(s, w, sync=False) for s, w in extra]
    elif args.set == "regs":
        # The fourth round: the family's kernel under register caps, softmax and log-softmax.
        FAMILY = reduction_family_kernels()
        variants = []
        for log in (False, True):
            for s, w, caps in ((96, 4, (None, 56, 48, 40)), (192, 2, (None, 56, 48)), (48, 8, (None, 56, 48))):
                variants += [FamilyVariant(s, w, cap, log) for cap in caps]
    elif args.set == "reload":
        # The fifth round: the chunk read twice, the second read meant to hit L2.
        variants = [Variant(96, 4, tagged=True)]
        for s, w, t in ((96, 4, 1024), (96, 4, 2048), (96, 4, 4096), (96, 8, 2048), (48, 8, 2048), (192, 2, 1024),
                        (192, 4, 1024), (48, 16, 4096), (24, 16, 4096)):
            variants.append(ReloadVariant(s, w, t))
        for s, w, t in ((96, 4, 1024), (96, 8, 2048), (48, 8, 2048)):
            variants.append(ReloadVariant(s, w, t, hint=True))
        for cap in (8, 12, 16):
            variants.append(ReloadVariant(96, 4, 1024, hint=True, max_rows=cap))
    elif args.set == "spin":
        # The seventh round: the wait on the slots per thread (no block-wide poll), and pair reductions.
        FAMILY = reduction_family_kernels()
        variants = [FamilyVariant(96, 4)]
        variants += [SpinVariant(s, w, pair) for pair in (False, True) for s, w in ((96, 4), (192, 2), (384, 1))]
        variants += [Variant(s, w, sync=False) for s, w in ((96, 4), (384, 1))]
        variants += [FamilyVariant(96, 4)]
    elif args.set == "prefetch":
        # The eighth round: the next row's chunk prefetched into shared memory by the pipeliner.
        FAMILY = reduction_family_kernels()
        variants = [FamilyVariant(96, 4), SpinVariant(96, 4, False)]
        variants += [PrefetchVariant(s, w, 2) for s, w in ((96, 4), (192, 2), (96, 2), (192, 4), (48, 8), (128, 4))]
        variants += [PrefetchVariant(s, w, 3) for s, w in ((96, 4), (192, 2), (192, 4))]
        variants += [PrefetchVariant(s, w, 2, sync=False) for s, w in ((96, 4), (192, 2))]
        variants += [FamilyVariant(96, 4, log=True), PrefetchVariant(96, 4, 2, log=True),
                     PrefetchVariant(192, 2, 2, log=True)]
        variants += [FamilyVariant(96, 4)]
    elif args.set == "keep":
        # The ninth round: the prefetching kernel holding exp(x - chunk max), so the output is one multiply.
        FAMILY = reduction_family_kernels()
        variants = [FamilyVariant(96, 4), PrefetchVariant(96, 4, 2)]
        variants += [PrefetchVariant(s, w, st, keep=True) for s, w, st in ((96, 4, 2), (96, 4, 1), (192, 2, 2), (96, 2, 2),
                                                                           (48, 8, 2), (64, 4, 2), (96, 4, 3))]
        variants += [PrefetchVariant(96, 4, 2, sync=False, keep=True), PrefetchVariant(96, 4, 2, log=True),
                     FamilyVariant(96, 4, log=True), PrefetchVariant(96, 4, 2, keep=True), FamilyVariant(96, 4)]
    elif args.set == "decide":
        # The tenth round, with --rounds: the family's kernel against the spin wait, prefetching and KEEP.
        FAMILY = reduction_family_kernels()
        variants = [FamilyVariant(96, 4), PrefetchVariant(96, 4, 1), PrefetchVariant(96, 4, 1, keep=True),
                    PrefetchVariant(96, 4, 2), PrefetchVariant(96, 4, 2, keep=True), PrefetchVariant(192, 2, 2, keep=True),
                    FamilyVariant(96, 4, log=True), PrefetchVariant(96, 4, 1, log=True),
                    PrefetchVariant(96, 4, 2, log=True)]
    elif args.set == "family":
        # The family's kernel as the template has it now, by exchange, against the experiment's best.
        FAMILY = reduction_family_kernels()
        variants = [FamilyVariant(96, 4, exchange=e, log=log) for log in (False, True) for e in (2, 1, 0)]
        variants += [PrefetchVariant(96, 4, 1, keep=True), PrefetchVariant(192, 2, 1, keep=True)]
        variants += [FamilyVariant(s, w, exchange=2) for s, w in ((192, 2), (48, 8), (96, 2))]
    elif args.set == "pipe":
        # The third round: the tagged exchange with the next row's load issued before the wait (pipe), the
        # same code without that (loop), and a backoff between polls (sleep).
        variants = [Variant(96, 4, tagged=True), Variant(96, 4, pipe=False)]
        for s, w in ((96, 8), (192, 4), (384, 2), (192, 2), (96, 4), (48, 8)):
            variants.append(Variant(s, w, pipe=True))
        variants += [Variant(s, w, pipe=False, sleep=True) for s, w in ((96, 4), (192, 2), (384, 1))]
        variants += [Variant(s, w, pipe=True, sleep=True) for s, w in ((96, 8), (192, 4), (384, 2))]
    else:
        # The second round: the counter against self-flagging 64-bit slots.
        variants = [Variant(96, 4), Variant(96, 2)]
        variants += [Variant(s, w, tagged=True) for s, w in ((96, 4), (96, 2), (192, 2), (192, 1), (384, 1), (48, 8),
                                                              (48, 4), (96, 8), (192, 4))]
        variants += [Variant(s, w, sync=False) for s, w in ((96, 4), (96, 2), (192, 2), (384, 1))]
    floor_ms = 2 * x.numel() * 4 / 4.8e12 * 1e3
    timed = []  # (row, run) of every variant that ran, for the later rounds
    for v in variants:
        row = {"variant": v.name}
        try:
            run, info = v.build(x, out)
            row.update(info)
            out.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
            if v.sync:
                want = ref_log if getattr(v, "log", False) else ref
                err = (out - want).abs().max().item()
                row["max_abs_err"] = err
                row["strict_ok"] = bool(torch.allclose(out, want, atol=1e-4, rtol=1e-4))
            row["ms"] = time_ms(run, flush, args.reps)
            timed.append((row, run))
        except Exception as e:  # a variant that fails is a row with its reason, and the run goes on
            row["error"] = f"{type(e).__name__}: {e}"[:200]
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.rounds > 1:
        # Later rounds interleave the variants with torch.compile, so that a drift of the GPU's speed during
        # the run lands on all of them alike; each row's figure is the median of its rounds.
        timed.append((rows[1], lambda: compiled_fn(x)))
        for row, _ in timed:
            row["round_ms"] = [row["ms"]]
        for _ in range(args.rounds - 1):
            for row, run in timed:
                row["round_ms"].append(time_ms(run, flush, args.reps))
        for row, _ in timed:
            row["ms"] = statistics.median(row["round_ms"])
        compiled = rows[1]["ms"]

    print(f"\nsoftmax {args.rows} x {args.cols} fp32; memory floor {floor_ms:.3f} ms at 4.8 TB/s; "
          f"eager {eager:.3f} ms, torch.compile {compiled:.3f} ms")
    print(f"{'variant':28} {'ms':>7} {'x compile':>9} {'floor %':>7} {'regs':>4} {'/SM':>3} {'rows':>4} {'ok':>5}")
    for r in rows[2:]:
        if "ms" not in r:
            print(f"{r['variant']:28} {r.get('error', '')}")
            continue
        ok = "-" if "strict_ok" not in r else str(r["strict_ok"])
        print(f"{r['variant']:28} {r['ms']:7.3f} {compiled / r['ms']:8.2f}x {100 * floor_ms / r['ms']:6.1f}% "
              f"{r.get('regs', 0):4} {r.get('programs_per_sm', 0):3} {r.get('rows_in_flight', 0):4} {ok:>5}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"rows": args.rows, "cols": args.cols, "gpu": torch.cuda.get_device_name(0),
                       "torch": torch.__version__, "triton": triton.__version__, "results": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
