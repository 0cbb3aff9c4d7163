import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 2-D convolution, stride (2, 3), padding (1, 2), dilation (2, 1), 4 groups."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=(2, 3), padding=(1, 2), dilation=(2, 1), groups=4, bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


in_channels = 32
out_channels = 64
kernel_size = (3, 5)
input_shape = (16, 32, 128, 256)


def get_inputs():
    return [torch.rand(*input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
