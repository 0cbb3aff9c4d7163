"""Exceptions -> protocol statuses.

A handler raises `WorkerError(status, message)` for a failure it has named itself. Any other exception is
classified here: running out of memory is `out_of_memory`; a CUDA error is `cuda_error`, and `sticky` when
it poisons the CUDA context (after which the worker answers and exits with code 3, see protocol.py).

Example: RuntimeError("CUDA error: an illegal memory access was encountered") -> ("cuda_error", msg, True).
"""

from __future__ import annotations

import torch

# Messages of the CUDA errors that leave the context unusable (cudaErrorIllegalAddress, MisalignedAddress,
# Assert, LaunchFailure, IllegalInstruction, HardwareStackError, InvalidPc, InvalidAddressSpace,
# LaunchTimeout). After one of them every later CUDA call fails, so the process has to be replaced.
STICKY_MARKERS = (
    "illegal memory access",
    "misaligned address",
    "device-side assert",
    "unspecified launch failure",
    "an illegal instruction",
    "hardware stack error",
    "invalid program counter",
    "operation not supported on global/shared address space",
    "the launch timed out and was terminated",
)

OOM_MARKERS = (
    "out of memory",                              # CUDA: torch.OutOfMemoryError, "CUDA error: out of memory"
    "can't allocate memory",                      # CPU: DefaultCPUAllocator
    "storage size calculation overflowed",        # a size no device can hold (e.g. 2**62 elements)
)

MAX_MESSAGE = 4000


class WorkerError(Exception):
    """A failure with a protocol status, e.g. WorkerError("bad_problem", "problem file ... has no Model")."""

    def __init__(self, status: str, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def describe(exc: BaseException) -> str:
    """One readable message for an exception: 'TypeName: text', trimmed."""
    text = str(exc).strip()
    msg = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if len(msg) > MAX_MESSAGE:
        msg = msg[:MAX_MESSAGE] + " ..."
    return msg


def classify(exc: BaseException) -> tuple[str, bool] | None:
    """(status, sticky) for memory and CUDA errors; None for anything else (the caller picks the status)."""
    if isinstance(exc, WorkerError):
        return exc.status, bool(exc.extra.get("sticky", False))
    text = str(exc).lower()
    if isinstance(exc, torch.OutOfMemoryError) or isinstance(exc, MemoryError) or any(m in text for m in OOM_MARKERS):
        return "out_of_memory", False
    if any(m in text for m in STICKY_MARKERS):
        return "cuda_error", True
    accel = getattr(torch, "AcceleratorError", None)
    if (accel is not None and isinstance(exc, accel)) or "cuda error" in text or "triton error [cuda]" in text:
        return "cuda_error", False
    return None


def to_worker_error(exc: BaseException, default_status: str, context: str = "") -> WorkerError:
    """Wrap any exception as a WorkerError: memory/CUDA statuses from classify(), else default_status."""
    if isinstance(exc, WorkerError):
        return exc
    found = classify(exc)
    status, sticky = found if found else (default_status, False)
    message = f"{context}{describe(exc)}"
    return WorkerError(status, message, sticky=True) if sticky else WorkerError(status, message)


def is_triton_compile_error(exc: BaseException) -> bool:
    """True for Triton's compilation failures (and, under the interpreter, errors raised while it runs a kernel,
    which is where the interpreter reports what the compiler would have rejected)."""
    try:
        from triton.compiler.errors import CompilationError
        from triton.runtime.errors import InterpreterError, OutOfResources, PTXASError
    except ImportError:  # pragma: no cover - triton is a dependency
        return False
    return isinstance(exc, (CompilationError, OutOfResources, PTXASError, InterpreterError))
