import torch
import torch.nn as nn


class Model(nn.Module):
    """The input changed in place, then another value returned: the input's new values and the result both count."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        torch.relu_(x)
        return x * 2


def get_inputs():
    return [torch.randn(30, 70)]


def get_init_inputs():
    return []
