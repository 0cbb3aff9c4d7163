import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear with bias on a 3-D input."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(48, 40)

    def forward(self, x):
        return self.fc(x)


def get_inputs():
    return [torch.randn(4, 16, 48)]


def get_init_inputs():
    return []
