"""The L2 flush of the timing harness, on CPU tensors: it writes its buffer and reads it back into a sink."""

import torch

from conftest import PYTHON_DIR  # noqa: F401  (puts the worker package on sys.path)
from kernelagent_worker import timing


def test_flush_writes_then_reads_its_buffer():
    h = timing._Harness.__new__(timing._Harness)
    h.flush = torch.full((4096,), 7, dtype=torch.int32)
    h.sink = torch.full((), -1, dtype=torch.int64)
    h.flush_l2()
    assert int(h.flush.abs().sum()) == 0     # written
    assert int(h.sink) == 0                  # and read back
