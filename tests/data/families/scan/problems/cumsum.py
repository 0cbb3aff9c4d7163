import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumulative sum along the last dimension (KernelBench 89 at a small shape)."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    return [torch.rand(8, 300)]


def get_init_inputs():
    return [1]
