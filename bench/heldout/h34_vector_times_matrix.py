import torch
import torch.nn as nn


class Model(nn.Module):
    """Vector-matrix product: x (16384,) times B (16384, 12288) -> (12288,)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(x, B)


K = 16384
N = 12288


def get_inputs():
    return [torch.rand(K), torch.rand(K, N)]


def get_init_inputs():
    return []
