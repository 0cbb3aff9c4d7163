import torch
import torch.nn as nn


class Model(nn.Module):
    """A 3-D convolution with a cubic window."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv3d = nn.Conv3d(in_channels, out_channels, (kernel_size, kernel_size, kernel_size), bias=False)

    def forward(self, x):
        return self.conv3d(x)


batch_size = 16
in_channels = 3
out_channels = 64
kernel_size = 3
depth = 64
width = 64
height = 64


def get_inputs():
    return [torch.rand(batch_size, in_channels, depth, width, height)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
