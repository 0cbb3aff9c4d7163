import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear output times a 0-d parameter."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 8)
        self.s = nn.Parameter(torch.tensor(0.7))

    def forward(self, x):
        return self.fc(x) * self.s


def get_inputs():
    return [torch.randn(10, 12)]


def get_init_inputs():
    return []
