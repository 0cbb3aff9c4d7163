import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool2d k2 s2 dilation 2 ceil_mode=True."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2, stride=2, dilation=2, ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 4, 16, 16)]


def get_init_inputs():
    return []
