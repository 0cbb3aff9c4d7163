import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 8, (3, 5), padding=(1, 2), dilation=(2, 1), bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(2, 16, 7, 12)]


def get_init_inputs():
    return []
