import torch
import torch.nn as nn


class Model(nn.Module):
    """A strided ConvTranspose3d without bias, plus a [1, C, 1, 1, 1] parameter, then sigmoid."""

    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose3d(3, 4, 3, stride=2, bias=False)
        self.bias = nn.Parameter(torch.randn(1, 4, 1, 1, 1))

    def forward(self, x):
        return torch.sigmoid(self.conv(x) + self.bias)


def get_inputs():
    return [torch.randn(2, 3, 4, 5, 3)]


def get_init_inputs():
    return []
