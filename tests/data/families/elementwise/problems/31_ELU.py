import torch
import torch.nn as nn


class Model(nn.Module):
    """ELU activation."""

    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.elu(x, alpha=self.alpha)


batch_size = 16
dim = 1000


def get_inputs():
    x = torch.randn(batch_size, dim) * 3
    return [x]


def get_init_inputs():
    return []
