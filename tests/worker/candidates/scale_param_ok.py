"""Correct for problems/scale_param.py only if the worker copies the reference's weight and bias into
it: its own initial values are zeros."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs % cols, mask=mask, other=0.0)
    b = tl.load(b_ptr)
    tl.store(y_ptr + offs, x * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(features))
        self.register_buffer("bias", torch.tensor(0.0))

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        affine_kernel[(triton.cdiv(n, 128),)](x, self.weight, self.bias, y, n, x.shape[-1], BLOCK=128)
        return y
