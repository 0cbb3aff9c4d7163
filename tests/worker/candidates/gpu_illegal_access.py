"""A real illegal memory access on a GPU (unmasked load far outside the tensor). GPU-only test."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def oob_kernel(x_ptr, y_ptr, far, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) + far  # far is an int64 argument: 2**40 elements past the tensor
    tl.store(y_ptr + tl.arange(0, BLOCK), tl.load(x_ptr + offs))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        y = torch.empty_like(x)
        if self.calls > 1:
            oob_kernel[(1,)](x, y, 1 << 40, BLOCK=128)
        else:
            y.copy_(torch.relu(x))
        return y
