import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm3d(6, affine=False)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(3, 6, 4, 8, 8)]


def get_init_inputs():
    return []
