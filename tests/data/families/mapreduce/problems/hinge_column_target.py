import torch
import torch.nn as nn


class Model(nn.Module):
    """A hinge loss whose targets are one column [B, 1], broadcast over the predictions' 3 columns: the
    target is constant along the tile's axes, so its load has a scalar offset."""

    def forward(self, predictions, targets):
        return torch.clamp(1 - predictions * targets, min=0).mean()


def get_inputs():
    return [torch.randn(77, 3), torch.randint(0, 2, (77, 1)).float() * 2 - 1]


def get_init_inputs():
    return []
