import torch
import torch.nn as nn


class Model(nn.Module):
    """Standardisation along the middle axis, written out: a mean and an unbiased std of the same rows."""

    def forward(self, x):
        return (x - x.mean(dim=1, keepdim=True)) / x.std(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(5, 37, 6) * 3.0 + 7.0]


def get_init_inputs():
    return []
