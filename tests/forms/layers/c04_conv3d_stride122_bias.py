import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv3d with stride (1, 2, 2) and bias."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=(1, 2, 2), bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 6, 12, 12)]


def get_init_inputs():
    return [4, 4, 3]
