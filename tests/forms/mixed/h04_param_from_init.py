import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Parameter of shape from get_init_inputs, used in matmul."""

    def __init__(self, in_f, out_f):
        super().__init__()
        torch.manual_seed(0)
        self.w = nn.Parameter(torch.randn(in_f, out_f) * 0.1)

    def forward(self, x):
        return x @ self.w


def get_inputs():
    return [torch.randn(20, 36)]


def get_init_inputs():
    return [36, 28]
