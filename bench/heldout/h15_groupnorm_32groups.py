import torch
import torch.nn as nn


class Model(nn.Module):
    """GroupNorm: 256 channels in 32 groups over (64, 256, 64, 96), with per-channel weight and bias."""

    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x):
        return self.gn(x)


batch_size = 64
features = 256
num_groups = 32
dim1 = 64
dim2 = 96


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features, num_groups]
