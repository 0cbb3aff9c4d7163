import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention written with einsum: its decomposition inserts axes of size 1 and permutes them around the
    two products, views that keep the elements in order."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / 4.0
        return torch.einsum("bhqk,bhkd->bhqd", s.softmax(-1), v)


def get_inputs():
    return [torch.randn(2, 3, 12, 16), torch.randn(2, 3, 20, 16), torch.randn(2, 3, 20, 16)]


def get_init_inputs():
    return []
