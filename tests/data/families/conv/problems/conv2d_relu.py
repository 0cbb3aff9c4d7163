import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d then ReLU: the activation as the convolution's epilogue."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.randn(2, 3, 17, 19)]


def get_init_inputs():
    return []
