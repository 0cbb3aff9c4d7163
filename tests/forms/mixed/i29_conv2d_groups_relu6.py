import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """grouped Conv2d (groups=2) then relu6."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 12, 3, groups=2, padding=1)

    def forward(self, x):
        return F.relu6(self.conv(x))


def get_inputs():
    return [torch.randn(2, 8, 10, 10)]


def get_init_inputs():
    return []
