import torch
import torch.nn as nn


class Model(nn.Module):
    """A bool mask and an integer tensor in a pointwise chain, with a parameter broadcast over the columns."""

    def __init__(self, cols: int):
        super().__init__()
        self.scale = nn.Parameter(torch.linspace(0.5, 1.5, cols))

    def forward(self, x, mask, k):
        return torch.where(mask, x * self.scale, -x) + k


def get_inputs():
    return [torch.randn(12, 33), torch.rand(12, 33) > 0.5, torch.randint(0, 4, (12, 1))]


def get_init_inputs():
    return [33]
