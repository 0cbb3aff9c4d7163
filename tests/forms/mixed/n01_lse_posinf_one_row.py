import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """logsumexp over last dim where only row 3 holds a +inf (torch: that row is +inf)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.logsumexp(x, dim=-1)


def get_inputs():
    x = torch.randn(10, 20)
    x[3, 7] = float('inf')
    return [x]


def get_init_inputs():
    return []
