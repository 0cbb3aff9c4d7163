import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product: A (M, K) times B (K, 1)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256 * 8
K = 131072 * 8


def get_inputs():
    A = torch.rand(M, K)
    B = torch.rand(K, 1)
    return [A, B]


def get_init_inputs():
    return []
