import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear on one row (M=1)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 48)

    def forward(self, x):
        return self.fc(x)


def get_inputs():
    return [torch.randn(1, 64)]


def get_init_inputs():
    return []
