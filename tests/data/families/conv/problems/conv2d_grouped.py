import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 12, 3, padding=1, groups=4, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(2, 8, 6, 7)]


def get_init_inputs():
    return []
