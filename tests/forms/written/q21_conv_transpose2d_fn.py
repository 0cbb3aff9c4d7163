import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(6, 2, 3, 3) * 0.2)

    def forward(self, x):
        return F.conv_transpose2d(x, self.weight, stride=2, padding=1, output_padding=1, groups=2, dilation=1)


def get_inputs():
    return [torch.randn(2, 6, 7, 8)]


def get_init_inputs():
    return []
