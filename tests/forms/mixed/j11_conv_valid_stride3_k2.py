import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d padding='valid', kernel 2, stride 3."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 2, stride=3, padding='valid')

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 3, 20, 17)]


def get_init_inputs():
    return []
