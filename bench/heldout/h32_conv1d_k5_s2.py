import torch
import torch.nn as nn


class Model(nn.Module):
    """A 1-D convolution, window 5, stride 2, padding 2: 96 to 192 channels, length 8192 -> 4096."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding):
        super().__init__()
        self.conv1d = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=False)

    def forward(self, x):
        return self.conv1d(x)


batch_size = 32
in_channels = 96
out_channels = 192
kernel_size = 5
stride = 2
padding = 2
length = 8192


def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]
