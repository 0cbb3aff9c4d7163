import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.erfinv(x)


def get_inputs():
    return [torch.rand(64, 256) * 1.8 - 0.9]


def get_init_inputs():
    return []
