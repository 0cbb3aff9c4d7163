import torch
import torch.nn as nn


class Model(nn.Module):
    """4D tensor-matrix product: C[b,i,j,k] = sum_l A[b,i,j,l] * B[l,k]."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B) -> torch.Tensor:
        return torch.einsum("bijl,lk->bijk", A, B)


b = 2
i = 6
j = 8
l = 40
k = 24


def get_inputs():
    return [torch.randn(b, i, j, l), torch.randn(l, k)]


def get_init_inputs():
    return []
