import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear + ReLU on an input holding NaNs (epilogue maximum)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 8)

    def forward(self, x):
        return torch.relu(self.fc(x))


def get_inputs():
    x = torch.randn(12, 16)
    x[2, 5] = float('nan')
    return [x]


def get_init_inputs():
    return []
