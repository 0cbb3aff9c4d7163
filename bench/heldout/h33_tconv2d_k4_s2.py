import torch
import torch.nn as nn


class Model(nn.Module):
    """A transposed 2-D convolution, 4 x 4 window, stride 2, padding 1 (2x upsampling): 128 to 64 channels, 64 x 64 -> 128 x 128."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=False)

    def forward(self, x):
        return self.conv_transpose(x)


batch_size = 16
in_channels = 128
out_channels = 64
kernel_size = 4
stride = 2
padding = 1
height = 64
width = 64


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
