import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d((3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 4, 17, 14)]


def get_init_inputs():
    return []
