import torch
import torch.nn as nn


class Model(nn.Module):
    """The positions of a running maximum: the scan family computes the values only."""

    def forward(self, x):
        return torch.cummax(x, dim=1).indices


def get_inputs():
    return [torch.randn(7, 60)]


def get_init_inputs():
    return []
