import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention with a boolean mask made into a float one the way CUDA's fused attention receives it: zeros with
    -inf where the mask is false, expanded to [batch, heads, queries, keys]."""

    def forward(self, Q, K, V, mask):
        bias = torch.zeros_like(mask, dtype=Q.dtype).masked_fill_(mask.logical_not(), float("-inf"))
        bias = bias.expand(Q.shape[0], Q.shape[1], Q.shape[2], K.shape[2])
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=bias)


def get_inputs():
    mask = torch.rand(9, 20) > 0.4
    mask[:, 0] = True  # every query sees at least one key
    return [torch.randn(2, 2, 9, 16), torch.randn(2, 2, 20, 16), torch.randn(2, 2, 20, 16), mask]


def get_init_inputs():
    return []
