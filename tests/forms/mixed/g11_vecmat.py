import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """1-D vector @ 2-D matrix."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, v, m):
        return torch.matmul(v, m)


def get_inputs():
    return [torch.randn(48), torch.randn(48, 36)]


def get_init_inputs():
    return []
