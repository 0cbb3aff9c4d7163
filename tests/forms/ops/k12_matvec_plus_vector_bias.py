import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A @ v + b with b a (64,) parameter."""

    def __init__(self):
        super().__init__()
        self.v = nn.Parameter(torch.randn(300) * 0.1)
        self.b = nn.Parameter(torch.randn(64))

    def forward(self, A):
        return A @ self.v + self.b


def get_inputs():
    return [torch.randn(64, 300)]


def get_init_inputs():
    return []
