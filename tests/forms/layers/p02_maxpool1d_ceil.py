import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool1d with ceil_mode=True."""

    def __init__(self, kernel_size, stride):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 8, 32)]


def get_init_inputs():
    return [3, 2]
