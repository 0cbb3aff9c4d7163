import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """cross_entropy with class weights (a buffer) over [N, C, H, W] logits, mean."""

    def __init__(self):
        super().__init__()
        self.register_buffer('w', torch.rand(7) + 0.5)

    def forward(self, x, t):
        return F.cross_entropy(x, t, weight=self.w)


def get_inputs():
    return [torch.randn(2, 7, 8, 9), torch.randint(0, 7, (2, 8, 9))]


def get_init_inputs():
    return []
