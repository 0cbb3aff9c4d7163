import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the last three axes, with its weight and bias (KernelBench 40 at a small shape)."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)
        with torch.no_grad():  # weights other than ones and zeros, so that they are really read
            self.ln.weight.uniform_(0.5, 1.5)
            self.ln.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.rand(4, 8, 6, 5)]


def get_init_inputs():
    return [(8, 6, 5)]
