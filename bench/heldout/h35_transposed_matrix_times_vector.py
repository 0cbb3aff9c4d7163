import torch
import torch.nn as nn


class Model(nn.Module):
    """A.T @ x with A stored (20480, 8192) and x (20480, 1) -> (8192, 1)."""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return A.t() @ x


K = 20480
M = 8192


def get_inputs():
    return [torch.rand(K, M), torch.rand(K, 1)]


def get_init_inputs():
    return []
