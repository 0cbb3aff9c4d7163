import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, keepdim: bool = True) -> torch.Tensor:
        return torch.argmin(x, dim=self.dim, keepdim=keepdim)


batch_size = 8
d1, d2 = 33, 21


def get_inputs():
    x = torch.randn(batch_size, d1, d2)
    return (x,)


def get_init_inputs():
    return [-3]
