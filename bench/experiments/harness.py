"""What the experiments share: one timing harness and the reduction family's kernels as the family emits them.

Imported by the scripts beside it (run as `python3 bench/experiments/NAME.py`, so this folder is on the path).
"""

from __future__ import annotations

import importlib.util
import pathlib
import statistics
import tempfile

import torch


def l2_flush_buffer() -> torch.Tensor:
    # Twice the L2: zeroing it before a repetition evicts whatever the previous one left there.
    return torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size // 4, dtype=torch.float32, device="cuda")


def time_ms(fn, flush: torch.Tensor, reps: int) -> float:
    """Median of `reps` CUDA-event timings of fn(), L2 flushed before each (one warm-up call first)."""
    fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end))
    return statistics.median(samples)


def reduction_family_kernels():
    """The reduction family's kernels as the family emits them (the template's code before ModelNew)."""
    path = pathlib.Path(__file__).resolve().parents[2] / "families" / "reduction" / "kernel.py.in"
    # triton.jit reads a kernel's source through inspect, which needs a file.
    tmp = pathlib.Path(tempfile.mkdtemp()) / "ka_reduction_family.py"
    tmp.write_text(path.read_text().split("class ModelNew")[0])
    spec = importlib.util.spec_from_file_location("ka_reduction_family", tmp)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
