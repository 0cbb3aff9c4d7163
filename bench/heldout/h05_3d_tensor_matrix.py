import torch
import torch.nn as nn


class Model(nn.Module):
    """A 3-D tensor (8, 1536, 1000) times a matrix (1000, 1200)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 8
M = 1536
K = 1000
L = 1200


def get_inputs():
    A = torch.rand(N, M, K)
    B = torch.rand(K, L)
    return [A, B]


def get_init_inputs():
    return []
