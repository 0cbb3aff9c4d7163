import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over the last three dims of a 4-D input."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm((4, 6, 5))

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(3, 4, 6, 5)]


def get_init_inputs():
    return []
