import torch
import torch.nn as nn


class Model(nn.Module):
    """F.pad with a constant of 0.5, asymmetric on every spatial axis, then a Conv3d without padding."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 4, 3)

    def forward(self, x):
        return self.conv(torch.nn.functional.pad(x, (1, 2, 0, 1, 2, 0), value=0.5))


def get_inputs():
    return [torch.randn(1, 3, 6, 7, 5)]


def get_init_inputs():
    return []
