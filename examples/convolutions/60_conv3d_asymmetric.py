import torch
import torch.nn as nn


class Model(nn.Module):
    """A 3-D convolution with a 3 x 5 x 7 window."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv3d = nn.Conv3d(in_channels, out_channels, kernel_size, bias=False)

    def forward(self, x):
        return self.conv3d(x)


batch_size = 16
in_channels = 3
out_channels = 64
kernel_size = (3, 5, 7)
width = 64
height = 64
depth = 64


def get_inputs():
    return [torch.rand(batch_size, in_channels, width, height, depth)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
