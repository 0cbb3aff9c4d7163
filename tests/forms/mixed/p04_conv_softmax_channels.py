import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """conv2d then softmax over channels (dim=1)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, 3, padding=1)

    def forward(self, x):
        return torch.softmax(self.conv(x), dim=1)


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
