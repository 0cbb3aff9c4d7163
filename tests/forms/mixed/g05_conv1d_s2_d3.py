import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d stride 2 dilation 3 padding 2, no bias."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(5, 7, 4, stride=2, dilation=3, padding=2, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(3, 5, 50)]


def get_init_inputs():
    return []
