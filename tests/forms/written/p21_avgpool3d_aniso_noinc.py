import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool3d((1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), count_include_pad=False)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 3, 5, 15, 15)]


def get_init_inputs():
    return []
