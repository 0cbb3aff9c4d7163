import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise-separable (two convolutions), then ReLU6 on the last one only."""

    def __init__(self):
        super().__init__()
        self.depthwise = nn.Conv2d(4, 4, 3, groups=4, padding=1)
        self.pointwise = nn.Conv2d(4, 8, 1)

    def forward(self, x):
        return torch.nn.functional.relu6(self.pointwise(self.depthwise(x)))


def get_inputs():
    return [torch.randn(2, 4, 11, 13)]


def get_init_inputs():
    return []
