import torch
import torch.nn as nn


class Model(nn.Module):
    """Adaptive max pooling to 2 x 3 x 4 of 5 x 7 x 9: windows of varying size along every axis."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool3d((2, 3, 4))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 3, 5, 7, 9)]


def get_init_inputs():
    return []
