"""The one timing harness, for the reference in eager mode, torch.compile of it, and candidates.

Per target: one untimed call, then warm-up calls for `warmup_ms`. Per timed repetition: the L2 is flushed
(a buffer of twice the L2 size is zeroed, then read back), CUDA events are recorded around one call, and the whole device is
synchronised. Repetitions run until `min_ms` of samples have been taken (at least 5), or, as a guard for
calls so short that this would take very long, until 10 x `min_ms` of wall time has passed. With `rounds`
> 1 the targets are interleaved (A B C A B C ...), each round taking `min_ms / rounds`, and samples are
pooled. When a target's event median is under `graph_below_us`, every target is timed again by CUDA-graph
replay (one call per replay, flushed between replays) and those figures are reported.

Example: time_targets({"eager": f, "c7": g}, min_ms=100, warmup_ms=25, rounds=1, graph_below_us=50, ...)
-> {"eager": {"status": "ok", "median_us": 3120.5, ..., "method": "events"}, "c7": {...}}
"""

from __future__ import annotations

import contextlib
import math
import time
from typing import Callable

import numpy as np
import torch

from .errors import classify, describe

MIN_REPS = 5
WALL_GUARD = 10.0   # a target's sampling also stops after WALL_GUARD x its budget of wall time


class StickyError(Exception):
    """A sticky CUDA error: nothing more can run in this process."""

    def __init__(self, target: str, exc: BaseException, results: dict):
        super().__init__(f"{target}: {describe(exc)}")
        self.target = target
        self.exc = exc
        self.results = results


def collect(sample: Callable[[], float], budget_ms: float, min_reps: int, into: list) -> None:
    """Append samples (ms) to `into` until they add up to budget_ms and at least min_reps were taken."""
    taken, n = 0.0, 0
    deadline = time.perf_counter() + WALL_GUARD * budget_ms / 1000.0
    while n < min_reps or (taken < budget_ms and time.perf_counter() < deadline):
        s = sample()
        into.append(s)
        taken += s
        n += 1


def summary(samples_ms: list, method: str) -> dict:
    us = np.asarray(samples_ms, dtype=np.float64) * 1000.0
    return {"status": "ok", "median_us": float(np.median(us)), "p10_us": float(np.percentile(us, 10)),
            "p90_us": float(np.percentile(us, 90)), "reps": int(us.size), "method": method}


def _failure(exc: BaseException, default: str) -> dict:
    found = classify(exc)
    return {"status": found[0] if found else default, "message": describe(exc)}


class _Harness:
    def __init__(self, l2_bytes: int):
        n = max(1, (2 * int(l2_bytes) + 3) // 4)
        self.flush = torch.empty(n, dtype=torch.int32, device="cuda")
        self.sink = torch.empty((), dtype=torch.int64, device="cuda")
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)

    def flush_l2(self) -> None:
        """Evicts the L2: writes a buffer of twice its size, then reads it back. The timed call then finds
        none of its own data in L2, and no dirty lines either, whose write-back it would otherwise pay for
        (about 12 us of DRAM traffic on an H200: a tenth of a 130 us kernel). The read also keeps the GPU
        busy while the CPU launches the call, so Python launch overhead is not timed."""
        self.flush.zero_()
        torch.sum(self.flush, dim=0, dtype=torch.int64, out=self.sink)

    def warmup(self, fn: Callable, warmup_ms: float) -> None:
        fn()
        torch.cuda.synchronize()
        t_end = time.perf_counter() + warmup_ms / 1000.0
        while True:
            self.flush_l2()
            fn()
            torch.cuda.synchronize()
            if time.perf_counter() >= t_end:
                break

    def event_sampler(self, fn: Callable) -> Callable[[], float]:
        def sample() -> float:
            self.flush_l2()
            self.start.record()
            fn()
            self.end.record()
            torch.cuda.synchronize()
            return self.start.elapsed_time(self.end)
        return sample

    @staticmethod
    def capture(fn: Callable) -> torch.cuda.CUDAGraph:
        """A CUDA graph of one call, captured as PyTorch requires: warm-up on a side stream, then capture."""
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                fn()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        torch.cuda.synchronize()
        return graph

    def graph_sampler(self, graph: torch.cuda.CUDAGraph) -> Callable[[], float]:
        def sample() -> float:
            self.flush_l2()
            self.start.record()
            graph.replay()
            self.end.record()
            torch.cuda.synchronize()
            return self.start.elapsed_time(self.end)
        return sample


def time_targets(fns: dict, *, min_ms: float, warmup_ms: float, rounds: int, graph_below_us: float,
                 l2_bytes: int, warmup_failure: dict | None = None, modes: dict | None = None) -> dict:
    """Results per target name. `warmup_failure` names the status of a target whose warm-up fails (default
    runtime_error; e.g. compile_error for torch.compile). `modes` maps a target to a context-manager factory
    its calls run under (the fp32 mode of a baseline): entered around its warm-up, each stretch of its samples
    and its graph capture, outside the timed calls. Raises StickyError, whose .results holds what was
    measured so far, on a sticky CUDA error."""
    results: dict = {}
    h = _Harness(l2_bytes)
    alive = list(fns)
    per_round_reps = math.ceil(MIN_REPS / rounds)
    budget = min_ms / rounds

    def fail(name: str, e: BaseException, default: str = "runtime_error") -> None:
        found = classify(e)
        results[name] = _failure(e, default)
        if found and found[1]:
            results[name]["sticky"] = True
            raise StickyError(name, e, results) from e
        if found and found[0] == "out_of_memory":
            torch.cuda.empty_cache()

    def under(name: str):
        return (modes or {}).get(name, contextlib.nullcontext)()

    def attempt(name: str, action: Callable[[], object], default: str = "runtime_error") -> bool:
        try:
            with under(name):
                action()
            return True
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            fail(name, e, default)
            return False

    for name in list(alive):
        default = (warmup_failure or {}).get(name, "runtime_error")
        if not attempt(name, lambda: h.warmup(fns[name], warmup_ms), default):
            alive.remove(name)

    samples = {n: [] for n in alive}
    for _ in range(rounds):
        for name in list(alive):
            if not attempt(name, lambda: collect(h.event_sampler(fns[name]), budget, per_round_reps, samples[name])):
                alive.remove(name)
    for name in alive:
        results[name] = summary(samples[name], "events")

    # Short calls: time again by CUDA-graph replay; if that fails the event figure stands, with graph_error.
    # When one target qualifies, all are replayed, so the figures of one request are measured alike (a
    # baseline whose Python overhead keeps its event median above the threshold is not left behind).
    graphed = alive if any(results[n]["median_us"] < graph_below_us for n in alive) else []
    graphs, g_samples = {}, {}
    for name in graphed:
        events_result = results[name]
        try:
            with under(name):
                graphs[name] = h.capture(fns[name])
            g_samples[name] = []
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            fail(name, e)
            results[name] = {**events_result, "graph_error": describe(e)}
    for _ in range(rounds):
        for name in list(graphs):
            events_result = results[name]
            try:
                collect(h.graph_sampler(graphs[name]), budget, per_round_reps, g_samples[name])
            except KeyboardInterrupt:
                raise
            except BaseException as e:
                fail(name, e)
                results[name] = {**events_result, "graph_error": describe(e)}
                del graphs[name]
    for name, graph in graphs.items():
        results[name] = summary(g_samples[name], "cuda_graph")
        graph.reset()
    return results
