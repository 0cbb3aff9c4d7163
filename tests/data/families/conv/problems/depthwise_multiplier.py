import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv2d = nn.Conv2d(3, 6, 3, groups=3, bias=False)

    def forward(self, x):
        return self.conv2d(x)


def get_inputs():
    return [torch.rand(2, 3, 8, 8)]


def get_init_inputs():
    return []
