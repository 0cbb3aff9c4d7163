import torch
import torch.nn as nn


class Model(nn.Module):
    """torch's own RMSNorm module over the last axis: its trace adds eps in place (mean(x^2).add_(eps))."""

    def __init__(self, features: int):
        super().__init__()
        self.norm = nn.RMSNorm(features, eps=1e-6)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(3, 5, 40)]


def get_init_inputs():
    return [40]
