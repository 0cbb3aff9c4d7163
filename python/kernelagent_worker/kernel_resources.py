"""What each Triton kernel a candidate launched takes on the GPU, read from Triton's compiled kernels.

`recording()` notes every kernel launched inside it (by wrapping Triton's JIT launch path for its duration);
`describe()` gives, once per compiled kernel: its name, registers a thread, local memory a thread (spills and
stack, in bytes), shared memory a program, warps and pipeline stages. On Triton's interpreter nothing is
compiled and the list is empty. The compile reply carries it (docs/protocol.md, `compile`).
"""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def recording():
    try:
        from triton.runtime.jit import JITFunction
    except ImportError:  # no Triton: nothing to record
        yield []
        return
    launched: list = []
    original = JITFunction.run

    def run(self, *args, **kwargs):
        kernel = original(self, *args, **kwargs)
        if kernel is not None:
            launched.append((self.fn.__name__, kernel))
        return kernel

    JITFunction.run = run
    try:
        yield launched
    finally:
        JITFunction.run = original


def describe(launched: list) -> list[dict]:
    out, seen = [], set()
    for name, kernel in launched:
        key = (name, getattr(kernel, "hash", id(kernel)))
        if key in seen:
            continue
        seen.add(key)
        regs = getattr(kernel, "n_regs", None)
        words = getattr(kernel, "n_spills", None)  # Triton's count: local memory bytes / 4
        meta = getattr(kernel, "metadata", None)
        out.append({"kernel": name,
                    "registers": regs if isinstance(regs, int) else None,
                    "local_bytes": 4 * words if isinstance(words, int) else None,
                    "shared_bytes": getattr(meta, "shared", None),
                    "num_warps": getattr(meta, "num_warps", None),
                    "num_stages": getattr(meta, "num_stages", None)})
    return out
