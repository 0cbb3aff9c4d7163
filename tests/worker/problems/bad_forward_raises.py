import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x @ torch.randn(5, 5)  # shapes do not match


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
