import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over short rows, few of them."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(8, 300)]


def get_init_inputs():
    return []
