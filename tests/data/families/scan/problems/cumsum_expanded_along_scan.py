import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumulative sum along a dimension the input was expanded along (stride 0 there): one value per row,
    read under the block's mask."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumsum(x, dim=1)


def get_inputs():
    return [torch.randn(6, 1).expand(6, 40)]


def get_init_inputs():
    return []
