import torch
import torch.nn as nn


class Model(nn.Module):
    """A pointwise (1 x 1) convolution with bias, 256 to 512 channels over 56 x 56 images."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=True)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 256
out_channels = 512
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
