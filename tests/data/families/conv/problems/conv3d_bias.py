import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv3d = nn.Conv3d(3, 4, (2, 3, 3), stride=(1, 2, 1), padding=(1, 0, 1), bias=True)

    def forward(self, x):
        return self.conv3d(x)


def get_inputs():
    return [torch.rand(2, 3, 4, 6, 5)]


def get_init_inputs():
    return []
