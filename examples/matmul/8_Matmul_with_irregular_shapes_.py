import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B with irregular sizes: K and N leave rows unaligned to 16 bytes."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 8205
K = 2949
N = 5921


def get_inputs():
    A = torch.rand(M, K)
    B = torch.rand(K, N)
    return [A, B]


def get_init_inputs():
    return []
