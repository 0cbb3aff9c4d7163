import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 3-D convolution, stride 2, padding 1, dilation 2."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2, padding=1, dilation=2, bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


in_channels = 32
out_channels = 64
kernel_size = (3, 3, 3)
input_shape = (16, 32, 16, 32, 32)


def get_inputs():
    return [torch.rand(*input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
