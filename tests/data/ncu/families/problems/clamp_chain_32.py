import torch
import torch.nn as nn


class Model(nn.Module):
    """32 clamps an element between bounds that tighten step by step: a minimum and a maximum a step, no
    arithmetic, for one read and one write an element."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        for i in range(32):
            x = torch.clamp(x, min=-2.0 + 0.01 * i, max=2.0 - 0.01 * i)
        return x


def get_inputs():
    return [torch.randn(4096, 65536)]


def get_init_inputs():
    return []
