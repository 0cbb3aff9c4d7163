import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise Conv2d 3x3 with bias and stride 2."""

    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, stride=2, padding=1, groups=channels, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 8, 16, 16)]


def get_init_inputs():
    return [8, 3]
