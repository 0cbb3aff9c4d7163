import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 3-D convolution, stride 2, padding 1, 4 groups."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2, padding=1, groups=4, bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


in_channels = 32
out_channels = 32
kernel_size = (3, 3, 3)
input_shape = (4, 32, 32, 64, 128)


def get_inputs():
    return [torch.rand(*input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
