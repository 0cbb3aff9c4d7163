import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool3d with ceil_mode=True."""

    def __init__(self, kernel_size, stride):
        super().__init__()
        self.pool = nn.AvgPool3d(kernel_size=kernel_size, stride=stride, ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 4, 9, 9, 9)]


def get_init_inputs():
    return [2, 2]
