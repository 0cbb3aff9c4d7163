import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool3d with a 2 x 2 x 2 window and stride 2 on (16, 64, 64, 64, 64) -> (16, 64, 32, 32, 32)."""

    def __init__(self, kernel_size: int, stride: int = None):
        super().__init__()
        self.maxpool = nn.MaxPool3d(kernel_size=kernel_size, stride=stride)

    def forward(self, x):
        return self.maxpool(x)


batch_size = 16
channels = 64
dim1 = 64
dim2 = 64
dim3 = 64
kernel_size = 2
stride = 2


def get_inputs():
    return [torch.randn(batch_size, channels, dim1, dim2, dim3)]


def get_init_inputs():
    return [kernel_size, stride]
