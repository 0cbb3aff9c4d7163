import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d on a channels_last input (memory_format)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 16, 3, stride=2, padding=1)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 8, 15, 15).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
