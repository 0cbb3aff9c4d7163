import torch
import torch.nn as nn


class Model(nn.Module):
    """ELU with alpha=0.5 on a 4-D tensor (48, 64, 224, 224)."""

    def __init__(self, alpha: float = 0.5):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.elu(x, alpha=self.alpha)


batch_size = 48
channels = 64
height = 224
width = 224


def get_inputs():
    x = torch.randn(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [0.5]
