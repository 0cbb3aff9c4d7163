import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention whose mask is computed in forward (a comparison): refused by name."""

    def forward(self, Q, K, V, scores):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=scores * 2.0)


def get_inputs():
    return [torch.rand(1, 2, 8, 16), torch.rand(1, 2, 8, 16), torch.rand(1, 2, 8, 16), torch.rand(8, 8)]


def get_init_inputs():
    return []
