import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv3d stride 2 dilation 2 padding 1 with bias."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 6, 3, stride=2, dilation=2, padding=1)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 3, 11, 12, 13)]


def get_init_inputs():
    return []
