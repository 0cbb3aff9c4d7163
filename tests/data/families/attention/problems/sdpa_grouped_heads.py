import torch
import torch.nn as nn


class Model(nn.Module):
    """Grouped-query attention: 6 query heads share 2 heads of keys and values (enable_gqa), causal."""

    def forward(self, q, k, v):
        return nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)


def get_inputs():
    return [torch.randn(2, 6, 24, 16), torch.randn(2, 2, 24, 16), torch.randn(2, 2, 24, 16)]


def get_init_inputs():
    return []
