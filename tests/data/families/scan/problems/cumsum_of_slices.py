import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumulative sum over parts of the input read in place (every channel from the third, scaled by its
    first column) and a part of a parameter after it."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(7))

    def forward(self, x):
        return torch.cumsum(x[:, 2:] * x[:, 2:, 0:1], dim=1) * self.w[1:-1]


def get_inputs():
    return [torch.randn(3, 12, 5)]


def get_init_inputs():
    return []
