import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv1d on an unbatched (C,L) input."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 6, 3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(4, 40)]


def get_init_inputs():
    return []
