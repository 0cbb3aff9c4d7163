import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool3d((2, 3, 4))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 4, 7, 9, 10)]


def get_init_inputs():
    return []
