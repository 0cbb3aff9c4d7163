import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Pointwise ops before and after a 1-D average pool whose windows overlap (the padding counts as zeros)."""

    def forward(self, x):
        return torch.tanh(F.avg_pool1d(x * 2.0 - 1.0, 4, stride=1, padding=1)) * 3.0


def get_inputs():
    return [torch.randn(3, 5, 70)]


def get_init_inputs():
    return []
