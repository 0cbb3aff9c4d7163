import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return F.max_pool1d(x, 4, stride=1, padding=2, dilation=3)


def get_inputs():
    return [torch.randn(4, 8, 50)]


def get_init_inputs():
    return []
