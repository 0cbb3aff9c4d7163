import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched C = A @ B: 96 products of (640, 320) @ (320, 960)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 96
m = 640
k = 320
n = 960


def get_inputs():
    A = torch.rand(batch_size, m, k)
    B = torch.rand(batch_size, k, n)
    return [A, B]


def get_init_inputs():
    return []
