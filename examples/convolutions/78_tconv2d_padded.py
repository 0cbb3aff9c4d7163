import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 2-D convolution with a 3 x 7 window and padding (1, 3)."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, padding=(1, 3), bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


in_channels = 32
out_channels = 32
kernel_size = (3, 7)
input_shape = (8, 32, 512, 1024)


def get_inputs():
    return [torch.rand(*input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
