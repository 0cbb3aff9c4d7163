import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('w', torch.rand(10) + 0.5)

    def forward(self, x, t):
        return F.cross_entropy(x, t, weight=self.w, reduction='none')


def get_inputs():
    return [torch.randn(64, 10), torch.randint(0, 10, (64,))]


def get_init_inputs():
    return []
