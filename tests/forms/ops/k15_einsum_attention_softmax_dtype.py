import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """attention written with einsum for QK^T and PV, softmax with dtype=float32."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        s = torch.einsum('bhqd,bhkd->bhqk', q, k) / 4.0
        p = torch.softmax(s, dim=-1, dtype=torch.float32)
        return torch.einsum('bhqk,bhkd->bhqd', p, v)


def get_inputs():
    return [torch.randn(2, 2, 12, 16), torch.randn(2, 2, 20, 16), torch.randn(2, 2, 20, 16)]


def get_init_inputs():
    return []
