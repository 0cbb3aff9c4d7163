import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d with tuple kernel/stride from get_init_inputs."""

    def __init__(self, cin, cout, k, s):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride=s)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 3, 17, 19)]


def get_init_inputs():
    return [3, 5, (3, 2), (2, 3)]
