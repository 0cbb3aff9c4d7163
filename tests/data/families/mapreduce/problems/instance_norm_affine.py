import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm2d with a weight and bias: PyTorch traces it as BatchNorm over the input viewed
    [1, N * C, H, W], the parameters repeated N times (aten.repeat)."""

    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm2d(5, affine=True)
        with torch.no_grad():
            self.norm.weight.copy_(torch.linspace(0.5, 2.0, 5))
            self.norm.bias.copy_(torch.linspace(-1.0, 1.0, 5))

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(2, 5, 9, 13) * 3 + 1]


def get_init_inputs():
    return []
