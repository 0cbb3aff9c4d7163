import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Attention written out with an additive float mask input."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v, m):
        s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + m
        return torch.softmax(s, dim=-1) @ v


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(32, 32)]


def get_init_inputs():
    return []
