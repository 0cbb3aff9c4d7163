# An exclusive scan written with the slice inside the cat: cumsum(cat([0, x[:, :L-1]])).
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.cumsum(torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1), dim=1)


def get_inputs():
    return [torch.randn(5, 23, 3)]


def get_init_inputs():
    return []
