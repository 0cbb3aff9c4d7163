# Experiment: a 1x1 convolution as Y_n[co, p] = W[co, c] @ X_n[c, p] (output channels as M, positions as N),
# reading the channels-first input along its contiguous positions, no copy. Knobs from the environment.
import os
import torch
import torch.nn as nn
import triton
import triton.language as tl

BP = int(os.environ.get("BP", "128"))
BCO = int(os.environ.get("BCO", "128"))
BK = int(os.environ.get("BK", "32"))
WARPS = int(os.environ.get("WARPS", "8"))
STAGES = int(os.environ.get("STAGES", "3"))
PREC = os.environ.get("PREC", "tf32")


@triton.jit
def pw_kernel(x_ptr, w_ptr, y_ptr, P: tl.constexpr, CIN: tl.constexpr, COUT: tl.constexpr,
              BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr, BLOCK_K: tl.constexpr, PREC: tl.constexpr):
    pid_p = tl.program_id(0)
    n = tl.program_id(1).to(tl.int64)
    pid_co = tl.program_id(2)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    offs_k = tl.arange(0, BLOCK_K)
    x_base = x_ptr + n * (CIN * P)
    acc = tl.zeros((BLOCK_CO, BLOCK_P), dtype=tl.float32)
    for k0 in range(0, CIN, BLOCK_K):
        k = k0 + offs_k
        w = tl.load(w_ptr + offs_co[:, None] * CIN + k[None, :], mask=(offs_co[:, None] < COUT) & (k[None, :] < CIN), other=0.0)
        x = tl.load(x_base + k[:, None] * P + offs_p[None, :], mask=(k[:, None] < CIN) & (offs_p[None, :] < P), other=0.0)
        acc = tl.dot(w, x, acc, input_precision=PREC)
    y_ptrs = y_ptr + n * (COUT * P) + offs_co[:, None] * P + offs_p[None, :]
    tl.store(y_ptrs, acc, mask=(offs_co[:, None] < COUT) & (offs_p[None, :] < P))


class ModelNew(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.add_module("conv", nn.Module())
        self.conv.register_parameter("weight", nn.Parameter(torch.empty((cout, cin, 1, 1))))

    def forward(self, x):
        nb, cin, h, w = x.shape
        cout = self.conv.weight.shape[0]
        p = h * w
        y = torch.empty((nb, cout, h, w), device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(p, BP), nb, triton.cdiv(cout, BCO))
        pw_kernel[grid](x, self.conv.weight, y, P=p, CIN=cin, COUT=cout, BLOCK_P=BP, BLOCK_CO=BCO, BLOCK_K=BK,
                        PREC=PREC, num_warps=WARPS, num_stages=STAGES)
        return y
