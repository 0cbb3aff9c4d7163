import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention written out over 2-D queries, keys and values (two mm), scaled, fewer queries than keys."""

    def forward(self, q, k, v):
        return torch.softmax(q @ k.T / 4.0, dim=-1) @ v


def get_inputs():
    return [torch.randn(20, 32), torch.randn(24, 32), torch.randn(24, 16)]


def get_init_inputs():
    return []
