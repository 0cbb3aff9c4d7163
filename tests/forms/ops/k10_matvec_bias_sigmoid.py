import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """sigmoid(A @ v + bias) with v and bias parameters."""

    def __init__(self):
        super().__init__()
        self.v = nn.Parameter(torch.randn(300) * 0.1)
        self.bias = nn.Parameter(torch.randn(()))

    def forward(self, A):
        return torch.sigmoid(A @ self.v + self.bias)


def get_inputs():
    return [torch.randn(64, 300)]


def get_init_inputs():
    return []
