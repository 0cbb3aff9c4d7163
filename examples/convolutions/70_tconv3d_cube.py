import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 3-D convolution over a 96^3 volume."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


in_channels = 48
out_channels = 24
kernel_size = (3, 3, 3)
input_shape = (8, 48, 96, 96, 96)


def get_inputs():
    return [torch.rand(*input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
