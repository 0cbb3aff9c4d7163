import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(5, 7, (2, 3), stride=(2, 1), padding=(0, 2), bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(1, 5, 9, 6)]


def get_init_inputs():
    return []
