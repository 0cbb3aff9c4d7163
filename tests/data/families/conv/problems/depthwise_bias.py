import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv2d = nn.Conv2d(4, 4, (3, 1), stride=2, padding=1, groups=4, bias=True)

    def forward(self, x):
        return self.conv2d(x)


def get_inputs():
    return [torch.rand(2, 4, 9, 11)]


def get_init_inputs():
    return []
