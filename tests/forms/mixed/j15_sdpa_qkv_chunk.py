import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """q, k, v from one packed (B,H,S,3D) tensor via chunk, then SDPA."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, qkv):
        q, k, v = qkv.chunk(3, dim=-1)
        return F.scaled_dot_product_attention(q, k, v)


def get_inputs():
    return [torch.randn(2, 2, 20, 48)]


def get_init_inputs():
    return []
