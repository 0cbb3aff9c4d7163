import torch
import torch.nn as nn


class Model(nn.Module):
    """A convolution multiplied by a second input of the output's shape: no scalar, not one value a channel."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x, y):
        return self.conv(x) * y


def get_inputs():
    return [torch.randn(2, 3, 9, 9), torch.randn(2, 8, 7, 7)]


def get_init_inputs():
    return []
