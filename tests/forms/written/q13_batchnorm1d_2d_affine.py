import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(40)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(64, 40)]


def get_init_inputs():
    return []
