import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """InstanceNorm3d (affine) on a channels_last_3d input."""

    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm3d(3, affine=True)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)]


def get_init_inputs():
    return []
