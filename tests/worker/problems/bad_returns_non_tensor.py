import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return "not a tensor"


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
