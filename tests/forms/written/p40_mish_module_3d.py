import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.Mish()

    def forward(self, x):
        return self.act(x)


def get_inputs():
    return [torch.randn(4, 33, 65)]


def get_init_inputs():
    return []
