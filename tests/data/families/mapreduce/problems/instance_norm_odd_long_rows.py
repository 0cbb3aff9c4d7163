import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm over planes of 37 x 111 (4107 floats): the mean and variance of rows that are not 16-byte
    aligned."""

    def __init__(self):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(3)

    def forward(self, x):
        return self.inorm(x)


def get_inputs():
    return [torch.rand(2, 3, 37, 111)]


def get_init_inputs():
    return []
