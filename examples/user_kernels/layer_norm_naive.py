"""A layer norm written plainly, as a person might write it first: one program per row computes the row's mean
and variance in two passes, then a second kernel normalises every element. It implements
examples/norms_and_losses/40_LayerNorm.py (nn.LayerNorm over the trailing axes, with weight and bias) at any
shape. The constants marked '# kernelagent:' are what `kernelagent optimize PROBLEM --kernel THIS_FILE` tunes
(docs/user-kernels.md); the values they hold here are the starting configuration.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl

STATS_BLOCK = 256  # kernelagent: 512, 1024, 2048, 4096, 8192
APPLY_BLOCK = 256  # kernelagent: 512, 1024, 2048, 4096
NUM_WARPS = 1  # kernelagent: 2, 4, 8, 16


@triton.jit
def row_stats(x_ptr, mean_ptr, rstd_ptr, n: tl.constexpr, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(base + offs, mask=offs < n, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < n, other=0.0).to(tl.float32)
        d = tl.where(offs < n, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def normalise(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    at = row.to(tl.int64) * n + offs
    x = tl.load(x_ptr + at, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    y = (x - tl.load(mean_ptr + row)) * tl.load(rstd_ptr + row) * w + b
    tl.store(y_ptr + at, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)  # owns weight and bias under the reference's names

    def forward(self, x):
        x = x.contiguous()
        n = self.ln.weight.numel()
        rows = x.numel() // n
        mean = torch.empty(rows, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        y = torch.empty_like(x)
        row_stats[(rows,)](x, mean, rstd, n, self.ln.eps, BLOCK=STATS_BLOCK, num_warps=NUM_WARPS)
        normalise[(rows, triton.cdiv(n, APPLY_BLOCK))](
            x, self.ln.weight, self.ln.bias, y, mean, rstd, n, BLOCK=APPLY_BLOCK, num_warps=NUM_WARPS)
        return y
