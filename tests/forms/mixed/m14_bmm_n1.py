import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bmm with N = 1."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(4, 20, 30), torch.randn(4, 30, 1)]


def get_init_inputs():
    return []
