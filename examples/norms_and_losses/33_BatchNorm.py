import torch
import torch.nn as nn


class Model(nn.Module):
    """BatchNorm2d in training mode: batch statistics per channel, running statistics updated."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x):
        return self.bn(x)


batch_size = 64
features = 64
dim1 = 512
dim2 = 512


def get_inputs():
    return [torch.rand(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]
