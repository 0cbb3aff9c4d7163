import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """get_init_inputs passes a weight tensor; the model wraps it as a Parameter."""

    def __init__(self, w):
        super().__init__()
        self.w = nn.Parameter(w.clone())

    def forward(self, x):
        return x * self.w


def get_inputs():
    return [torch.randn(8, 20)]


def get_init_inputs():
    return [torch.randn(20)]
