import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(8, 8, 3, padding='same', dilation=3, groups=8, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(4, 8, 60)]


def get_init_inputs():
    return []
