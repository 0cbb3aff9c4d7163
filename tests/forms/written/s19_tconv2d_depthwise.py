import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose2d(6, 6, 4, stride=2, padding=1, groups=6, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 6, 9, 7)]


def get_init_inputs():
    return []
