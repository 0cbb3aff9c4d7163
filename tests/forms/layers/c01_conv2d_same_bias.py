import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d 3x3 with bias and padding='same'."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding='same', bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 16, 16)]


def get_init_inputs():
    return [4, 8, 3]
