import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over the last dim with bias=False and a random weight."""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(64, bias=False)
        torch.manual_seed(0)
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(64))

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(4, 16, 64)]


def get_init_inputs():
    return []
