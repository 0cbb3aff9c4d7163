import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm1d with affine weight and bias on (N, C, L) = (64, 256, 8192)."""

    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm1d(num_features=num_features, affine=True)

    def forward(self, x):
        return self.inorm(x)


batch_size = 64
features = 256
length = 8192


def get_inputs():
    return [torch.randn(batch_size, features, length)]


def get_init_inputs():
    return [features]
