import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool2d of x times a per-channel parameter (pointwise with a parameter before the pool)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.w = nn.Parameter(torch.rand(4, 1, 1) + 0.5)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(x * self.w)


def get_inputs():
    return [torch.randn(2, 4, 12, 12)]


def get_init_inputs():
    return []
