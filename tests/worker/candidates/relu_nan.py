"""Gives NaN where x <= 0."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nan_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.where(x > 0, x, float("nan")), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        nan_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
