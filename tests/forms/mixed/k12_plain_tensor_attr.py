import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """a plain tensor attribute (neither parameter nor buffer) used as a per-channel scale."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.scale = torch.rand(6, 1, 1) + 0.5

    def forward(self, x):
        return x * self.scale


def get_inputs():
    return [torch.randn(2, 6, 8, 8)]


def get_init_inputs():
    return []
