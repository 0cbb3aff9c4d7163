import torch
import torch.nn as nn


class Model(nn.Module):
    """A convolution multiplied by a per-channel parameter [C, 1, 1]: read once a channel by the epilogue."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.scale = nn.Parameter(torch.randn(8, 1, 1))

    def forward(self, x):
        return self.conv(x) * self.scale


def get_inputs():
    return [torch.randn(2, 3, 9, 9)]


def get_init_inputs():
    return []
