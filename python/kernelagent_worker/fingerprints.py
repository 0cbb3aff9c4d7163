"""Cheap evidence about a tensor's values, computed where the tensor lives.

- `digest(t)`: two sums over the tensor's bytes read as 32-bit words (or bytes), the second weighted by
  position, with its shape and dtype: a write to any element changes it (with overwhelming likelihood), and
  it costs no copy of the tensor. The check digests the candidate's outputs when its forward returns and
  again after the reference has run: a candidate whose output is filled in later (a hook on the reference,
  a thread) is caught without keeping a copy of every output.
- `sample(t)`: up to SAMPLE elements at fixed, evenly spaced positions, on the CPU: enough to recognise the
  values of an earlier call's output in a later one (a cached output), small enough to keep for every call.
- `same_values(a, b)`: bitwise-equal values (NaN equals NaN), for telling whether an input was written to.

Example: digest(torch.zeros(4)) == digest(torch.zeros(4)); digest of the same tensor after `t[2] = 1` differs.
"""

from __future__ import annotations

import torch

SLICE = 1 << 22    # words per step: bounds the temporary int64 copies to 32 MB each
SAMPLE = 4096
WEIGHT_MOD = 65521  # weights 1..65521 by position, so moving values around changes the weighted sum


def _words(t: torch.Tensor) -> torch.Tensor:
    flat = t.detach().contiguous().reshape(-1)
    raw = flat.view(torch.uint8)
    return raw.view(torch.int32) if raw.numel() % 4 == 0 else raw


def digest(t: torch.Tensor) -> tuple:
    if t.is_meta:
        return ("meta", tuple(t.shape), str(t.dtype))
    w = _words(t)
    total = torch.zeros((), dtype=torch.int64, device=w.device)
    weighted = torch.zeros((), dtype=torch.int64, device=w.device)
    for start in range(0, w.numel(), SLICE):
        part = w[start:start + SLICE].to(torch.int64)
        pos = torch.arange(start, start + part.numel(), device=w.device, dtype=torch.int64) % WEIGHT_MOD + 1
        total += part.sum()
        weighted += (part * pos).sum()   # int64 arithmetic wraps: still a fingerprint, order-independent
    return (tuple(t.shape), str(t.dtype), int(total.item()), int(weighted.item()))


def sample(t: torch.Tensor) -> tuple:
    """(shape, dtype, values at up to SAMPLE evenly spaced positions, as a CPU tensor)."""
    if t.is_meta:
        return (tuple(t.shape), str(t.dtype), None)
    flat = t.detach().reshape(-1)
    step = max(1, flat.numel() // SAMPLE)
    return (tuple(t.shape), str(t.dtype), flat[::step][:SAMPLE].cpu().clone())


def same_sample(a: tuple, b: tuple) -> bool:
    if a[:2] != b[:2] or a[2] is None or b[2] is None:
        return False
    return same_values(a[2], b[2])


def same_values(a: torch.Tensor, b: torch.Tensor) -> bool:
    """True when a and b have the same shape, dtype and values (NaN equal to NaN), compared in slices so that
    the temporary masks of a tensor near the size of the device's memory fit beside it."""
    if a.shape != b.shape or a.dtype != b.dtype or a.is_meta or b.is_meta:
        return a.shape == b.shape and a.dtype == b.dtype and a.is_meta and b.is_meta
    fa, fb = a.detach().reshape(-1), b.detach().to(a.device).reshape(-1)
    floating = a.is_floating_point() or a.is_complex()
    for start in range(0, fa.numel(), SLICE):
        x, y = fa[start:start + SLICE], fb[start:start + SLICE]
        equal = (x == y) | (torch.isnan(x) & torch.isnan(y)) if floating else x == y
        if not bool(equal.all()):
            return False
    return True
