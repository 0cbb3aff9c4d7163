import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.depthwise = nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False)
        self.pointwise = nn.Conv2d(4, 6, kernel_size=1, bias=False)

    def forward(self, x):
        return self.pointwise(self.depthwise(x))


def get_inputs():
    return [torch.rand(2, 4, 9, 11)]


def get_init_inputs():
    return []
