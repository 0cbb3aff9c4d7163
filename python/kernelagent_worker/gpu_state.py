"""State a candidate could leave on the GPU to be faster in the next timed call: L2 persistence.

The timing harness flushes the L2 before every repetition by writing a buffer of twice its size. Lines that
an access policy window marks persisting (cudaStreamSetAttribute with cudaStreamAttributeAccessPolicyWindow,
after cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)) survive such a flush, so a candidate that sets
them keeps its inputs in L2 and is timed as if it read them from there. `read()` returns the context's
persisting-L2 limit and the current stream's window, through the driver API (libcuda, which every CUDA
process has loaded); `reset()` puts both back to none and evicts persisting lines.

Example: after a candidate set a window of 4 MiB on the current stream, read() ->
{"persisting_l2_limit_bytes": 31457280, "access_policy_window_bytes": 4194304}; describe(before, after) names
both.
"""

from __future__ import annotations

import ctypes
import functools

import torch

CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 0x06
CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1
ATTR_VALUE_BYTES = 64      # sizeof(CUstreamAttrValue), a union padded to 64 bytes
WINDOW_NUM_BYTES_OFFSET = 8  # CUaccessPolicyWindow { void* base_ptr; size_t num_bytes; float hitRatio; ... }


@functools.lru_cache(maxsize=1)
def _libcuda():
    """The driver library, loaded once. (Cached in the function, not in a module global: the process watch
    of integrity.py would see a global rebound in the middle of a candidate's run.)"""
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


def available(dev: str) -> bool:
    return dev == "cuda" and torch.cuda.is_available() and _libcuda() is not None


def read(dev: str) -> dict:
    """The persisting-L2 state of the current context and stream; {} where it cannot be read (the CPU, a
    context that a sticky error poisoned)."""
    try:
        return _read(dev) if available(dev) else {}
    except Exception:
        return {}


def _read(dev: str) -> dict:
    cu = _libcuda()
    state = {}
    limit = ctypes.c_size_t(0)
    if cu.cuCtxGetLimit(ctypes.byref(limit), CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == 0:
        state["persisting_l2_limit_bytes"] = limit.value
    value = (ctypes.c_ubyte * ATTR_VALUE_BYTES)()
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    if cu.cuStreamGetAttribute(stream, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, ctypes.byref(value)) == 0:
        state["access_policy_window_bytes"] = ctypes.c_size_t.from_buffer(value, WINDOW_NUM_BYTES_OFFSET).value
    return state


def describe(before: dict, after: dict) -> str | None:
    """What the candidate left, or None when the state is as before or cannot be read after (a context that a
    sticky error poisoned is the candidate's failure of its own, not a change)."""
    if not after:
        return None
    left = []
    for key, words in (("persisting_l2_limit_bytes", "the persisting-L2 limit"),
                       ("access_policy_window_bytes", "the current stream's L2 access policy window")):
        if after.get(key, 0) != before.get(key, 0):
            left.append(f"{words} is {after.get(key, 0)} bytes (was {before.get(key, 0)})")
    return "; ".join(left) or None


def reset(dev: str, before: dict) -> None:
    """Back to the state `before` (none: no window, no persisting lines)."""
    if not available(dev):
        return
    cu = _libcuda()
    value = (ctypes.c_ubyte * ATTR_VALUE_BYTES)()   # all zero: no window
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    cu.cuStreamSetAttribute(stream, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, ctypes.byref(value))
    cu.cuCtxResetPersistingL2Cache()
    cu.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, ctypes.c_size_t(before.get("persisting_l2_limit_bytes", 0)))
