import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the last two axes, small enough for Triton's interpreter."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.rand(4, 6, 50)]


def get_init_inputs():
    return [(6, 50)]
