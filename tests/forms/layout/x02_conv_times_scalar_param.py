import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d output times a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return self.conv(x) * self.s


def get_inputs():
    return [torch.randn(2, 3, 9, 9)]


def get_init_inputs():
    return []
