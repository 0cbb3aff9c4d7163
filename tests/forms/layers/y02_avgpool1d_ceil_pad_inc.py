import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AvgPool1d k3 s2 p1 ceil_mode=True count_include_pad=True (last window passes the padded end)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 8, 12)]


def get_init_inputs():
    return []
