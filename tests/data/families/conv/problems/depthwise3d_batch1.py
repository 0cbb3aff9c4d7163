import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(5, 10, (3, 2, 3), stride=(2, 1, 1), padding=(1, 0, 1), groups=5, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(1, 5, 5, 6, 7)]


def get_init_inputs():
    return []
