import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.LPPool1d(2, 3, stride=2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(4, 8, 31)]


def get_init_inputs():
    return []
