import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched C[b] = A[b] @ B[b]."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 3
m = 40
k = 48
n = 56


def get_inputs():
    return [torch.randn(batch_size, m, k), torch.randn(batch_size, k, n)]


def get_init_inputs():
    return []
