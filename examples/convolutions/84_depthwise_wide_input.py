import torch
import torch.nn as nn


class Model(nn.Module):
    """A depthwise 3 x 3 convolution over a wide image."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size=(kernel_size, kernel_size), stride=stride, padding=padding, groups=in_channels, bias=False)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 64
in_channels = 128
out_channels = 128
kernel_size = 3
width_in = 512
height_in = 256
stride = 1
padding = 0


def get_inputs():
    return [torch.rand(batch_size, in_channels, height_in, width_in)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
