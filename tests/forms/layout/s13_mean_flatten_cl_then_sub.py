import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x minus mean over flatten(2) of a channels_last input, broadcast back."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        m = x.flatten(2).mean(dim=-1)
        return x - m[:, :, None, None]


def get_inputs():
    return [torch.randn(2, 6, 5, 7).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
