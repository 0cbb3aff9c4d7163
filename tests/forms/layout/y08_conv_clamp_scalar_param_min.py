import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d output clamped below by a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 4, 3)
        self.lo = nn.Parameter(torch.tensor(-0.2))

    def forward(self, x):
        return torch.maximum(self.conv(x), self.lo)


def get_inputs():
    return [torch.randn(2, 3, 20)]


def get_init_inputs():
    return []
