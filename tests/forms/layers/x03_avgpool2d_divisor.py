import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AvgPool2d k3 s1 p1 divisor_override=4."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(3, stride=1, padding=1, divisor_override=4)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 4, 16, 16)]


def get_init_inputs():
    return []
