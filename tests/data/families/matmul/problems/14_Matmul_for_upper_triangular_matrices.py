import torch
import torch.nn as nn


class Model(nn.Module):
    """C = triu(A @ B) for upper triangular A and B."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B) -> torch.Tensor:
        return torch.triu(torch.matmul(A, B))


N = 72


def get_inputs():
    return [torch.triu(torch.randn(N, N)), torch.triu(torch.randn(N, N))]


def get_init_inputs():
    return []
