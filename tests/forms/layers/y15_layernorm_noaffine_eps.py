import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over the last dim without affine, eps=1e-3."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(64, eps=1e-3, elementwise_affine=False)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(4, 16, 64) * 0.05]


def get_init_inputs():
    return []
