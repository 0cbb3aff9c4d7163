import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear then LayerNorm."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 48)
        self.ln = nn.LayerNorm(48)

    def forward(self, x):
        return self.ln(self.fc(x))


def get_inputs():
    return [torch.randn(16, 32)]


def get_init_inputs():
    return []
