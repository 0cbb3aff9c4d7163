import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.rand(15) + 0.5)
        self.b = nn.Parameter(torch.randn(15))

    def forward(self, x):
        return F.group_norm(x, 5, self.w, self.b, eps=1e-6)


def get_inputs():
    return [torch.randn(3, 15, 10, 9)]


def get_init_inputs():
    return []
