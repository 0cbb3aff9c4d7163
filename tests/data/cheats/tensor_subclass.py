"""Cheat: returns a wrong result (relu(x), unscaled) as a tensor subclass whose torch.isclose always says
"close", so that a comparison made with torch's functions on the output passes.
Caught before any comparison, by the output's type: cheat_tensor_subclass.
"""
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


class Agreeable(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.isclose:
            with torch._C.DisableTorchFunctionSubclass():
                return torch.ones(args[0].shape, dtype=torch.bool, device=args[0].device)
        return super().__torch_function__(func, types, args, kwargs or {})


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))
        self.register_buffer("ones", torch.ones(cols))

    def forward(self, x):
        y = torch.empty_like(x)
        launch(x, self.ones, y)
        y.__class__ = Agreeable
        return y
