import torch
import torch.nn as nn


class Model(nn.Module):
    """x @ W.T with x [1, K] and W [N, K] (a linear layer of one input row, no bias): the matrix is contiguous
    along K, so it is read row by row."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.t()


K = 600
N = 48


def get_inputs():
    return [torch.randn(1, K)]


def get_init_inputs():
    return [K, N]
