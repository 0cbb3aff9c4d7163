import torch
import torch.nn as nn


class Model(nn.Module):
    """x minus its logsumexp over two axes (kept), large values: the shift by the row's maximum matters."""

    def forward(self, x):
        return x - torch.logsumexp(x, dim=(1, 2), keepdim=True)


def get_inputs():
    return [torch.randn(4, 9, 6) * 30]


def get_init_inputs():
    return []
