import torch
import torch.nn as nn


class Model(nn.Module):
    """addmm with beta and alpha, the bias a column [M, 1] broadcast along the rows."""

    def forward(self, c, a, b):
        return torch.addmm(c, a, b, beta=0.5, alpha=2.0)


def get_inputs():
    return [torch.randn(40, 1), torch.randn(40, 24), torch.randn(24, 36)]


def get_init_inputs():
    return []
