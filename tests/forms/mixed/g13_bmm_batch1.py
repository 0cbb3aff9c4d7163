import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.bmm with batch 1."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(1, 33, 20), torch.randn(1, 20, 17)]


def get_init_inputs():
    return []
