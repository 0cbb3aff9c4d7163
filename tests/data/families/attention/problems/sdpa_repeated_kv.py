import torch
import torch.nn as nn


class Model(nn.Module):
    """Grouped-query attention written out: keys and values repeated over groups of 2 query heads
    (repeat_interleave), which the kernel reads once a group instead of copying."""

    def forward(self, q, k, v):
        k = k.repeat_interleave(2, dim=1)
        v = v.repeat_interleave(2, dim=1)
        return nn.functional.scaled_dot_product_attention(q, k, v)


def get_inputs():
    return [torch.randn(2, 4, 20, 16), torch.randn(2, 2, 28, 16), torch.randn(2, 2, 28, 8)]


def get_init_inputs():
    return []
