import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.addmm with beta=0.5 alpha=2 and a broadcast 1-D input."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x, y, z):
        return torch.addmm(x, y, z, beta=0.5, alpha=2.0)


def get_inputs():
    return [torch.randn(40), torch.randn(64, 48), torch.randn(48, 40)]


def get_init_inputs():
    return []
