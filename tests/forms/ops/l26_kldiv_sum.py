import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, p, t):
        return F.kl_div(p, t, reduction='sum')


def get_inputs():
    return [torch.randn(64, 128).log_softmax(-1), torch.randn(64, 128).softmax(-1)]


def get_init_inputs():
    return []
