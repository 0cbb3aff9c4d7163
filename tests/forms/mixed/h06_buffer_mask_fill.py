import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """masked_fill with a registered bool buffer mask."""

    def __init__(self):
        super().__init__()
        self.register_buffer('mask', torch.triu(torch.ones(24, 24, dtype=torch.bool), diagonal=1))

    def forward(self, x):
        return x.masked_fill(self.mask, 0.0)


def get_inputs():
    return [torch.randn(4, 24, 24)]


def get_init_inputs():
    return []
