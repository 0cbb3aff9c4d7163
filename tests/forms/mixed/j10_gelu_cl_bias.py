import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """GELU of channels_last input plus a [C,1,1] parameter."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.b = nn.Parameter(torch.randn(6, 1, 1))

    def forward(self, x):
        return F.gelu(x + self.b)


def get_inputs():
    return [torch.randn(2, 6, 7, 9).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
