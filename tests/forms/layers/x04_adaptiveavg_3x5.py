import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AdaptiveAvgPool2d((3, 5)) over a 16x17 input (not multiples)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((3, 5))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 4, 16, 17)]


def get_init_inputs():
    return []
