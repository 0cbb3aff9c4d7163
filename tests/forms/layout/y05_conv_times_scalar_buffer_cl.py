import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d output on channels_last times a 0-d buffer."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.register_buffer('k', torch.tensor(0.7))

    def forward(self, x):
        return self.conv(x) * self.k


def get_inputs():
    return [torch.randn(2, 3, 9, 9).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
