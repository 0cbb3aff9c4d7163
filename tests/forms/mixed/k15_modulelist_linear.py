import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.ModuleList holding one Linear, then GELU."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 24)])

    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return F.gelu(x)


def get_inputs():
    return [torch.randn(10, 16)]


def get_init_inputs():
    return []
