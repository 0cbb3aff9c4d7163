import torch
import torch.nn as nn


class Model(nn.Module):
    """A suffix sum (flips around the scan), scaled, shifted and rectified after it."""

    def forward(self, x):
        return torch.relu(torch.cumsum(x.flip(1), 1).flip(1) * 0.5 - 1.0)


def get_inputs():
    return [torch.randn(5, 130)]


def get_init_inputs():
    return []
