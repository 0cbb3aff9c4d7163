import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """masked_fill(-inf) then softmax where some rows are fully masked (NaN rows)."""

    def __init__(self):
        super().__init__()
        m = torch.zeros(8, 16, dtype=torch.bool)
        m[2] = True
        m[:, 5:9] = True
        self.register_buffer('mask', m)

    def forward(self, x):
        return torch.softmax(x.masked_fill(self.mask, float('-inf')), dim=-1)


def get_inputs():
    return [torch.randn(4, 8, 16)]


def get_init_inputs():
    return []
