import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x, t):
        return F.cross_entropy(x, t, ignore_index=3, reduction='sum')


def get_inputs():
    return [torch.randn(128, 10), torch.randint(0, 10, (128,))]


def get_init_inputs():
    return []
