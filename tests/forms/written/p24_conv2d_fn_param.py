import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(8, 2, 3, 3) * 0.2)
        self.bias = nn.Parameter(torch.randn(8))

    def forward(self, x):
        return F.conv2d(x, self.weight, self.bias, stride=(1, 2), padding=(2, 1), dilation=(2, 1), groups=4)


def get_inputs():
    return [torch.randn(2, 8, 14, 15)]


def get_init_inputs():
    return []
