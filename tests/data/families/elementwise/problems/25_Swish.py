import torch
import torch.nn as nn


class Model(nn.Module):
    """Swish activation: x * sigmoid(x)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sigmoid(x)


batch_size = 16
dim = 1000


def get_inputs():
    x = torch.randn(batch_size, dim) * 3
    return [x]


def get_init_inputs():
    return []
