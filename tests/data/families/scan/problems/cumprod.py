import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumulative product along the last dimension (KernelBench 90 at a small shape); values near 1 so
    that the products stay away from 0."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumprod(x, dim=self.dim)


def get_inputs():
    return [0.9 + 0.2 * torch.rand(8, 300)]


def get_init_inputs():
    return [1]
