import torch
import torch.nn as nn


class Model(nn.Module):
    """PReLU with a slope a channel (nn.PReLU's weight, viewed to broadcast over [N, C, H, W]): a pointwise op
    with a parameter."""

    def __init__(self, channels):
        super().__init__()
        self.prelu = nn.PReLU(channels)
        with torch.no_grad():
            self.prelu.weight.uniform_(0.0, 0.5)

    def forward(self, x):
        return self.prelu(x)


def get_inputs():
    return [torch.randn(4, 8, 15, 17)]


def get_init_inputs():
    return [8]
