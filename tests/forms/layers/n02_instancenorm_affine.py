import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm2d with affine=True and random weight and bias."""

    def __init__(self, c):
        super().__init__()
        self.norm = nn.InstanceNorm2d(c, affine=True)
        torch.manual_seed(0)
        with torch.no_grad():
            self.norm.weight.copy_(torch.randn(c))
            self.norm.bias.copy_(torch.randn(c))

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(2, 8, 16, 16)]


def get_init_inputs():
    return [8]
