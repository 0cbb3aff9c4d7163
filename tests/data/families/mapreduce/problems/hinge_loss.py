import torch
import torch.nn as nn


class Model(nn.Module):
    """Hinge loss with targets broadcast along the last axis, as KernelBench 100 writes it."""

    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


def get_inputs():
    return [torch.rand(24, 24), torch.randint(0, 2, (24,)).float() * 2 - 1]


def get_init_inputs():
    return []
