import torch
import torch.nn as nn


class Model(nn.Module):
    """Two outputs: relu(x) and sigmoid(x)."""

    def forward(self, x: torch.Tensor):
        return torch.relu(x), torch.sigmoid(x)


def get_inputs():
    return [torch.randn(4, 100)]


def get_init_inputs():
    return []
