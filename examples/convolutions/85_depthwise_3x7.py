import torch
import torch.nn as nn


class Model(nn.Module):
    """A depthwise convolution with a 3 x 7 window."""

    def __init__(self, in_channels, kernel_size_h, kernel_size_w):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, in_channels, (kernel_size_h, kernel_size_w), groups=in_channels, bias=False)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 32
in_channels = 128
kernel_size_h = 3
kernel_size_w = 7
width = 256
height = 128


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, kernel_size_h, kernel_size_w]
