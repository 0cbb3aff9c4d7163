import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over the middle dimension (1000) of a 3-D tensor (96, 1000, 2000)."""

    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=self.dim)


batch_size = 96
dim1 = 1000
dim2 = 2000


def get_inputs():
    x = torch.randn(batch_size, dim1, dim2)
    return [x]


def get_init_inputs():
    return [1]
