"""Correct for problems/leaky_scaled.py: init input (slope) and a non-tensor forward input (scale)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_scaled_kernel(x_ptr, y_ptr, n, slope, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(x >= 0, x, x * slope) * scale
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, negative_slope):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x, scale):
        print("candidate forward prints on stdout")
        y = torch.empty_like(x)
        n = x.numel()
        leaky_scaled_kernel[(triton.cdiv(n, 256),)](x, y, n, self.negative_slope, scale, BLOCK=256)
        return y
