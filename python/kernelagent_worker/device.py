"""The worker's device and the facts about it that the hello reports.

`select()` must run before anything imports triton: on the CPU it sets TRITON_INTERPRET=1 so that Triton
candidates run on Triton's interpreter with CPU tensors. KERNELAGENT_DEVICE=cpu forces the CPU.
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys

import torch


def select() -> str:
    """'cuda' when a CUDA device is usable and not overridden, else 'cpu' (and the Triton interpreter)."""
    forced = os.environ.get("KERNELAGENT_DEVICE", "").strip().lower()
    dev = "cpu" if forced == "cpu" or not torch.cuda.is_available() else "cuda"
    if dev == "cpu":
        if "triton" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("triton was imported before the worker chose the CPU; TRITON_INTERPRET=1 is too late")
        os.environ["TRITON_INTERPRET"] = "1"
    return dev


def interpret() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") == "1"


def gpu_info() -> dict | None:
    """Attributes of the current CUDA device, or None on the CPU."""
    if not torch.cuda.is_available():
        return None
    p = torch.cuda.get_device_properties(torch.cuda.current_device())
    return {
        "name": p.name,
        "sm_count": p.multi_processor_count,
        "cc_major": p.major,
        "cc_minor": p.minor,
        "l2_bytes": p.L2_cache_size,
        "total_memory_bytes": p.total_memory,
        "max_shared_per_block_optin": getattr(p, "shared_memory_per_block_optin", None),
        "regs_per_sm": getattr(p, "regs_per_multiprocessor", None),
    }


def versions() -> dict:
    import triton

    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "cuda": torch.version.cuda,
    }


def fp32_settings() -> dict:
    """How PyTorch multiplies and convolves fp32 now: 'highest' is IEEE fp32, 'high' or 'medium' let cuBLAS use
    TF32 or bf16; cudnn_allow_tf32 lets cuDNN's convolutions use TF32 (PyTorch's default: True)."""
    return {
        "fp32_matmul": torch.get_float32_matmul_precision(),
        "cudnn_allow_tf32": bool(torch.backends.cudnn.allow_tf32),
    }


# PyTorch's own settings when the worker started (its defaults, or what the environment made them): the
# "default" mode, which eager_default and compile_default are timed under.
_DEFAULTS = fp32_settings()

# The fp32 modes the worker runs PyTorch under (docs/protocol.md): IEEE fp32 everywhere (the reference a
# candidate is checked against, and the accuracy-matched baselines of --precision strict), TF32 allowed
# everywhere (the baselines of --precision tf32), and PyTorch's defaults as they were at start.
MODES = {
    "ieee": {"fp32_matmul": "highest", "cudnn_allow_tf32": False},
    "tf32": {"fp32_matmul": "high", "cudnn_allow_tf32": True},
}


def mode_settings(mode: str) -> dict:
    return dict(_DEFAULTS) if mode == "default" else dict(MODES[mode])


def _apply(settings: dict) -> None:
    torch.set_float32_matmul_precision(settings["fp32_matmul"])
    torch.backends.cudnn.allow_tf32 = settings["cudnn_allow_tf32"]


@contextlib.contextmanager
def fp32_mode(mode: str):
    """Runs the block under one of MODES (or "default"), then puts back the settings it found."""
    saved = fp32_settings()
    _apply(mode_settings(mode))
    try:
        yield
    finally:
        _apply(saved)


def reference_precision() -> dict:
    """PyTorch's defaults here, as the worker found them: the pytorch_default baselines run with these."""
    return dict(_DEFAULTS)


def hello(dev: str) -> dict:
    return {
        "id": 0,
        "status": "ok",
        "op": "hello",
        "device": dev,
        "interpret": interpret(),
        "gpu": gpu_info() if dev == "cuda" else None,
        # How many GPUs this process sees: the engine starts one worker per GPU (--gpus all).
        "gpu_count": torch.cuda.device_count() if dev == "cuda" else 0,
        "versions": versions(),
        "reference_precision": reference_precision(),
    }


def synchronize(dev: str) -> None:
    """Wait for all work on the device (the whole device, not one stream)."""
    if dev == "cuda":
        torch.cuda.synchronize()
