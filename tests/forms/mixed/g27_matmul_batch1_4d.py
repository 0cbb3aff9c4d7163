import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """matmul with 4-D operands whose batch dims are 1."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(1, 1, 24, 16), torch.randn(1, 1, 16, 20)]


def get_init_inputs():
    return []
