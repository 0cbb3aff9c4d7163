import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumulative sum down the leading dimension of a (8192, 16384) tensor."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


dim0 = 8192
dim1 = 16384
dim = 0


def get_inputs():
    return [torch.rand(dim0, dim1)]


def get_init_inputs():
    return [dim]
