import torch
import torch.nn as nn


class Model(nn.Module):
    """Each channel's plane minus its mean taken over the flattened plane: the mean is a row of the domain
    [N, C, H*W], read back in x's own frame [N, C, H, W] through [:, :, None, None]."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        m = x.flatten(2).mean(dim=-1)
        return x - m[:, :, None, None]


def get_inputs():
    return [torch.randn(2, 6, 5, 7)]


def get_init_inputs():
    return []
