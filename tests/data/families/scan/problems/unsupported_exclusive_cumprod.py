import torch
import torch.nn as nn


class Model(nn.Module):
    """A cumprod behind one zero, written as KernelBench writes an exclusive cumsum: the zero is no identity of
    a product, so the family refuses it rather than emit a kernel that would put a one there."""

    def forward(self, x):
        return torch.cat((torch.zeros_like(x[:, :1]), torch.cumprod(x[:, :-1], dim=1)), dim=1)


def get_inputs():
    return [torch.rand(4, 33) + 0.5]


def get_init_inputs():
    return []
