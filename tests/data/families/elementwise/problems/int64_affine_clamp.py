import torch
import torch.nn as nn


class Model(nn.Module):
    """Integer arithmetic with integer literals on int64 values near 2^40: x * 3 + 1, clamped, relu'd where
    negative, plus ones: every literal stays an integer in the kernel (through fp32 the values past 2^24 are
    lost), and the check compares integers exactly."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.clamp(x * 3 + 1, min=-(2**41), max=2**41 + 2**21)
        return torch.relu(torch.where(y > 2**41, y, -y)) + torch.ones_like(y)


def get_inputs():
    return [torch.randint(2**40 - 2**20, 2**40 + 2**20, (8, 64))]


def get_init_inputs():
    return []
