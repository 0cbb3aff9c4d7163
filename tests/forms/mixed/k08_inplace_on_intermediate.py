import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """in-place ops on an intermediate: y = fc(x); y.mul_(2); relu_(y)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(24, 16)

    def forward(self, x):
        y = self.fc(x)
        y.mul_(2.0)
        return torch.relu_(y)


def get_inputs():
    return [torch.randn(10, 24)]


def get_init_inputs():
    return []
