import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d with padding=1 and padding_mode='reflect'."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1, padding_mode='reflect', bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 16, 16)]


def get_init_inputs():
    return [4, 8, 3]
