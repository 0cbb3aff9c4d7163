import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product attention (KernelBench 97's form at a small shape)."""

    def forward(self, Q, K, V):
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V)


def get_inputs():
    return [torch.rand(2, 3, 40, 24), torch.rand(2, 3, 40, 24), torch.rand(2, 3, 40, 24)]


def get_init_inputs():
    return []
