import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """0-d nn.Parameter created from an init-input float."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(alpha))

    def forward(self, x):
        return torch.tanh(self.alpha * x)


def get_inputs():
    return [torch.randn(40, 50)]


def get_init_inputs():
    return [0.7]
