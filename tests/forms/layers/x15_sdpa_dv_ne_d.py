import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA whose value head dim (24) differs from the query/key head dim (16)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x, y, z):
        return F.scaled_dot_product_attention(x, y, z)


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 24)]


def get_init_inputs():
    return []
