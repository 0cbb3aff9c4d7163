import torch
import torch.nn as nn


class Model(nn.Module):
    """A 2-D 3 x 3 convolution, stride 1, padding 1, with bias: 64 to 128 channels over 56 x 56 images."""

    def __init__(self, in_channels, out_channels, kernel_size, padding):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, bias=True)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 32
in_channels = 64
out_channels = 128
kernel_size = 3
padding = 1
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, padding]
