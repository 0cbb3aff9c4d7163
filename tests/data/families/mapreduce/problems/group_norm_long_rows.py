import torch
import torch.nn as nn


class Model(nn.Module):
    """GroupNorm with rows long enough to share between programs (4 rows of 2 x 2048), with an affine map."""

    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)
        with torch.no_grad():
            self.gn.weight.uniform_(0.5, 1.5)
            self.gn.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    return [torch.rand(2, 4, 32, 64)]


def get_init_inputs():
    return [4, 2]
