import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """GroupNorm with groups == channels on a 3-D (N,C,L) input."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(6, 6)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    return [torch.randn(4, 6, 33)]


def get_init_inputs():
    return []
