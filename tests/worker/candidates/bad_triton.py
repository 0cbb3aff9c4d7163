"""Bad Triton: tl.arange needs a power-of-two range, which the compiler rejects."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bad_kernel(x_ptr, y_ptr, n):
    offs = tl.arange(0, 3)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        bad_kernel[(1,)](x, y, x.numel())
        return y
