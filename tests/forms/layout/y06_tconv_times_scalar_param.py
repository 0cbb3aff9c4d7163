import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose2d output times a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.tconv = nn.ConvTranspose2d(3, 2, 3, stride=2)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return self.tconv(x) * self.s


def get_inputs():
    return [torch.randn(2, 3, 5, 5)]


def get_init_inputs():
    return []
