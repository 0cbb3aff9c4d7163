import torch
import torch.nn as nn


class Model(nn.Module):
    """Argmin over the leading dimension of a 2-D tensor (6000, 40000) -> (40000,) indices."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim)


dim0 = 6000
dim1 = 40000


def get_inputs():
    x = torch.rand(dim0, dim1)
    return [x]


def get_init_inputs():
    return [0]
