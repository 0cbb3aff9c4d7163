import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, p, y):
        return F.binary_cross_entropy(p, y)


def get_inputs():
    return [torch.rand(64, 100).mul(1.4).sub(0.2).clamp(0, 1), torch.randint(0, 2, (64, 100)).float()]


def get_init_inputs():
    return []
