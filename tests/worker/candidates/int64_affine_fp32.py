"""Wrong for problems/int64_affine.py: the arithmetic in fp32 and cast back, off by up to some 10^5 at 2^41,\na relative error of 10^-7: within any float tolerance, and wrong for integers."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = (x.to(tl.float32) * 3.0 + 1.0).to(tl.int64)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        affine_kernel[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128)
        return y
