import torch
import torch.nn as nn


class Model(nn.Module):
    """A 4-D tensor (b, i, j, l) times a matrix (l, k) over l, written as an einsum."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bijl,lk->bijk", A, B)


b = 8
i = 256
j = 512
l = 256
k = 768


def get_inputs():
    A = torch.rand(b, i, j, l)
    B = torch.rand(l, k)
    return [A, B]


def get_init_inputs():
    return []
