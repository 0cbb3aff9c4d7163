import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ReLU then MaxPool2d(2)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(torch.relu(x))


def get_inputs():
    return [torch.randn(2, 8, 16, 16)]


def get_init_inputs():
    return []
