import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ConvTranspose2d stride 2 then ReLU."""

    def __init__(self):
        super().__init__()
        self.tconv = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        return torch.relu(self.tconv(x))


def get_inputs():
    return [torch.randn(2, 8, 8, 8)]


def get_init_inputs():
    return []
