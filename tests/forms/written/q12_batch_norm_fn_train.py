import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return F.batch_norm(x, None, None, training=True, eps=1e-3)


def get_inputs():
    return [torch.randn(32, 24)]


def get_init_inputs():
    return []
