import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.normalize p=1 along the last dim with eps=0.5 large enough to clamp some rows."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return F.normalize(x, p=1, dim=-1, eps=0.5)


def get_inputs():
    return [torch.rand(64, 32) * torch.linspace(0.001, 0.1, 64).view(64, 1)]


def get_init_inputs():
    return []
