import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Init input (slope) and a non-tensor forward input (scale)."""

    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor, scale: int) -> torch.Tensor:
        return F.leaky_relu(x, negative_slope=self.negative_slope) * scale


def get_inputs():
    return [torch.randn(8, 64), 3]


def get_init_inputs():
    return [0.2]
