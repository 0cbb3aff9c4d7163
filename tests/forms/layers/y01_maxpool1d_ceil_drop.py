import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool1d k2 s3 p1 ceil_mode=True where the last ceil window would start in padding (dropped)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool1d(2, stride=3, padding=1, ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 8, 10)]


def get_init_inputs():
    return []
