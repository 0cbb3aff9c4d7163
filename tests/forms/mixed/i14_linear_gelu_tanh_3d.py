import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear on 3-D input then GELU(approximate='tanh')."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 40)

    def forward(self, x):
        return F.gelu(self.fc(x), approximate='tanh')


def get_inputs():
    return [torch.randn(3, 10, 32)]


def get_init_inputs():
    return []
