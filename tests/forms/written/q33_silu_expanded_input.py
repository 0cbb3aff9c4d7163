import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return F.silu(x.expand(4, -1, -1))


def get_inputs():
    return [torch.randn(1, 64, 100)]


def get_init_inputs():
    return []
