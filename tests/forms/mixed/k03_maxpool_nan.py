import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MaxPool2d(2) of an input holding NaNs."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    x = torch.randn(2, 3, 10, 10)
    x[:, :, 3, 3] = float('nan')
    return [x]


def get_init_inputs():
    return []
