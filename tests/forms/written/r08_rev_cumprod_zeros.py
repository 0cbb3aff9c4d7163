import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return x.flip(-1).cumprod(-1).flip(-1)


def get_inputs():
    return [(torch.rand(16, 64) + 0.5) * (torch.rand(16, 64) > 0.05)]


def get_init_inputs():
    return []
