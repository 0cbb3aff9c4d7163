import torch
import torch.nn as nn


class Model(nn.Module):
    """argmax over every element (the flattened index), ties included."""

    def forward(self, x):
        return torch.argmax(x)


def get_inputs():
    x = torch.randn(37, 53)
    x[20, 7] = 10.0
    x[30, 1] = 10.0
    return [x]


def get_init_inputs():
    return []
