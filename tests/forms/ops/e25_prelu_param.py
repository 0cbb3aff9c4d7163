import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c: int = 16):
        super().__init__()
        self.prelu = nn.PReLU(c)

    def forward(self, x):
        return self.prelu(x)


def get_inputs():
    return [torch.randn(4, 16, 32, 32)]


def get_init_inputs():
    return [16]
