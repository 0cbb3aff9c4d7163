import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """argmax over dim -3 of a fully reversed 5-D permute view."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.argmax(x, dim=-3)


def get_inputs():
    return [torch.randn(2, 3, 4, 5, 6).permute(4, 3, 2, 1, 0)]


def get_init_inputs():
    return []
