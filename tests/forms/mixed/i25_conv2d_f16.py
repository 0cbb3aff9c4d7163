import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d in float16 (module and input half)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3).half()

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 12, 12).half()]


def get_init_inputs():
    return []
