import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1d = nn.Conv1d(4, 6, 3, stride=3, dilation=4, bias=False)

    def forward(self, x):
        return self.conv1d(x)


def get_inputs():
    return [torch.rand(2, 4, 40)]


def get_init_inputs():
    return []
