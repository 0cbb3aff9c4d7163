import torch
import torch.nn as nn


class Model(nn.Module):
    """A chain of pointwise ops that eager PyTorch runs as five kernels and KernelAgent fuses into one:
    y = swish(gelu(x) * scale + shift)."""

    def __init__(self, scale: float = 1.5, shift: float = -0.25):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.gelu(x) * self.scale + self.shift
        return y * torch.sigmoid(y)


batch_size = 64
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1.5, -0.25]
