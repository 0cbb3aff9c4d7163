import torch
import torch.nn as nn


class Model(nn.Module):
    """A sum over the last dim of the product of x's two halves along dim 1 (chunk) plus x's first channel
    (unbind): every operand a piece of the one input, read in place."""

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        first = torch.unbind(x, dim=1)[0]
        return torch.sum(a * b + first.unsqueeze(1), dim=-1)


def get_inputs():
    return [torch.randn(4, 12, 10)]


def get_init_inputs():
    return []
