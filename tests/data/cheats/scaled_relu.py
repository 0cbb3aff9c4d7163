"""The problem every kernel of the cheat suite claims to solve: y = relu(x) * w, w a learned scale per column.

Small on purpose: each case is one `kernelagent check` on Triton's interpreter (tests/e2e/test_check_cheats.py).
"""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.randn(cols))

    def forward(self, x):
        return torch.relu(x) * self.w


def get_inputs():
    return [torch.randn(16, 64)]


def get_init_inputs():
    return [64]
