import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.s = 2.5

    def forward(self, x):
        return torch.clamp(x * self.s, min=-1.0)


def get_inputs():
    return [torch.randn(16, 4096)]


def get_init_inputs():
    return []
