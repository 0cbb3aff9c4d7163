import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """sigmoid of flatten(1) of a permute done in forward."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.sigmoid(x.permute(0, 2, 1).flatten(1))


def get_inputs():
    return [torch.randn(4, 6, 10)]


def get_init_inputs():
    return []
