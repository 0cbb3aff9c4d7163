import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A.T @ B.T with A (K, M) and B (N, K)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B.T)


M = 1024 * 2
K = 4096 * 2
N = 2048 * 2


def get_inputs():
    A = torch.rand(K, M)
    B = torch.rand(N, K)
    return [A, B]


def get_init_inputs():
    return []
