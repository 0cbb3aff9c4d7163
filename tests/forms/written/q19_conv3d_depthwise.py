import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(6, 6, 3, stride=(1, 2, 2), padding=1, groups=6, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 6, 5, 12, 12)]


def get_init_inputs():
    return []
