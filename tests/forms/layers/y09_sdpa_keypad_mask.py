import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA with a boolean key-padding mask of shape (B, 1, 1, S)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.arange(32).expand(2, 1, 1, 32) < torch.tensor([20, 32]).view(2, 1, 1, 1)]


def get_init_inputs():
    return []
