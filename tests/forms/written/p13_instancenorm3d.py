import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = nn.InstanceNorm3d(4)

    def forward(self, x):
        return self.n(x)


def get_inputs():
    return [torch.randn(2, 4, 6, 8, 5)]


def get_init_inputs():
    return []
