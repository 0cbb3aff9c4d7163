import torch
import torch.nn as nn


class Model(nn.Module):
    """An exclusive cumulative sum written as the inclusive one less the input: an epilogue reading an input."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim) - x


def get_inputs():
    return [torch.rand(6, 257)]


def get_init_inputs():
    return [1]
