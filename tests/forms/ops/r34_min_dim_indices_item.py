import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.min over the last dimension, indexed for its indices."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.min(x, -1)[1]


def get_inputs():
    return [torch.randn(48, 1000)]


def get_init_inputs():
    return []
