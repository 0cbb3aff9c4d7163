import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d kernel 3 dilation 2 padding 2 padding_mode='reflect' with bias."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, 3, dilation=2, padding=2, padding_mode='reflect')

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 32)]


def get_init_inputs():
    return []
