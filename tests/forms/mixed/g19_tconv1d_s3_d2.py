import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose1d stride 3 dilation 2 padding 1."""

    def __init__(self):
        super().__init__()
        self.tconv = nn.ConvTranspose1d(4, 6, 3, stride=3, dilation=2, padding=1)

    def forward(self, x):
        return self.tconv(x)


def get_inputs():
    return [torch.randn(2, 4, 20)]


def get_init_inputs():
    return []
