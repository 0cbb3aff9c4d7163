import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d stride 2 then hardswish."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(6, 12, 5, stride=2)

    def forward(self, x):
        return F.hardswish(self.conv(x))


def get_inputs():
    return [torch.randn(4, 6, 64)]


def get_init_inputs():
    return []
