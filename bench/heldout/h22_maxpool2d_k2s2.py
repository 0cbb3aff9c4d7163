import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d with a 2 x 2 window and stride 2 on (128, 128, 112, 112) -> (128, 128, 56, 56)."""

    def __init__(self, kernel_size: int, stride: int):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride)

    def forward(self, x):
        return self.maxpool(x)


batch_size = 128
channels = 128
height = 112
width = 112
kernel_size = 2
stride = 2


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride]
