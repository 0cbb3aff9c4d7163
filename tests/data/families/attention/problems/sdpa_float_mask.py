import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention with a float mask added to the scores (one per batch, broadcast over the heads), 17 queries by
    23 keys, some of it -inf."""

    def forward(self, Q, K, V, mask):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=mask)


def get_inputs():
    mask = torch.randn(2, 1, 17, 23)
    mask[:, :, :, 5] = float("-inf")
    return [torch.randn(2, 3, 17, 16), torch.randn(2, 3, 23, 16), torch.randn(2, 3, 23, 16), mask]


def get_init_inputs():
    return []
