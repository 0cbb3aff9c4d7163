import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.bmm with odd sizes."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(3, 17, 29), torch.randn(3, 29, 13)]


def get_init_inputs():
    return []
