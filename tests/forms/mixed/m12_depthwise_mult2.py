import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """depthwise Conv2d with channel multiplier 2 (groups=in, out=2*in)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, groups=4, padding=1)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 10, 10)]


def get_init_inputs():
    return []
