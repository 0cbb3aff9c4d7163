import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.GELU(approximate='tanh')

    def forward(self, x):
        return self.act(x)


def get_inputs():
    return [torch.randn(2, 3, 4, 10, 12)]


def get_init_inputs():
    return []
