import torch
import torch.nn as nn


class Model(nn.Module):
    """2 * (A @ B): a scaled epilogue."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B) -> torch.Tensor:
        return torch.matmul(A, B) * 2.0


def get_inputs():
    return [torch.randn(32, 48), torch.randn(48, 40)]


def get_init_inputs():
    return []
