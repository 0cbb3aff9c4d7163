import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-scalar multiplication: C = A * s."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, s: float) -> torch.Tensor:
        return A * s


M = 64
N = 96


def get_inputs():
    A = torch.rand(M, N)
    s = 3.14
    return [A, s]


def get_init_inputs():
    return []
