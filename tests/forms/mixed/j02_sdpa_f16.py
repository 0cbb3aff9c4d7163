import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA in float16, head dim 32."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


def get_inputs():
    return [torch.randn(1, 2, 24, 32).half(), torch.randn(1, 2, 24, 32).half(), torch.randn(1, 2, 24, 32).half()]


def get_init_inputs():
    return []
