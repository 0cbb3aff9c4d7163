import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d((2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), dilation=(1, 1, 2), ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 3, 6, 13, 14)]


def get_init_inputs():
    return []
