import torch
import torch.nn as nn


class Model(nn.Module):
    """A @ B @ C: two products."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B, C) -> torch.Tensor:
        return A @ B @ C


def get_inputs():
    return [torch.randn(32, 48), torch.randn(48, 40), torch.randn(40, 24)]


def get_init_inputs():
    return []
