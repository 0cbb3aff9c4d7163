import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AdaptiveAvgPool1d(1) on an (N, L, C).transpose(1, 2) input."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool1d(1)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(3, 29, 5).transpose(1, 2)]


def get_init_inputs():
    return []
