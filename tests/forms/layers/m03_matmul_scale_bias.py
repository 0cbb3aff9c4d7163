import torch
import torch.nn as nn


class Model(nn.Module):
    """Matmul followed by a scalar multiply and a bias add."""

    def __init__(self, n):
        super().__init__()
        torch.manual_seed(0)
        self.bias = nn.Parameter(torch.randn(n))
        self.scale = 0.75

    def forward(self, A, B):
        return torch.matmul(A, B) * self.scale + self.bias


def get_inputs():
    return [torch.randn(64, 48), torch.randn(48, 40)]


def get_init_inputs():
    return [40]
