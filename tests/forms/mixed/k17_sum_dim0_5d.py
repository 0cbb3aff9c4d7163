import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """sum over dim 0 of a 5-D tensor."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return x.sum(dim=0)


def get_inputs():
    return [torch.randn(5, 2, 3, 4, 6)]


def get_init_inputs():
    return []
