import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d kernel 7, padding 3 on a 5x5 input."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 7, padding=3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 2, 5, 5)]


def get_init_inputs():
    return []
