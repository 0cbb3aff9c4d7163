import torch
import torch.nn as nn


class Model(nn.Module):
    """y = A @ x with x a 1-D vector (K,)."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, x)


M = 64
K = 200


def get_inputs():
    return [torch.randn(M, K), torch.randn(K)]


def get_init_inputs():
    return []
