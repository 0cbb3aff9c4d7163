import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """The GELU of MinGPT (the "new GELU", tanh form), written out in PyTorch ops."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


batch_size = 16
dim = 1000


def get_inputs():
    return [torch.randn(batch_size, dim) * 3]


def get_init_inputs():
    return []
