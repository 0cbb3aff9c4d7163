import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.prod(x, dim=1)


def get_inputs():
    return [(torch.rand(32, 20, 16) * 2 - 1 + 0.3) * (torch.rand(32, 20, 16) > 0.1)]


def get_init_inputs():
    return []
