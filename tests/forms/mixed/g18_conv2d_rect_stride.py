import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d kernel (3,5), stride (2,1), padding (1,2), odd input 13x17."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, (3, 5), stride=(2, 1), padding=(1, 2))

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 3, 13, 17)]


def get_init_inputs():
    return []
