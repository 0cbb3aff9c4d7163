import torch
import torch.nn as nn


class Model(nn.Module):
    """Strided Conv1d with padding_mode='replicate' (the edge values repeated)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 6, 5, stride=2, padding=3, padding_mode="replicate")

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 23)]


def get_init_inputs():
    return []
