import torch
import torch.nn as nn


class Model(nn.Module):
    """Causal scaled dot-product attention."""

    def forward(self, Q, K, V):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=True)


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
