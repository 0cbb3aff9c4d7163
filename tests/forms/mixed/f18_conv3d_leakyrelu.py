import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv3d then leaky_relu(0.2)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(2, 4, 3)

    def forward(self, x):
        return F.leaky_relu(self.conv(x), 0.2)


def get_inputs():
    return [torch.randn(1, 2, 8, 8, 8)]


def get_init_inputs():
    return []
