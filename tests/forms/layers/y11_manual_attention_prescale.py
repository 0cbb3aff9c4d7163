import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Attention written out with q scaled before the product and F.softmax."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        q = q * (q.size(-1) ** -0.5)
        return F.softmax(torch.matmul(q, k.transpose(-1, -2)), dim=-1).matmul(v)


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
