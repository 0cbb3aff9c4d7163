import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear, clamp(min=0.1), subtract constant (KernelBench L2 style)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 16)

    def forward(self, x):
        y = self.fc(x)
        y = torch.clamp(y, min=0.1)
        return y - 0.25


def get_inputs():
    return [torch.randn(24, 32)]


def get_init_inputs():
    return []
