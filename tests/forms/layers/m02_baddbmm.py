import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.baddbmm: beta * C + alpha * (A @ B), batched."""

    def forward(self, C, A, B):
        return torch.baddbmm(C, A, B, beta=0.5, alpha=2.0)


def get_inputs():
    return [torch.randn(4, 32, 24), torch.randn(4, 32, 40), torch.randn(4, 40, 24)]


def get_init_inputs():
    return []
