import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """per-channel bias parameter whose shape comes from get_init_inputs tuple."""

    def __init__(self, shape):
        super().__init__()
        torch.manual_seed(0)
        self.b = nn.Parameter(torch.randn(shape))

    def forward(self, x):
        return torch.sigmoid(x + self.b)


def get_inputs():
    return [torch.randn(4, 6, 9, 9)]


def get_init_inputs():
    return [(6, 1, 1)]
