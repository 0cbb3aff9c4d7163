import torch
import torch.nn as nn


class Model(nn.Module):
    """GroupNorm of 8 channels in 2 groups (KernelBench 35 at a small shape)."""

    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)
        with torch.no_grad():
            self.gn.weight.uniform_(0.5, 1.5)
            self.gn.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    return [torch.rand(4, 8, 6, 5)]


def get_init_inputs():
    return [8, 2]
