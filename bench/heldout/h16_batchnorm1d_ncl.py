import torch
import torch.nn as nn


class Model(nn.Module):
    """BatchNorm1d in training mode on (N, C, L) = (128, 512, 2048): statistics per channel over N and L."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm1d(num_features=num_features)

    def forward(self, x):
        return self.bn(x)


batch_size = 128
features = 512
length = 2048


def get_inputs():
    return [torch.randn(batch_size, features, length)]


def get_init_inputs():
    return [features]
