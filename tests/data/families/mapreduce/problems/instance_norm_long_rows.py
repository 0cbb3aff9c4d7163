import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm2d with rows long enough to share between programs (6 rows of 4096)."""

    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(num_features=num_features)

    def forward(self, x):
        return self.inorm(x)


def get_inputs():
    return [torch.rand(2, 3, 64, 64) * 2.0 + 5.0]


def get_init_inputs():
    return [3]
