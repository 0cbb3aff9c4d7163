import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """logsumexp over last dim where every row holds a +inf at varying columns."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        x = x.clone()
        return torch.logsumexp(x, dim=-1)


def get_inputs():
    x = torch.randn(10, 20)
    x[torch.arange(10), torch.randint(0, 20, (10,))] = float('inf')
    return [x]


def get_init_inputs():
    return []
