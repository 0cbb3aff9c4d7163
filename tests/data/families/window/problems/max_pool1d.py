import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool1d with padding and dilation (KernelBench 41 at a small shape)."""

    def __init__(self, kernel_size, stride, padding, dilation):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x):
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(2, 3, 100)]


def get_init_inputs():
    return [8, 1, 4, 3]
