import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.digamma over values spread across (-10, 10): PyTorch's kernel reflects the negative ones and then
    steps each value up to 10 one unit at a time, so neighbouring elements take different paths and counts."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.digamma(x)


def get_inputs():
    return [torch.rand(1 << 24) * 20 - 10]


def get_init_inputs():
    return []
