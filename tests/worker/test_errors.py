"""errors.classify: exceptions -> statuses."""

import pytest
import torch

from kernelagent_worker.errors import classify, describe, to_worker_error


@pytest.mark.parametrize("exc,expected", [
    (RuntimeError("CUDA error: an illegal memory access was encountered"), ("cuda_error", True)),
    (RuntimeError("CUDA error: misaligned address"), ("cuda_error", True)),
    (RuntimeError("CUDA error: device-side assert triggered"), ("cuda_error", True)),
    (RuntimeError("CUDA error: unspecified launch failure"), ("cuda_error", True)),
    (RuntimeError("CUDA error: an illegal instruction was encountered"), ("cuda_error", True)),
    (RuntimeError("Triton Error [CUDA]: an illegal memory access was encountered"), ("cuda_error", True)),
    (RuntimeError("CUDA error: invalid argument"), ("cuda_error", False)),
    (torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 4.00 TiB"), ("out_of_memory", False)),
    (RuntimeError("CUDA error: out of memory"), ("out_of_memory", False)),
    (RuntimeError("[enforce fail at alloc_cpu.cpp:127] DefaultCPUAllocator: can't allocate memory"), ("out_of_memory", False)),
    (RuntimeError("Storage size calculation overflowed with sizes=[4611686018427387904]"), ("out_of_memory", False)),
    (ValueError("something else"), None),
])
def test_classify(exc, expected):
    assert classify(exc) == expected


def test_real_cpu_allocation_failure_is_out_of_memory():
    with pytest.raises(RuntimeError) as info:
        torch.empty(2**62)
    assert classify(info.value) == ("out_of_memory", False)


def test_to_worker_error_keeps_sticky():
    err = to_worker_error(RuntimeError("CUDA error: misaligned address"), "runtime_error")
    assert err.status == "cuda_error" and err.extra == {"sticky": True}
    err = to_worker_error(KeyError("x"), "trace_failed", "trace: ")
    assert err.status == "trace_failed" and err.message == "trace: KeyError: 'x'"


def test_describe_is_trimmed():
    assert len(describe(RuntimeError("x" * 10000))) < 4100
