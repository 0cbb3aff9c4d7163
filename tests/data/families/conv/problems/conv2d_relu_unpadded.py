import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, 3)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.rand(2, 3, 9, 11)]


def get_init_inputs():
    return []
