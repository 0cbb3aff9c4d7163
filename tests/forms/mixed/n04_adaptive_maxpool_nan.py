import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AdaptiveMaxPool2d((3,3)) with a NaN in the input."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool2d((3, 3))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    x = torch.randn(2, 3, 9, 9)
    x[0, 1, 4, 4] = float('nan')
    return [x]


def get_init_inputs():
    return []
