import torch
import torch.nn as nn


class Model(nn.Module):
    """Rows divided by their mean absolute value (KernelBench 38 at a small shape)."""

    def forward(self, x):
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.rand(16, 300)]


def get_init_inputs():
    return []
