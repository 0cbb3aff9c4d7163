"""torch.digamma (problems/digamma_wide_range.py) two ways, chosen by EVALUATE:

- "pytorch": PyTorch's own kernel. It reflects negative arguments (x -> 1 - x, adding -pi / tan(pi x)), then
  steps each value up to 10 one unit at a time (result -= 1 / x; x += 1) and ends with the asymptotic series.
  The step loop runs once per unit below 10, so the 32 lanes of a warp run it different numbers of times and
  the warp runs it as often as its slowest lane, the others idle.
- "in_step": every lane runs the same instructions. The reflection is a select; the ten steps of
  psi(x) = psi(x + 10) - sum_{i<10} 1 / (x + i) become one fraction p / q built with multiplications (one
  division instead of up to ten), taken only where x is below 10; then the same asymptotic series.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl

EVALUATE = 'pytorch'  # kernelagent: "in_step"
BLOCK = 1024  # kernelagent: 512, 2048, 4096
NUM_WARPS = 4  # kernelagent: 8


@triton.jit
def digamma_in_step(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=1.0)
    negative = x < 0.0
    # pi / tan(pi x) has period 1: taken at x's distance from the nearest integer, |pi r| <= pi / 2, where
    # sin and cos keep their relative accuracy next to the poles
    r = x - tl.floor(x + 0.5)
    pi: tl.constexpr = 3.141592653589793
    reflected = tl.where(negative, -pi * tl.cos(pi * r) / tl.sin(pi * r), 0.0)
    z = tl.where(negative, 1.0 - x, x)
    # sum_{i<10} 1 / (z + i) as p / q: adding 1 / t to p / q gives (p t + q) / (q t).
    p = tl.zeros_like(z)
    q = tl.full(z.shape, 1.0, tl.float32)
    for i in tl.static_range(10):
        t = z + i
        p = p * t + q
        q = q * t
    shift = z < 10.0
    steps = tl.where(shift, p / q, 0.0)
    z = tl.where(shift, z + 10.0, z)
    w = 1.0 / (z * z)
    # 1/12 - w/120 + w^2/252 - w^3/240 + w^4/132 - 691 w^5/32760 + w^6/12, the series PyTorch's kernel uses
    series = w * (8.33333333333333333333e-2 + w * (-8.33333333333333333333e-3 + w * (3.96825396825396825397e-3
             + w * (-4.16666666666666666667e-3 + w * (7.57575757575757575758e-3 + w * (-2.10927960927960927961e-2
             + w * 8.33333333333333333333e-2))))))
    series = tl.where(z < 1.0e17, series, 0.0)
    y = reflected - steps + tl.log(z) - 0.5 / z - series
    y = tl.where(x == 0.0, -float("inf"), y)             # PyTorch: copysign(inf, -x); the inputs hold no -0.0
    y = tl.where(negative & (r == 0.0), float("nan"), y)  # the poles at the negative integers
    tl.store(y_ptr + offs, y, mask=inside)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if EVALUATE == "pytorch":
            return torch.digamma(x)
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        digamma_in_step[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
        return y
