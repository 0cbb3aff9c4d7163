import torch
import torch.nn as nn


class Model(nn.Module):
    """A dropout in training mode (a module's default): its mask is drawn afresh on every call."""

    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        return torch.relu(self.drop(x))


def get_inputs():
    return [torch.randn(8, 33)]


def get_init_inputs():
    return []
