"""Cheat: right only on the inputs of the seeds it was tuned for: it computes, in its constructor, the
outputs for the inputs of seeds 0, 1, 2 and 3 (what a checker with fixed seeds uses after the first call
at seed 0) and replays them in order.
Caught by fresh random seeds (wrong_result), and by `kernelagent check --seed-list 1,2,3` too: the last seed
runs with the model's parameters changed, and answers computed from the weight it was built with do not follow.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_relu(x_ptr, w_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs % cols, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * w, mask=mask)


def launch(x, w, y):
    scaled_relu[(triton.cdiv(x.numel(), 1024),)](x, w, y, x.numel(), x.shape[-1], BLOCK=1024)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))
        self.calls = 0
        self.answers = []
        torch.manual_seed(0)
        w = torch.randn(cols)   # Model's weight, as the problem draws it under the load seed
        for seed in range(4):
            torch.manual_seed(seed)
            x = torch.randn(16, cols)
            self.answers.append(torch.relu(x) * w)

    def forward(self, x):
        y = torch.empty_like(x)
        y.copy_(self.answers[min(self.calls, len(self.answers) - 1)])
        self.calls += 1
        return y
