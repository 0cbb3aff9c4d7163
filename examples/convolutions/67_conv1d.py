import torch
import torch.nn as nn


class Model(nn.Module):
    """A 1-D convolution over long sequences."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv1d = nn.Conv1d(in_channels, out_channels, kernel_size, bias=False)

    def forward(self, x):
        return self.conv1d(x)


batch_size = 32
in_channels = 64
out_channels = 128
kernel_size = 3
length = 131072


def get_inputs():
    return [torch.rand(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
