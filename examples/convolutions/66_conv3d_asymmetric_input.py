import torch
import torch.nn as nn


class Model(nn.Module):
    """A 3-D convolution with a 3 x 5 x 7 window over a shallow volume."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv3d = nn.Conv3d(in_channels, out_channels, kernel_size, bias=False)

    def forward(self, x):
        return self.conv3d(x)


batch_size = 8
in_channels = 3
out_channels = 64
kernel_size = (3, 5, 7)
depth = 16
height = 128
width = 128


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
