import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv1d with groups=2, bias and dilation=2."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, groups=2, dilation=2, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 8, 64)]


def get_init_inputs():
    return [8, 8, 3]
