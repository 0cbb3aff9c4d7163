import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return F.adaptive_max_pool1d(x, 5)


def get_inputs():
    return [torch.randn(4, 8, 23)]


def get_init_inputs():
    return []
