import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """MLP: Linear -> GELU(tanh) -> Linear."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 32)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate='tanh'))


def get_inputs():
    return [torch.randn(16, 32)]


def get_init_inputs():
    return []
