import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bmm output times a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, a, b):
        return torch.bmm(a, b) * self.s


def get_inputs():
    return [torch.randn(3, 5, 8), torch.randn(3, 8, 6)]


def get_init_inputs():
    return []
