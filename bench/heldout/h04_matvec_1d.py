import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product with a 1-D vector: A (16384, 20480) times x (20480,) -> (16384,)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, x)


M = 16384
K = 20480


def get_inputs():
    A = torch.rand(M, K)
    x = torch.rand(K)
    return [A, x]


def get_init_inputs():
    return []
