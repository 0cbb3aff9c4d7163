import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product attention with an explicit boolean attention mask."""

    def forward(self, Q, K, V, mask):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=mask)


def get_inputs():
    mask = torch.rand(32, 32) > 0.3
    mask[:, 0] = True  # every row attends to at least one key
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), mask]


def get_init_inputs():
    return []
