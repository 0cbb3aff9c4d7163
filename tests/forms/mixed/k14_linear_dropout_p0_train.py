import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear then Dropout(p=0.0) in training mode (identity)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 16)
        self.drop = nn.Dropout(0.0)

    def forward(self, x):
        return torch.relu(self.drop(self.fc(x)))


def get_inputs():
    return [torch.randn(12, 20)]


def get_init_inputs():
    return []
