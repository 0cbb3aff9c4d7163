import torch
import torch.nn as nn


class Model(nn.Module):
    """LeakyReLU activation."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 16
dim = 1000


def get_inputs():
    x = torch.randn(batch_size, dim) * 3
    return [x]


def get_init_inputs():
    return []
