import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool2d output times a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return self.pool(x) * self.s


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
