import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA with enable_gqa=True: 4 query heads over 2 key/value heads."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x, y, z):
        return F.scaled_dot_product_attention(x, y, z, enable_gqa=True)


def get_inputs():
    return [torch.randn(2, 4, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
