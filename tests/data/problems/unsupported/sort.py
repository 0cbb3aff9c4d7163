import torch
import torch.nn as nn


class Model(nn.Module):
    """A sort along rows: no built-in family covers sorting."""

    def forward(self, x):
        return torch.sort(x, dim=1).values


def get_inputs():
    return [torch.randn(8, 64)]


def get_init_inputs():
    return []
