import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """argmin over dim 1 of an input expanded along that dim (all ties)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.argmin(x, dim=1)


def get_inputs():
    return [torch.randn(12, 1).expand(12, 25)]


def get_init_inputs():
    return []
