import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Sequential(Linear, ReLU, Linear): two products."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 48), nn.ReLU(), nn.Linear(48, 16))

    def forward(self, x):
        return self.net(x)


def get_inputs():
    return [torch.randn(20, 32)]


def get_init_inputs():
    return []
