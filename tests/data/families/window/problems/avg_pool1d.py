import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool1d with padding counted in the divisor (KernelBench 44 at a small shape)."""

    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.avg_pool = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.avg_pool(x)


def get_inputs():
    return [torch.randn(2, 3, 100)]


def get_init_inputs():
    return [8, 1, 4]
