# A softmax over a tensor of no elements: refused once, for every family, by the shape.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=0)


def get_inputs():
    return [torch.randn(0, 5)]


def get_init_inputs():
    return []
