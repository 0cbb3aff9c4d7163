import torch
import torch.nn as nn


class Model(nn.Module):
    """A depthwise 3 x 3 convolution (one group per channel)."""

    def __init__(self, in_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding, groups=in_channels, bias=False)

    def forward(self, x):
        return self.conv2d(x)


batch_size = 16
in_channels = 64
kernel_size = 3
width = 512
height = 512
stride = 1
padding = 0


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, kernel_size, stride, padding]
