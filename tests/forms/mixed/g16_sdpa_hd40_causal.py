import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """scaled_dot_product_attention, head dim 40, causal, odd seq."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def get_inputs():
    return [torch.randn(1, 2, 37, 40), torch.randn(1, 2, 37, 40), torch.randn(1, 2, 37, 40)]


def get_init_inputs():
    return []
