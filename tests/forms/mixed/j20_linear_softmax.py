import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear then softmax over features (classifier head)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=1)


def get_inputs():
    return [torch.randn(16, 32)]


def get_init_inputs():
    return []
