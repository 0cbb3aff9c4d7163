import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d (no bias) plus bias.view(1,-1,1,1) then ReLU."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = nn.Conv2d(4, 6, 3, bias=False)
        self.b = nn.Parameter(torch.randn(6))

    def forward(self, x):
        return torch.relu(self.conv(x) + self.b.view(1, -1, 1, 1))


def get_inputs():
    return [torch.randn(2, 4, 11, 11)]


def get_init_inputs():
    return []
