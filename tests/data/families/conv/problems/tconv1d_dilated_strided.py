import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1d_transpose = nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, dilation=2, bias=False)

    def forward(self, x):
        return self.conv1d_transpose(x)


def get_inputs():
    return [torch.rand(2, 4, 13)]


def get_init_inputs():
    return []
