import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.L1Loss(reduction='none')

    def forward(self, a, b):
        return self.loss(a, b)


def get_inputs():
    return [torch.randn(2, 3, 4, 8, 8), torch.randn(2, 3, 4, 8, 8)]


def get_init_inputs():
    return []
