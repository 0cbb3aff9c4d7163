import torch
import torch.nn as nn


class Model(nn.Module):
    """The whole tensor divided by its Frobenius norm (KernelBench 37 at a small shape)."""

    def forward(self, x):
        norm = torch.norm(x, p="fro")
        return x / norm


def get_inputs():
    return [torch.rand(4, 8, 6, 5)]


def get_init_inputs():
    return []
