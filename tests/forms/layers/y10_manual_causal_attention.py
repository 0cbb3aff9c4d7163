import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Attention written out with a causal mask via masked_fill and torch.triu."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        L = q.size(-2)
        s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        mask = torch.triu(torch.ones(L, L, dtype=torch.bool, device=q.device), diagonal=1)
        s = s.masked_fill(mask, float('-inf'))
        return torch.softmax(s, dim=-1) @ v


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
