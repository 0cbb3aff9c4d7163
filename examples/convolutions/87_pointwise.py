import torch
import torch.nn as nn


class Model(nn.Module):
    """A pointwise (1 x 1) convolution of 64 to 128 channels."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x):
        return self.conv(x)


batch_size = 16
in_channels = 64
out_channels = 128
width = 1024
height = 1024


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
