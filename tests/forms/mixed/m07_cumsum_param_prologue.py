import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """cumsum over dim 1 of x times a per-column parameter."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.w = nn.Parameter(torch.randn(1, 40))

    def forward(self, x):
        return torch.cumsum(x * self.w, dim=1)


def get_inputs():
    return [torch.randn(16, 40)]


def get_init_inputs():
    return []
