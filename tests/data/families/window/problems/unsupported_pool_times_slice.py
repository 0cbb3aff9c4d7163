import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A pooling times a computed tensor (every other column of an input): the epilogue reads inputs and parameters."""

    def forward(self, x, y):
        return F.avg_pool1d(x, 2) * y[:, :, ::2]


def get_inputs():
    return [torch.randn(2, 4, 16), torch.randn(2, 4, 16)]


def get_init_inputs():
    return []
