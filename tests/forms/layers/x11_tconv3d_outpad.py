import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose3d stride 2 output_padding 1 with bias."""

    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose3d(4, 4, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 4, 6, 6)]


def get_init_inputs():
    return []
