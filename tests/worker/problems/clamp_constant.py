import torch
import torch.nn as nn


class Model(nn.Module):
    """clamp(x, min=5) of standard-normal inputs: 5.0 everywhere, whatever the seed."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(x, min=5.0)


def get_inputs():
    return [torch.randn(16, 256)]


def get_init_inputs():
    return []
