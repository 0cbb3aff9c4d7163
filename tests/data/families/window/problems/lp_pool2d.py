import torch
import torch.nn as nn


class Model(nn.Module):
    """LPPool2d of norm 3 over 3 x 2 windows at stride 2: x**3 average-pooled, then sign(f) * relu(|f|) times
    the window's size to the power 1/3, an epilogue that reads the pooled value twice."""

    def __init__(self):
        super().__init__()
        self.pool = nn.LPPool2d(3, (3, 2), stride=2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.rand(2, 3, 15, 12)]


def get_init_inputs():
    return []
