import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool3d k=2 stride (1,2,2) dilation 2."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d(2, stride=(1, 2, 2), dilation=2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 3, 8, 10, 10)]


def get_init_inputs():
    return []
