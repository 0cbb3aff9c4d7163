import torch
import torch.nn as nn


class Model(nn.Module):
    """y = x @ B with x a 1-D vector (K,) and B [K, N]: one output row."""

    def forward(self, x: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(x, B)


K = 300
N = 200


def get_inputs():
    return [torch.randn(K), torch.randn(K, N)]


def get_init_inputs():
    return []
