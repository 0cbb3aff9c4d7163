import torch
import torch.nn as nn


class Model(nn.Module):
    """bmm of [B, 1, K] by [B, K, N]: one output row a batch."""

    def forward(self, x: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
        return torch.bmm(x, W)


B = 3
K = 130
N = 70


def get_inputs():
    return [torch.randn(B, 1, K), torch.randn(B, K, N)]


def get_init_inputs():
    return []
