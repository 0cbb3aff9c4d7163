import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 8, 3, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x.transpose(2, 3))


def get_inputs():
    return [torch.rand(2, 16, 6, 9)]


def get_init_inputs():
    return []
