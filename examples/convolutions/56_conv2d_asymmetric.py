import torch
import torch.nn as nn


class Model(nn.Module):
    """A 2-D convolution with a 5 x 7 window over a tall image."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, bias=False)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 8
in_channels = 64
out_channels = 128
kernel_size = (5, 7)
height = 512
width = 256


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
