import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """InstanceNorm1d on an (N, L, C).transpose(1, 2) input."""

    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm1d(6)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(3, 20, 6).transpose(1, 2)]


def get_init_inputs():
    return []
