import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over last dim then GELU."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(64)

    def forward(self, x):
        return F.gelu(self.ln(x))


def get_inputs():
    return [torch.randn(8, 16, 64)]


def get_init_inputs():
    return []
