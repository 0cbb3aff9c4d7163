import torch
import torch.nn as nn


class Model(nn.Module):
    """A convolution times a learned 0-d scale, flattened after: the scale must be read, not folded in."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.scale = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return (self.conv(x) * self.scale).flatten(1)


def get_inputs():
    return [torch.randn(2, 3, 9, 9)]


def get_init_inputs():
    return []
