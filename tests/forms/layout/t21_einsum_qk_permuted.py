import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """einsum bhqd,bhkd->bhqk on q, k given as (B,S,H,D) permutes."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k):
        return torch.einsum('bhqd,bhkd->bhqk', q, k)


def get_inputs():
    return [torch.randn(2, 5, 3, 8).permute(0, 2, 1, 3), torch.randn(2, 7, 3, 8).permute(0, 2, 1, 3)]


def get_init_inputs():
    return []
