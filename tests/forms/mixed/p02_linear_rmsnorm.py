import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear then nn.RMSNorm."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(24, 40)
        self.norm = nn.RMSNorm(40)

    def forward(self, x):
        return self.norm(self.fc(x))


def get_inputs():
    return [torch.randn(32, 24)]


def get_init_inputs():
    return []
