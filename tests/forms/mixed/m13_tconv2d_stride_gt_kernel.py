import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose2d stride 3 kernel 2 (gaps between windows)."""

    def __init__(self):
        super().__init__()
        self.t = nn.ConvTranspose2d(3, 4, 2, stride=3)

    def forward(self, x):
        return self.t(x)


def get_inputs():
    return [torch.randn(2, 3, 6, 5)]


def get_init_inputs():
    return []
