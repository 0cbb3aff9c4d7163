import torch
import torch.nn as nn


class Model(nn.Module):
    """Causal attention with a head dimension wider than one step (80) and narrower values (48)."""

    def forward(self, Q, K, V):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=True)


def get_inputs():
    return [torch.randn(1, 2, 33, 80), torch.randn(1, 2, 33, 80), torch.randn(1, 2, 33, 48)]


def get_init_inputs():
    return []
