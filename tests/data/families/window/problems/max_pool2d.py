import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d with padding (KernelBench 42 at a small shape)."""

    def __init__(self, kernel_size, stride, padding, dilation):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x):
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(2, 3, 20, 23)]


def get_init_inputs():
    return [4, 1, 1, 1]
