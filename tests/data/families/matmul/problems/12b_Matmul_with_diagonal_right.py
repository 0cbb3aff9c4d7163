import torch
import torch.nn as nn


class Model(nn.Module):
    """C = B @ diag(d): a column scaling written as a product."""

    def __init__(self):
        super(Model, self).__init__()

    def forward(self, B, d):
        return B @ torch.diag(d)


M = 64
N = 80


def get_inputs():
    return [torch.randn(M, N), torch.randn(N)]


def get_init_inputs():
    return []
