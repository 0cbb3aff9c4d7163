import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose3d stride 2 then ReLU."""

    def __init__(self):
        super().__init__()
        self.t = nn.ConvTranspose3d(4, 2, 2, stride=2)

    def forward(self, x):
        return F.relu(self.t(x))


def get_inputs():
    return [torch.randn(1, 4, 4, 5, 6)]


def get_init_inputs():
    return []
