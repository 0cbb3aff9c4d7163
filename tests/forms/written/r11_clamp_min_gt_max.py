import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.clamp(x, min=0.5, max=-0.5)


def get_inputs():
    return [torch.randn(64, 300)]


def get_init_inputs():
    return []
