import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS normalisation over the channel axis, written out (KernelBench 36 at a small shape)."""

    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms


def get_inputs():
    return [torch.rand(4, 8, 6, 5)]


def get_init_inputs():
    return [8]
