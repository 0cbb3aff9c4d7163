import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x * softmax of a parameter along its only dim."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.p = nn.Parameter(torch.randn(10))

    def forward(self, x):
        return x * torch.softmax(self.p, dim=0)


def get_inputs():
    return [torch.randn(16, 10)]


def get_init_inputs():
    return []
