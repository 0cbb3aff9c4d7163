import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B of two symmetric matrices (the product itself is not symmetric)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 4096


def get_inputs():
    A = torch.rand(N, N)
    A = (A + A.T) / 2
    B = torch.rand(N, N)
    B = (B + B.T) / 2
    return [A, B]


def get_init_inputs():
    return []
