import torch
import torch.nn as nn


class Model(nn.Module):
    """Rows divided by their L2 norm (KernelBench 39 at a small shape)."""

    def forward(self, x):
        return x / torch.norm(x, p=2, dim=1, keepdim=True)


def get_inputs():
    return [torch.rand(16, 300)]


def get_init_inputs():
    return []
