import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """2-D matrix @ 1-D vector."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, m, v):
        return m @ v


def get_inputs():
    return [torch.randn(64, 48), torch.randn(48)]


def get_init_inputs():
    return []
