import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS normalisation through PyTorch's fused op, as nn.RMSNorm reaches it where PyTorch has one: its
    output and rstd; the eps left to its default (the dtype's machine epsilon)."""

    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(features) + 0.5)

    def forward(self, x):
        return torch.ops.aten._fused_rms_norm(x, [x.shape[-2], x.shape[-1]], self.weight.view(x.shape[-2], -1), None)[0]


def get_inputs():
    return [torch.randn(3, 4, 6, 5) * 0.01]


def get_init_inputs():
    return [30]
