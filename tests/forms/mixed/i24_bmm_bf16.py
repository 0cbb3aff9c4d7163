import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bmm in bfloat16."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(2, 32, 48).bfloat16(), torch.randn(2, 48, 16).bfloat16()]


def get_init_inputs():
    return []
