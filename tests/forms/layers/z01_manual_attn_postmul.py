import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Attention written out, scores multiplied by 0.25 after the product."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, q, k, v):
        return torch.softmax((q @ k.transpose(-2, -1)) * 0.25, dim=-1) @ v


def get_inputs():
    return [torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16), torch.randn(2, 2, 32, 16)]


def get_init_inputs():
    return []
