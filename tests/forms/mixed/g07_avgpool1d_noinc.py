import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """AvgPool1d k=4 s=3 pad=2 count_include_pad=False."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(4, stride=3, padding=2, count_include_pad=False)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(4, 6, 29)]


def get_init_inputs():
    return []
