import torch
import torch.nn as nn


class Model(nn.Module):
    """A depthwise 5 x 5 convolution (one group per channel), stride 2, padding 2, 128 channels at 128 x 128."""

    def __init__(self, in_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding, groups=in_channels, bias=False)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 32
in_channels = 128
kernel_size = 5
height = 128
width = 128
stride = 2
padding = 2


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, kernel_size, stride, padding]
