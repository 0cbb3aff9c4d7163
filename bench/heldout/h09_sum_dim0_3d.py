import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum over the leading dimension of a 3-D tensor (1024, 640, 384) -> (640, 384)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim)


dim0 = 1024
dim1 = 640
dim2 = 384


def get_inputs():
    x = torch.rand(dim0, dim1, dim2)
    return [x]


def get_init_inputs():
    return [0]
