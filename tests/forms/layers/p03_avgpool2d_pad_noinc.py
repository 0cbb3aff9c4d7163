import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool2d with padding and count_include_pad=False."""

    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=kernel_size, stride=stride, padding=padding, count_include_pad=False)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 4, 16, 16)]


def get_init_inputs():
    return [3, 2, 1]
