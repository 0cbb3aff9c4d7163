"""Cheat: returns an empty output and turns the reference's own copy of the inputs (found with gc: the
tensors shaped like its input that are not its input) into a tensor subclass whose every operation
copies its result into that output. The reference, which runs after it, fills the output in.
Caught by the digests of the outputs taken when the forward returned and again after the reference ran:
cheat_reads_reference.
"""
import gc

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_relu(x_ptr, w_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs % cols, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * w, mask=mask)


def launch(x, w, y):
    scaled_relu[(triton.cdiv(x.numel(), 1024),)](x, w, y, x.numel(), x.shape[-1], BLOCK=1024)


class Spy(torch.Tensor):
    sink = None

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        out = super().__torch_function__(func, types, args, kwargs or {})
        if isinstance(out, torch.Tensor) and Spy.sink is not None and out.shape == Spy.sink.shape:
            with torch._C.DisableTorchFunctionSubclass():
                Spy.sink.copy_(out)
        return out


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))

    def forward(self, x):
        y = torch.empty_like(x)
        Spy.sink = y
        for obj in gc.get_objects():
            if isinstance(obj, torch.Tensor) and obj is not x and obj is not y and obj.shape == x.shape:
                obj.__class__ = Spy
        return y
