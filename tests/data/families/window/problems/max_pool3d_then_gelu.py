import torch
import torch.nn as nn


class Model(nn.Module):
    """A 3-D max pool whose outputs go through a GELU."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d(2)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.pool(x))


def get_inputs():
    return [torch.randn(2, 3, 8, 9, 10)]


def get_init_inputs():
    return []
