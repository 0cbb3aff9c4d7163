"""A layer norm written plainly, as a person might write it first: one program per row computes the row's mean
and variance in two passes, then a second kernel normalises every element. It implements
examples/norms_and_losses/40_LayerNorm.py (nn.LayerNorm over the trailing axes, with weight and bias) at any
shape. The constants marked '# kernelagent:' are what `kernelagent optimize PROBLEM --kernel THIS_FILE` tunes
(docs/user-kernels.md); the values they hold here are the starting configuration.

STATS_SPLIT cuts each row's statistics into that many parts, one program each (the mean and the sum of squared
deviations of each part, combined where the rows are normalised): the answer to a grid of as many programs as
rows, which leaves most of a GPU idle when the rows are few and long.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl

STATS_BLOCK = 256  # kernelagent: 512, 1024, 2048, 4096, 8192
APPLY_BLOCK = 256  # kernelagent: 512, 1024, 2048, 4096
STATS_SPLIT = 16  # kernelagent: 2, 4, 8, 16, 32, 64
NUM_WARPS = 4  # kernelagent: 2, 4, 8, 16


@triton.jit
def row_stats(x_ptr, mean_ptr, m2_ptr, n: tl.constexpr, PART: tl.constexpr, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    # Part p of a row: elements [p * PART, (p + 1) * PART), its mean, then its sum of squared deviations.
    row = tl.program_id(0)
    part = tl.program_id(1)
    base = x_ptr + row.to(tl.int64) * n
    first = part * PART
    count = tl.maximum(tl.minimum(n - first, PART), 0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, PART, BLOCK):
        offs = first + start + tl.arange(0, BLOCK)
        acc += tl.load(base + offs, mask=offs < first + count, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / tl.maximum(count, 1)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, PART, BLOCK):
        offs = first + start + tl.arange(0, BLOCK)
        inside = offs < first + count
        x = tl.load(base + offs, mask=inside, other=0.0).to(tl.float32)
        d = tl.where(inside, x - mean, 0.0)
        acc += d * d
    tl.store(mean_ptr + row * SPLIT + part, mean)
    tl.store(m2_ptr + row * SPLIT + part, tl.sum(acc, axis=0))


@triton.jit
def normalise(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, m2_ptr, n: tl.constexpr, eps, PART: tl.constexpr,
              SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    # The row's parts combined (Chan et al.): mean = sum(c_p m_p) / n, M2 = sum(M2_p + c_p (m_p - mean)^2).
    row = tl.program_id(0)
    parts = tl.arange(0, SPLIT)
    counts = tl.maximum(tl.minimum(n - parts * PART, PART), 0).to(tl.float32)
    means = tl.load(mean_ptr + row * SPLIT + parts)
    mean = tl.sum(counts * means, axis=0) / n
    m2 = tl.sum(tl.load(m2_ptr + row * SPLIT + parts) + counts * (means - mean) * (means - mean), axis=0)
    rstd = 1.0 / tl.sqrt(m2 / n + eps)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    at = row.to(tl.int64) * n + offs
    x = tl.load(x_ptr + at, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    y = (x - mean) * rstd * w + b
    tl.store(y_ptr + at, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)  # owns weight and bias under the reference's names

    def forward(self, x):
        x = x.contiguous()
        n = self.ln.weight.numel()
        rows = x.numel() // n
        part = triton.cdiv(triton.cdiv(n, STATS_SPLIT), STATS_BLOCK) * STATS_BLOCK
        mean = torch.empty(rows * STATS_SPLIT, device=x.device, dtype=torch.float32)
        m2 = torch.empty_like(mean)
        y = torch.empty_like(x)
        row_stats[(rows, STATS_SPLIT)](x, mean, m2, n, PART=part, SPLIT=STATS_SPLIT, BLOCK=STATS_BLOCK,
                                       num_warps=NUM_WARPS)
        normalise[(rows, triton.cdiv(n, APPLY_BLOCK))](
            x, self.ln.weight, self.ln.bias, y, mean, m2, n, self.ln.eps, PART=part, SPLIT=STATS_SPLIT,
            BLOCK=APPLY_BLOCK, num_warps=NUM_WARPS)
        return y
