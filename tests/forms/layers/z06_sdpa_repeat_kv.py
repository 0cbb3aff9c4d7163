import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """GQA written as repeat_interleave of k and v before SDPA."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        k = k.repeat_interleave(2, dim=1)
        v = v.repeat_interleave(2, dim=1)
        return F.scaled_dot_product_attention(q, k, v)


def get_inputs():
    return [torch.randn(2, 4, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
