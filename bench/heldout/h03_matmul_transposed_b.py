import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B.T with A (2500, 3000) and B (1800, 3000): a linear layer's product, B stored row-major."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


M = 2500
K = 3000
N = 1800


def get_inputs():
    A = torch.rand(M, K)
    B = torch.rand(N, K)
    return [A, B]


def get_init_inputs():
    return []
