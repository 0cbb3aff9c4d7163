import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean squared error over every element (KernelBench 94 at a small shape)."""

    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)


def get_inputs():
    scale = torch.rand(())
    return [torch.rand(24, 40) * scale, torch.rand(24, 40)]


def get_init_inputs():
    return []
