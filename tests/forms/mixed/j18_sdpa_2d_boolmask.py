import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA with a 2-D (S,S) boolean mask and scale."""

    def __init__(self):
        super().__init__()
        m = torch.rand(16, 16) > 0.3
        m.fill_diagonal_(True)
        self.register_buffer('m', m)

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.m, scale=0.2)


def get_inputs():
    return [torch.randn(2, 2, 16, 24), torch.randn(2, 2, 16, 24), torch.randn(2, 2, 16, 24)]


def get_init_inputs():
    return []
