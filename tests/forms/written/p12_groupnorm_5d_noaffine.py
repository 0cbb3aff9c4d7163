import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(3, 12, affine=False)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    return [torch.randn(2, 12, 4, 6, 5)]


def get_init_inputs():
    return []
