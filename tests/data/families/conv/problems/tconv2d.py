import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose2d(3, 5, 3, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(2, 3, 9, 11)]


def get_init_inputs():
    return []
