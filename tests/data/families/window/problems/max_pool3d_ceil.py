import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool3d with stride, padding, dilation and ceil_mode (KernelBench 43 at a small shape, ceil_mode on)."""

    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)

    def forward(self, x):
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(2, 2, 11, 12, 13)]


def get_init_inputs():
    return []
