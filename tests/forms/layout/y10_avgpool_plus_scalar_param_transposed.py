import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AvgPool1d output plus a 0-d parameter, input given as a transpose."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(3)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return self.pool(x) + self.s


def get_inputs():
    return [torch.randn(2, 16, 4).transpose(1, 2)]


def get_init_inputs():
    return []
