import torch
import torch.nn as nn


class Model(nn.Module):
    """3D tensor-matrix product: A (N, M, K) times B (K, L)."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B) -> torch.Tensor:
        return torch.matmul(A, B)


N = 4
M = 24
K = 40
L = 36


def get_inputs():
    return [torch.randn(N, M, K), torch.randn(K, L)]


def get_init_inputs():
    return []
