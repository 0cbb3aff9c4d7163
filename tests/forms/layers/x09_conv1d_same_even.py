import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d kernel 4 padding='same' (asymmetric padding) with bias."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, 4, padding='same')

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 64)]


def get_init_inputs():
    return []
