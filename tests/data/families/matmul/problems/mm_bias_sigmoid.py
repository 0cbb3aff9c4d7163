import torch
import torch.nn as nn


class Model(nn.Module):
    """sigmoid(A @ B + bias), the bias a forward input of [N]."""

    def forward(self, a, b, bias):
        return torch.sigmoid(a @ b + bias)


def get_inputs():
    return [torch.randn(40, 24), torch.randn(24, 36), torch.randn(36)]


def get_init_inputs():
    return []
