import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bmm plus a (N,) bias parameter broadcast over batch and rows."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.b = nn.Parameter(torch.randn(20))

    def forward(self, a, b):
        return torch.bmm(a, b) + self.b


def get_inputs():
    return [torch.randn(3, 16, 24), torch.randn(3, 24, 20)]


def get_init_inputs():
    return []
