import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """argmax over last dim where some rows hold NaN (torch: NaN is the max)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.argmax(x, dim=-1)


def get_inputs():
    x = torch.randn(16, 30)
    x[:, 4] = float('nan')
    return [x]


def get_init_inputs():
    return []
